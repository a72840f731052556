#include "support/h2_client.hpp"

#include <algorithm>
#include <arpa/inet.h>
#include <array>
#include <cerrno>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

#include "adapters/http/server/nghttp2_bytes.hpp"

namespace petstore::tests {
namespace {

using adapters::http::nghttp2_field;
using adapters::http::nghttp2_text;

using Clock = std::chrono::steady_clock;

}  // namespace

std::optional<std::string> H2Response::field(std::string_view name) const {
  for (const auto& [key, value] : fields) {
    if (key == name) {
      return value;
    }
  }
  return std::nullopt;
}

struct H2Client::State {
  struct Pending {
    H2Response* response = nullptr;
    const std::string* body = nullptr;
    const H2Fields* trailers = nullptr;
    std::size_t sent = 0;
    bool done = false;
  };

  int fd = -1;
  std::string authority;
  nghttp2_session* session = nullptr;
  std::map<std::int32_t, Pending> streams;
  std::map<std::int32_t, std::uint32_t> settings;
  std::optional<std::uint32_t> goaway;
  std::size_t received = 0;
  bool closed = false;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    nghttp2_session_del(session);
    if (fd >= 0) {
      ::close(fd);
    }
  }

  static State& self(void* user_data) { return *static_cast<State*>(user_data); }

  static int on_header(nghttp2_session* /*session*/, const nghttp2_frame* frame,
                       const std::uint8_t* name, std::size_t name_size, const std::uint8_t* value,
                       std::size_t value_size, std::uint8_t /*flags*/, void* user_data) {
    const auto found = self(user_data).streams.find(frame->hd.stream_id);
    if (found == self(user_data).streams.end()) {
      return 0;
    }
    H2Response& response = *found->second.response;
    const std::string_view key = nghttp2_text(name, name_size);
    if (key == ":status") {
      response.status =
          static_cast<unsigned>(std::stoul(std::string(nghttp2_text(value, value_size))));
    } else {
      response.fields.emplace_back(key, nghttp2_text(value, value_size));
    }
    return 0;
  }

  static int on_data(nghttp2_session* /*session*/, std::uint8_t /*flags*/, std::int32_t stream_id,
                     const std::uint8_t* data, std::size_t size, void* user_data) {
    const auto found = self(user_data).streams.find(stream_id);
    if (found != self(user_data).streams.end()) {
      found->second.response->body.append(nghttp2_text(data, size));
    }
    return 0;
  }

  static int on_frame(nghttp2_session* /*session*/, const nghttp2_frame* frame, void* user_data) {
    State& state = self(user_data);
    if (frame->hd.type == NGHTTP2_GOAWAY) {
      state.goaway = frame->goaway.error_code;
    } else if (frame->hd.type == NGHTTP2_RST_STREAM) {
      if (const auto found = state.streams.find(frame->hd.stream_id);
          found != state.streams.end()) {
        found->second.response->reset = true;
        found->second.response->reset_code = frame->rst_stream.error_code;
      }
    } else if (frame->hd.type == NGHTTP2_SETTINGS && (frame->hd.flags & NGHTTP2_FLAG_ACK) == 0 &&
               state.settings.empty()) {
      for (std::size_t i = 0; i < frame->settings.niv; ++i) {
        state.settings[frame->settings.iv[i].settings_id] = frame->settings.iv[i].value;
      }
    }
    return 0;
  }

  static int on_close(nghttp2_session* /*session*/, std::int32_t stream_id,
                      std::uint32_t /*error_code*/, void* user_data) {
    if (const auto found = self(user_data).streams.find(stream_id);
        found != self(user_data).streams.end()) {
      found->second.done = true;
    }
    return 0;
  }

  static ssize_t read_body(nghttp2_session* session, std::int32_t stream_id, std::uint8_t* buffer,
                           std::size_t length, std::uint32_t* flags, nghttp2_data_source* source,
                           void* /*user_data*/) {
    auto& pending = *static_cast<Pending*>(source->ptr);
    const std::size_t size = std::min(length, pending.body->size() - pending.sent);
    std::copy_n(pending.body->data() + pending.sent, size, buffer);
    pending.sent += size;
    if (pending.sent == pending.body->size()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      if (!pending.trailers->empty()) {
        *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
        std::vector<nghttp2_nv> nv;
        for (const auto& [name, value] : *pending.trailers) {
          nv.push_back(nghttp2_field(name, value));
        }
        nghttp2_submit_trailer(session, stream_id, nv.data(), nv.size());
      }
    }
    return static_cast<ssize_t>(size);
  }

  bool write_all(std::string_view bytes) {
    while (!bytes.empty()) {
      const auto written = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (written < 0 && errno == EINTR) {
        continue;
      }
      if (written <= 0) {
        closed = true;
        return false;
      }
      bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
  }

  void flush() {
    for (;;) {
      const std::uint8_t* data = nullptr;
      const auto size = nghttp2_session_mem_send(session, &data);
      if (size <= 0 || !write_all(nghttp2_text(data, static_cast<std::size_t>(size)))) {
        return;
      }
    }
  }

  // pump: sends what nghttp2 has, then reads for at most `wait`; false once the connection ended.
  bool pump(std::chrono::milliseconds wait) {
    flush();
    if (closed) {
      return false;
    }
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(std::max<long>(0, wait.count()))) <= 0) {
      return true;
    }
    std::array<char, 16384> buffer{};
    const auto read = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (read <= 0) {
      closed = true;
      return false;
    }
    received += static_cast<std::size_t>(read);
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): nghttp2 reads bytes
    nghttp2_session_mem_recv(session, reinterpret_cast<const std::uint8_t*>(buffer.data()),
                             static_cast<std::size_t>(read));
    flush();
    return true;
  }
};

H2Client H2Client::connect(std::string_view address) {
  const auto colon = address.rfind(':');
  const std::string host(address.substr(0, colon));
  const auto port = static_cast<std::uint16_t>(std::stoi(std::string(address.substr(colon + 1))));
  auto state = std::make_unique<State>();
  state->authority = std::string(address);
  state->fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in peer{};
  peer.sin_family = AF_INET;
  peer.sin_port = htons(port);
  ::inet_pton(AF_INET, host.c_str(), &peer.sin_addr);
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API
  if (::connect(state->fd, reinterpret_cast<const sockaddr*>(&peer), sizeof peer) != 0) {
    throw std::runtime_error("cannot connect to " + std::string(address));
  }
  const int on = 1;
  ::setsockopt(state->fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_session_callbacks_new(&callbacks);
  nghttp2_session_callbacks_set_on_header_callback(callbacks, &State::on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, &State::on_data);
  nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, &State::on_frame);
  nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, &State::on_close);
  nghttp2_session_client_new(&state->session, callbacks, state.get());
  nghttp2_session_callbacks_del(callbacks);
  nghttp2_submit_settings(state->session, NGHTTP2_FLAG_NONE, nullptr, 0);
  state->flush();
  // The server's SETTINGS come first on its side: read them, so that a test can ask.
  const auto until = Clock::now() + std::chrono::seconds(5);
  while (state->settings.empty() && Clock::now() < until &&
         state->pump(std::chrono::milliseconds(50))) {
  }
  return H2Client(std::move(state));
}

H2Client::H2Client(std::unique_ptr<State> state) : state_(std::move(state)) {}
H2Client::H2Client(H2Client&& other) noexcept = default;
H2Client& H2Client::operator=(H2Client&& other) noexcept = default;
H2Client::~H2Client() = default;

H2Response H2Client::send(const H2Request& request, std::chrono::milliseconds timeout) {
  return std::move(send_all({request}, timeout).front());
}

std::vector<H2Response> H2Client::send_all(const std::vector<H2Request>& requests,
                                           std::chrono::milliseconds timeout) {
  State& state = *state_;
  std::vector<H2Response> responses(requests.size());
  std::vector<std::int32_t> ids;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const H2Request& request = requests[i];
    const std::string scheme = "http";
    std::vector<nghttp2_nv> nv{
        nghttp2_field(":method", request.method), nghttp2_field(":scheme", scheme),
        nghttp2_field(":authority", state.authority), nghttp2_field(":path", request.path)};
    for (const auto& [name, value] : request.fields) {
      nv.push_back(nghttp2_field(name, value));
      // nghttp2 writes names in lower case unless told the name is not to be copied: a name in
      // upper case goes as written (a client breaking RFC 9113 section 8.2.1), from `request`,
      // which outlives the send.
      if (std::any_of(name.begin(), name.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
        nv.back().flags = NGHTTP2_NV_FLAG_NO_COPY_NAME;
      }
    }
    // The stream's entry first, so that the body's provider points at where it will stay.
    const auto next = static_cast<std::int32_t>(nghttp2_session_get_next_stream_id(state.session));
    auto& pending = state.streams[next];
    pending = State::Pending{&responses[i], &request.body, &request.trailers, 0, false};
    nghttp2_data_provider provider{};
    provider.source.ptr = &pending;
    provider.read_callback = &State::read_body;
    const std::int32_t id = nghttp2_submit_request(
        state.session, nullptr, nv.data(), nv.size(),
        request.body.empty() && request.trailers.empty() ? nullptr : &provider, nullptr);
    if (id != next) {
      throw std::runtime_error("nghttp2 gave stream " + std::to_string(id));
    }
    ids.push_back(id);
  }
  const auto until = Clock::now() + timeout;
  const auto all_done = [&] {
    return std::all_of(ids.begin(), ids.end(),
                       [&](std::int32_t id) { return state.streams[id].done; });
  };
  while (!all_done()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
    if (left.count() <= 0) {
      throw std::runtime_error("the server did not end every stream in time");
    }
    if (!state.pump(std::min(left, std::chrono::milliseconds(100)))) {
      if (all_done()) {
        break;
      }
      throw std::runtime_error("the connection ended before every stream did");
    }
  }
  for (const std::int32_t id : ids) {
    state.streams.erase(id);
  }
  return responses;
}

bool H2Client::send_raw(std::string_view bytes) {
  state_->flush();
  return state_->write_all(bytes);
}

bool H2Client::run_until_closed(std::chrono::milliseconds timeout) {
  const auto until = Clock::now() + timeout;
  while (Clock::now() < until) {
    if (!state_->pump(std::chrono::milliseconds(50))) {
      return true;
    }
  }
  return false;
}

std::optional<std::uint32_t> H2Client::goaway() const { return state_->goaway; }

std::optional<std::uint32_t> H2Client::setting(std::int32_t id) const {
  const auto found = state_->settings.find(id);
  if (found == state_->settings.end()) {
    return std::nullopt;
  }
  return found->second;
}

std::size_t H2Client::bytes_received() const { return state_->received; }

std::string h2_frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream_id,
                     std::string_view payload) {
  std::string frame;
  const auto length = static_cast<std::uint32_t>(payload.size());
  frame.push_back(static_cast<char>((length >> 16U) & 0xFFU));
  frame.push_back(static_cast<char>((length >> 8U) & 0xFFU));
  frame.push_back(static_cast<char>(length & 0xFFU));
  frame.push_back(static_cast<char>(type));
  frame.push_back(static_cast<char>(flags));
  frame.push_back(static_cast<char>((stream_id >> 24U) & 0x7FU));
  frame.push_back(static_cast<char>((stream_id >> 16U) & 0xFFU));
  frame.push_back(static_cast<char>((stream_id >> 8U) & 0xFFU));
  frame.push_back(static_cast<char>(stream_id & 0xFFU));
  frame.append(payload);
  return frame;
}

std::string hpack_literal(std::string_view name, std::string_view value) {
  std::string field(1, '\0');
  field.push_back(static_cast<char>(name.size()));
  field.append(name);
  field.push_back(static_cast<char>(value.size()));
  field.append(value);
  return field;
}

std::string h2_get_headers(std::uint32_t stream_id, std::string_view path, const H2Fields& fields) {
  std::string block = hpack_literal(":method", "GET") + hpack_literal(":scheme", "http") +
                      hpack_literal(":authority", "localhost") + hpack_literal(":path", path);
  for (const auto& [name, value] : fields) {
    block += hpack_literal(name, value);
  }
  return h2_frame(0x1, 0x4 | 0x1, stream_id, block);  // HEADERS, END_HEADERS | END_STREAM
}

std::vector<H2Frame> h2_frames(std::string_view bytes) {
  constexpr std::size_t header_bytes = 9;
  const auto byte = [&bytes](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at]));
  };
  std::vector<H2Frame> frames;
  while (bytes.size() >= header_bytes) {
    const std::size_t length = (byte(0) << 16U) | (byte(1) << 8U) | byte(2);
    if (bytes.size() < header_bytes + length) {
      break;
    }
    frames.push_back(
        H2Frame{static_cast<std::uint8_t>(byte(3)), static_cast<std::uint8_t>(byte(4)),
                ((byte(5) & 0x7fU) << 24U) | (byte(6) << 16U) | (byte(7) << 8U) | byte(8),
                std::string(bytes.substr(header_bytes, length))});
    bytes.remove_prefix(header_bytes + length);
  }
  return frames;
}

std::optional<std::uint32_t> h2_goaway_code(std::string_view bytes) {
  for (const H2Frame& frame : h2_frames(bytes)) {
    if (frame.type == 0x7 && frame.payload.size() >= 8) {  // GOAWAY: last stream, then the code
      const auto byte = [&frame](std::size_t at) {
        return static_cast<std::uint32_t>(static_cast<unsigned char>(frame.payload[at]));
      };
      return (byte(4) << 24U) | (byte(5) << 16U) | (byte(6) << 8U) | byte(7);
    }
  }
  return std::nullopt;
}

}  // namespace petstore::tests
