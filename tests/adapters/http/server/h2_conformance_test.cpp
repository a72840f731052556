// RFC 9113's rules a server must enforce, each case citing its section (h2spec, the usual suite, is
// in neither Debian nor npm). Raw frames over real sockets for the connection errors: each ends
// with GOAWAY and the error code the section names, and the server goes on serving another client.
// nghttp2's client for the stream errors: the stream is reset or refused with the contract's Error
// body, and the connection goes on.

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

// setting: one SETTINGS parameter (RFC 9113 section 6.5.1), identifier then value.
std::string setting(std::uint16_t id, std::uint32_t value) {
  std::string bytes;
  bytes += static_cast<char>(id >> 8U);
  bytes += static_cast<char>(id & 0xffU);
  for (int shift = 24; shift >= 0; shift -= 8) {
    bytes += static_cast<char>((value >> static_cast<unsigned>(shift)) & 0xffU);
  }
  return bytes;
}

// word: a 31- or 32-bit value as four bytes (WINDOW_UPDATE, RST_STREAM).
std::string word(std::uint32_t value) { return setting(0, value).substr(2); }

// sends `frames` on a connection past its preface and expects GOAWAY with `code`, then close.
void expect_connection_error(const std::string& frames, std::uint32_t code) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  ASSERT_TRUE(raw.send(frames));
  expect_cut_off(raw, server, code);
}

TEST(Http2Conformance, ThePrefaceIsFollowedBySettings_3_4) {
  ServerUnderTest server;
  RawConnection raw = server.connect();
  ASSERT_TRUE(raw.send(std::string(h2_preface) + h2_frame(h2::ping, 0, 0, std::string(8, 'p'))));
  expect_cut_off(raw, server, NGHTTP2_PROTOCOL_ERROR);
}

TEST(Http2Conformance, AFrameOverTheMaximumSizeIsAFrameSizeError_4_2) {
  // SETTINGS_MAX_FRAME_SIZE is 16,384 until the server says more; it never does.
  expect_connection_error(h2_frame(h2::headers, h2::end_headers, 1, std::string(16'385, 'x')),
                          NGHTTP2_FRAME_SIZE_ERROR);
}

TEST(Http2Conformance, AHeaderBlockThatCannotBeDecodedIsACompressionError_4_3) {
  // RFC 7541 section 6.1: the index 0 is not used, and is a decoding error.
  expect_connection_error(h2_frame(h2::headers, h2::end_headers | h2::end_stream, 1, "\x80"),
                          NGHTTP2_COMPRESSION_ERROR);
}

TEST(Http2Conformance, AStreamIdentifierOfTheServersIsAProtocolError_5_1_1) {
  expect_connection_error(h2_get_headers(2, "/healthz"), NGHTTP2_PROTOCOL_ERROR);
}

// Section 5.1.1 makes a HEADERS frame on an identifier below one already used a connection error.
// nghttp2 drops the frame instead (a client may send trailers on a stream the server has reset),
// so such a request is never served; each still costs its decoding, and a flood of them ends the
// connection as any frame that gives the client nothing does (docs/decisions/http2.md).
TEST(Http2Conformance, HeadersOnAPassedIdentifierAreNotServedAndAFloodIsCutOff_5_1_1) {
  ServerUnderTest server;
  RawConnection raw = open_h2_raw(server);
  const H2Fields key{{"authorization", bearer(test_key_a)}};
  std::string frames = h2_get_headers(1'000'001, "/healthz");
  for (std::uint32_t i = 0; i < 2 * adapters::http::h2_idle_frame_burst; ++i) {
    frames += h2_get_headers((2 * i) + 1, "/v1/pets", key);
  }
  ASSERT_TRUE(raw.send(frames));
  const std::string received = expect_cut_off(raw, server, NGHTTP2_ENHANCE_YOUR_CALM);
  for (const H2Frame& frame : h2_frames(received)) {
    EXPECT_TRUE(frame.type != h2::headers || frame.stream_id == 1'000'001U)
        << "a response on the passed stream " << frame.stream_id;
  }
}

TEST(Http2Conformance, DataOnAnIdleStreamIsAProtocolError_5_1) {
  expect_connection_error(h2_frame(h2::data, h2::end_stream, 1, "{}"), NGHTTP2_PROTOCOL_ERROR);
}

TEST(Http2Conformance, ResetOfAnIdleStreamIsAProtocolError_6_4) {
  expect_connection_error(h2_frame(h2::rst_stream, 0, 1, word(NGHTTP2_CANCEL)),
                          NGHTTP2_PROTOCOL_ERROR);
}

TEST(Http2Conformance, SettingsOfALengthNotAMultipleOfSixAreAFrameSizeError_6_5) {
  expect_connection_error(h2_frame(h2::settings, 0, 0, std::string(5, '\0')),
                          NGHTTP2_FRAME_SIZE_ERROR);
}

TEST(Http2Conformance, EnablePushOtherThanZeroOrOneIsAProtocolError_6_5_2) {
  expect_connection_error(h2_frame(h2::settings, 0, 0, setting(NGHTTP2_SETTINGS_ENABLE_PUSH, 2)),
                          NGHTTP2_PROTOCOL_ERROR);
}

TEST(Http2Conformance, AnInitialWindowPastTheMaximumIsAFlowControlError_6_5_2) {
  expect_connection_error(
      h2_frame(h2::settings, 0, 0, setting(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 0x8000'0000U)),
      NGHTTP2_FLOW_CONTROL_ERROR);
}

TEST(Http2Conformance, AWindowUpdateOfZeroIsAProtocolError_6_9) {
  expect_connection_error(h2_frame(h2::window_update, 0, 0, word(0)), NGHTTP2_PROTOCOL_ERROR);
}

TEST(Http2Conformance, AWindowPastTheMaximumIsAFlowControlError_6_9_1) {
  expect_connection_error(h2_frame(h2::window_update, 0, 0, word(0x7fff'ffffU)),
                          NGHTTP2_FLOW_CONTROL_ERROR);
}

TEST(Http2Conformance, ContinuationWithoutHeadersIsAProtocolError_6_10) {
  expect_connection_error(
      h2_frame(h2::continuation, h2::end_headers, 1, hpack_literal("x-late", "1")),
      NGHTTP2_PROTOCOL_ERROR);
}

// Stream errors: the stream ends, nothing is created, and the connection serves what follows.
class Http2StreamErrors : public ::testing::Test {
 protected:
  // expect_nothing_created: the catalogue is still empty, and the connection still answers.
  void expect_nothing_created() {
    const H2Response page =
        client_.send(H2Request{"GET", "/v1/pets", {{"authorization", bearer(test_key_a)}}, {}});
    EXPECT_EQ(page.status, 200U);
    EXPECT_EQ(page.body, "[]");
  }

  // create: a create with `fields` besides the key and content type, and `body`.
  H2Response create(H2Fields fields, std::string body = R"({"name":"Rex","categoryId":7})") {
    fields.emplace_back("authorization", bearer(test_key_a));
    fields.emplace_back("content-type", "application/json");
    return client_.send(H2Request{"POST", "/v1/pets", std::move(fields), std::move(body)});
  }

  ServerUnderTest server_;
  H2Client client_ = H2Client::connect(server_.address());
};

// A field value with white space at either end is malformed (section 8.2.1). nghttp2 would drop
// the field and go on: a create would lose its Idempotency-Key, so it is refused instead.
TEST_F(Http2StreamErrors, AFieldValueWithWhiteSpaceAtAnEndIsRefused_8_2_1) {
  const H2Response refused = create({{"idempotency-key", "retry-me "}});
  EXPECT_EQ(refused.status, 400U);
  EXPECT_NE(refused.body.find(R"("code":"invalid_parameter")"), std::string::npos) << refused.body;
  expect_nothing_created();
}

// nghttp2 resets a stream whose field name has upper case (a stream error, section 8.1.1).
TEST_F(Http2StreamErrors, AFieldNameInUpperCaseResetsTheStream_8_2_1) {
  const H2Response refused = create({{"Idempotency-Key", "retry-me"}});
  EXPECT_EQ(refused.status, 0U);
  EXPECT_TRUE(refused.reset);
  EXPECT_EQ(refused.reset_code, static_cast<std::uint32_t>(NGHTTP2_PROTOCOL_ERROR));
  expect_nothing_created();
}

TEST_F(Http2StreamErrors, AConnectionSpecificFieldResetsTheStream_8_2_2) {
  const H2Response refused = create({{"connection", "keep-alive"}});
  EXPECT_EQ(refused.status, 0U);
  EXPECT_TRUE(refused.reset);
  EXPECT_EQ(refused.reset_code, static_cast<std::uint32_t>(NGHTTP2_PROTOCOL_ERROR));
  expect_nothing_created();
}

TEST_F(Http2StreamErrors, AContentLengthTheDataDoesNotMatchResetsTheStream_8_1_1) {
  const H2Response refused = create({{"content-length", "100"}});
  EXPECT_EQ(refused.status, 0U);
  EXPECT_TRUE(refused.reset);
  EXPECT_EQ(refused.reset_code, static_cast<std::uint32_t>(NGHTTP2_PROTOCOL_ERROR));
  expect_nothing_created();
}

}  // namespace
}  // namespace petstore::tests
