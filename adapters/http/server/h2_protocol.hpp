#pragma once
// Http2Protocol: one HTTP/2 connection (RFC 9113) on libnghttp2: frames in, requests to the same
// Router as HTTP/1.1, responses back as frames. No I/O: Http2Session (h2_session.hpp) moves the
// bytes and calls it, on the connection's executor only. A request waiting for storage waits in a
// ResponseSlot in a coroutine of its own, so it holds up no other stream.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "application/accepted_key_memo.hpp"

struct nghttp2_session;
struct nghttp2_session_callbacks;

namespace petstore::adapters::http {

// The HTTP/2 settings and limits beside HttpLimits (docs/decisions/http2.md has the table).
// Streams open at once; one still waiting for storage counts, though its client has reset it.
inline constexpr std::uint32_t h2_max_concurrent_streams = 100;
// The HPACK table of each side, the encoder's whatever the client allows: RFC 7541's default.
inline constexpr std::uint32_t h2_header_table_bytes = 4096;
// Frames that cost the server and give the client nothing (PING, SETTINGS, RST_STREAM, ...): a
// burst of this many, then this many a second; past that, GOAWAY (ENHANCE_YOUR_CALM).
inline constexpr double h2_idle_frame_burst = 1000;
inline constexpr double h2_idle_frames_a_second = 100;

class Http2Protocol final : public std::enable_shared_from_this<Http2Protocol> {
 public:
  using Clock = std::chrono::steady_clock;

  // Http2Protocol: a server session for the client at `state.client_address`, its SETTINGS
  // queued; held by a shared_ptr. `wake` is called whenever frames wait to be sent while no read
  // is being handled (a response from storage); it must outlive the protocol or be detach()ed.
  Http2Protocol(boost::asio::any_io_executor executor, ConnectionState& state,
                const SessionContext& context, std::function<void()> wake);
  Http2Protocol(const Http2Protocol&) = delete;
  Http2Protocol& operator=(const Http2Protocol&) = delete;
  ~Http2Protocol();

  // receive: the client's bytes. False when the connection is to end once the frames queued (a
  // GOAWAY, say) are sent: a protocol error, a flood.
  [[nodiscard]] bool receive(std::string_view bytes);

  // produce: appends about `most` bytes of waiting frames to `out`; false when the session failed.
  [[nodiscard]] bool produce(std::string& out, std::size_t most);

  // wants_read, wants_write: nghttp2's; neither: the connection is done.
  [[nodiscard]] bool wants_read() const;
  [[nodiscard]] bool wants_write() const;

  // deadline: when the connection ends unless something changes: a request within the body
  // timeout of its first frame, a response taken within the write timeout, idleness within the
  // idle (first: header) timeout; nullopt while only storage is waited for.
  [[nodiscard]] std::optional<Clock::time_point> deadline() const;

  // detach: the connection's I/O is over: later answers are reported, never sent.
  void detach();

  // The registry's asks (ConnectionControl): GOAWAY; 503 to the streams storage holds, then GOAWAY.
  void drain();
  void refuse_waiting();

 private:
  struct Stream;
  struct Callbacks;

  // set_callbacks: nghttp2's callbacks, which read the client's frames (h2_requests.cpp).
  static void set_callbacks(nghttp2_session_callbacks* callbacks);
  Stream* find(std::int32_t id);
  void end_of_headers(Stream& stream, bool ends_stream);
  void dispatch(const std::shared_ptr<Stream>& stream);
  // await_answer: a request's wait for storage, then its answer (the slot's 503 at the deadline).
  static boost::asio::awaitable<void> await_answer(std::shared_ptr<Http2Protocol> self,
                                                   std::shared_ptr<Stream> stream);
  void answer(Stream& stream, HttpResponse response);
  // refuse: `response` (431 for a head past the limit, 413 for a body, 400 for a malformed
  // request) sent at once, the rest of the request ignored (and reset once the answer is whole).
  void refuse(Stream& stream, HttpResponse response);
  // spend_idle_frame: one frame that gave the client nothing; past the budget, GOAWAY.
  void spend_idle_frame();
  void wake_writer() const;

  boost::asio::any_io_executor executor_;
  ConnectionState& state_;
  const SessionContext context_;
  std::function<void()> wake_;
  nghttp2_session* session_ = nullptr;
  std::unordered_map<std::int32_t, std::shared_ptr<Stream>> streams_;  // those nghttp2 holds open
  std::unordered_map<std::int32_t, std::shared_ptr<Stream>> waiting_;  // those storage holds
  application::AcceptedKeyMemo accepted_key_;
  Clock::time_point idle_since_;
  bool served_one_ = false;
  bool detached_ = false;
  bool in_receive_ = false;
  double idle_frame_budget_ = h2_idle_frame_burst;
  Clock::time_point budget_checked_;
};

}  // namespace petstore::adapters::http
