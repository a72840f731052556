// Hostile HTTP/2 clients, with raw frames over real sockets: each pattern that costs the server and
// gives the client nothing is cut off with GOAWAY (ENHANCE_YOUR_CALM or a protocol error) and the
// connection closed, within a bounded number of frames, while another client is still served.
// PING and SETTINGS floods; rapid reset (CVE-2023-44487: streams opened and reset at once);
// CONTINUATION floods (CVE-2024-27316's class); a zero flow-control window that never opens; a
// connection that never sends a request.

#include <nghttp2/nghttp2.h>
#include <string>

#include <gtest/gtest.h>

#include "adapters/http/server/h2_protocol.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/h2_client.hpp"
#include "support/h2_raw.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// More frames of a kind than the server lets pass: its budget, twice over.
constexpr int flood_frames = static_cast<int>(2 * adapters::http::h2_idle_frame_burst) + 500;

TEST(Http2Hostile, APingFloodIsCutOff) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  std::string flood;
  for (int i = 0; i < flood_frames; ++i) {
    flood += h2_frame(h2::ping, 0, 0, std::string(8, 'p'));
  }
  (void)raw.send(flood);
  expect_cut_off(raw, server, NGHTTP2_ENHANCE_YOUR_CALM);
}

TEST(Http2Hostile, ASettingsFloodIsCutOff) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  std::string flood;
  for (int i = 0; i < flood_frames; ++i) {
    flood += h2_frame(h2::settings, 0, 0, {});
  }
  (void)raw.send(flood);
  expect_cut_off(raw, server, NGHTTP2_ENHANCE_YOUR_CALM);
}

// CVE-2023-44487: each stream costs the server a request and the client one frame more.
TEST(Http2Hostile, RapidResetIsCutOff) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  std::string flood;
  const H2Fields key{{"authorization", bearer(test_key_a)}};
  for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(flood_frames); ++i) {
    const std::uint32_t stream = 2 * i + 1;
    flood += h2_get_headers(stream, "/v1/pets", key);
    flood += h2_frame(h2::rst_stream, 0, stream, std::string("\0\0\0\x8", 4));  // CANCEL
  }
  (void)raw.send(flood);
  expect_cut_off(raw, server, NGHTTP2_ENHANCE_YOUR_CALM);
}

// CVE-2024-27316's class: a header block that never ends, in CONTINUATION frames.
TEST(Http2Hostile, AContinuationFloodIsCutOff) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  std::string flood = h2_frame(h2::headers, 0, 1, hpack_literal(":method", "GET"));
  for (int i = 0; i < flood_frames; ++i) {
    flood += h2_frame(h2::continuation, 0, 1, hpack_literal("x-filler", "0123456789"));
  }
  (void)raw.send(flood);
  const auto received = raw.read_until_closed(10s);
  ASSERT_TRUE(received.has_value()) << "the connection is still open";
  EXPECT_TRUE(h2_goaway_code(*received).has_value()) << "closed without GOAWAY";
  H2Client other = H2Client::connect(server.address());
  EXPECT_EQ(other.send(H2Request{"GET", "/healthz", {}, {}}).status, 200U);
}

// A client that opens no window for the response (SETTINGS_INITIAL_WINDOW_SIZE 0, RFC 9113
// section 6.9.2) holds it no longer than the write timeout.
TEST(Http2Hostile, AWindowThatNeverOpensEndsWithinTheWriteTimeout) {
  adapters::http::HttpLimits limits;
  limits.write_timeout = 300ms;
  ServerUnderTest server(limits);
  RawConnection raw = server.connect();
  const std::string zero_window("\0\x4\0\0\0\0", 6);  // SETTINGS_INITIAL_WINDOW_SIZE = 0
  ASSERT_TRUE(raw.send(std::string(h2_preface) + h2_frame(h2::settings, 0, 0, zero_window) +
                       h2_get_headers(1, "/healthz")));
  EXPECT_TRUE(raw.read_until_closed(5s).has_value()) << "the stalled response holds the connection";
}

// A connection that sends the preface and nothing more is closed after the header timeout.
TEST(Http2Hostile, AConnectionThatAsksNothingIsClosedAfterTheHeaderTimeout) {
  adapters::http::HttpLimits limits;
  limits.header_timeout = 300ms;
  ServerUnderTest server(limits);
  RawConnection raw = open_h2_raw(server);
  EXPECT_TRUE(raw.read_until_closed(5s).has_value());
}

// A request whose body never comes holds its stream no longer than the body timeout.
TEST(Http2Hostile, ABodyThatNeverComesEndsWithinTheBodyTimeout) {
  adapters::http::HttpLimits limits;
  limits.body_timeout = 300ms;
  ServerUnderTest server(limits);
  RawConnection raw = open_h2_raw(server);
  const std::string block = hpack_literal(":method", "POST") + hpack_literal(":scheme", "http") +
                            hpack_literal(":authority", "localhost") +
                            hpack_literal(":path", "/v1/pets");
  ASSERT_TRUE(raw.send(h2_frame(h2::headers, h2::end_headers, 1, block)));
  EXPECT_TRUE(raw.read_until_closed(5s).has_value());
}

}  // namespace
}  // namespace petstore::tests
