#pragma once
// expect_refused_and_closed: the server's answer to a request it refuses at the framing level:
// one error response with the contract's Error body, then the connection closed (nothing after
// a refused frame may be read as a next request).

#include <chrono>
#include <string_view>

#include <gtest/gtest.h>

#include "support/json_bodies.hpp"
#include "support/raw_http_connection.hpp"

namespace petstore::tests {

inline void expect_refused_and_closed(RawConnection& connection, unsigned status,
                                      std::string_view code) {
  const RawResponse response = connection.read_response(std::chrono::seconds(5));
  EXPECT_EQ(response.status, status);
  EXPECT_TRUE(is_error_body(response.body, status, code)) << response.body;
  EXPECT_TRUE(connection.read_until_closed(std::chrono::seconds(5)).has_value());
}

}  // namespace petstore::tests
