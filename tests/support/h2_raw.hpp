#pragma once
// Raw HTTP/2 connections, for tests that send frames no client library sends (h2_client.hpp builds
// the frames): one opened with the preface and SETTINGS, and the check that the server ended it
// with GOAWAY while it goes on serving others.

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "support/h2_client.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {

// open_h2_raw: a connection that has sent the preface and an empty SETTINGS frame.
inline RawConnection open_h2_raw(const ServerUnderTest& server) {
  RawConnection raw = server.connect();
  if (!raw.send(std::string(h2_preface) + h2_frame(h2::settings, 0, 0, {}))) {
    throw std::runtime_error("the server refused the preface");
  }
  return raw;
}

// expect_cut_off: the server sends GOAWAY with `code` and closes, and still serves another client.
// Returns what the server sent on the connection.
inline std::string expect_cut_off(RawConnection& raw, const ServerUnderTest& server,
                                  std::uint32_t code) {
  const auto received = raw.read_until_closed(std::chrono::seconds(10));
  if (!received) {
    ADD_FAILURE() << "the connection is still open";
    return {};
  }
  EXPECT_EQ(h2_goaway_code(*received), code);
  H2Client other = H2Client::connect(server.address());
  EXPECT_EQ(other.send(H2Request{"GET", "/healthz", {}, {}}).status, 200U);
  return *received;
}

}  // namespace petstore::tests
