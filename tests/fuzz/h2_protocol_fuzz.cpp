// Fuzzes the HTTP/2 server protocol (adapters/http/server/h2_protocol) without sockets, as
// Http2Session drives it: the client's preface and an empty SETTINGS frame, then the input's bytes
// as the frames a client sends, in reads of a size the first byte chooses; after each read the
// streams' answers are let run (the component service's Router on memory storage) and the frames
// waiting are taken, at most 64 KiB at a time, as the session's write loop takes them. Oracles:
// nothing a client sends breaks a sanitizer or the server's own checks; what the server sends is
// whole frames, every one of them on a client's (odd) stream or on the connection (stream 0).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>

#include "adapters/http/server/connection_registry.hpp"
#include "adapters/http/server/h2_protocol.hpp"
#include "bootstrap/service.hpp"
#include "support/fake_clock.hpp"

#include "fuzz/fuzz_key_verifier.hpp"
#include "fuzz/fuzz_support.hpp"

namespace {

using petstore::tests::fuzz::expect;
namespace http = petstore::adapters::http;

// The client connection preface (RFC 9113 section 3.4) and an empty SETTINGS frame.
constexpr std::string_view preface{"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\0\0\0\x4\0\0\0\0\0", 33};

// check_frames: `bytes` (all the server sent) is whole frames (RFC 9113 section 4.1), none on an
// even stream (the server pushes nothing).
void check_frames(std::string_view bytes) {
  constexpr std::size_t header_bytes = 9;
  const auto byte = [&bytes](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[at]));
  };
  while (!bytes.empty()) {
    expect(bytes.size() >= header_bytes, "the server sends whole frame headers");
    const std::size_t length = (byte(0) << 16U) | (byte(1) << 8U) | byte(2);
    expect(bytes.size() >= header_bytes + length, "the server sends whole frames");
    const std::uint32_t stream =
        ((byte(5) & 0x7fU) << 24U) | (byte(6) << 16U) | (byte(7) << 8U) | byte(8);
    expect(stream % 2 == 1 || stream == 0, "the server sends on the client's streams only");
    bytes.remove_prefix(header_bytes + length);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) {
    return 0;
  }
  const std::size_t read_size = 1 + (data[0] % 64);
  std::string_view input = petstore::tests::fuzz::as_text(data + 1, size - 1);

  auto service = petstore::bootstrap::build_component_service(
      std::make_unique<petstore::tests::fuzz::FuzzKeyVerifier>(),
      std::make_unique<petstore::tests::FakeClock>());
  http::HttpLimits limits;
  limits.header_bytes = 2048;
  limits.body_bytes = 1024;
  http::ConnectionRegistry registry(4);
  const http::SessionContext context{service->router(), limits, registry, nullptr, true};
  http::ConnectionState state;
  state.client_address = "192.0.2.1";
  boost::asio::io_context io;
  auto protocol = std::make_shared<http::Http2Protocol>(io.get_executor(), state, context, [] {});

  std::string sent;
  std::string out;
  bool open = protocol->receive(preface);
  while (open && !input.empty()) {
    const std::string_view read = input.substr(0, read_size);
    input.remove_prefix(read.size());
    open = protocol->receive(read);
    io.poll();  // the streams' waits for storage, answered by memory storage at once
    do {
      out.clear();
      if (!protocol->produce(out, 65536)) {
        open = false;
      }
      sent += out;
    } while (!out.empty());
    open = open && protocol->wants_read();
  }
  io.poll();
  out.clear();
  (void)protocol->produce(out, 65536);
  sent += out;
  check_frames(sent);
  protocol->detach();
  io.run();
  return 0;
}
