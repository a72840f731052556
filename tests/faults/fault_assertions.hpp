#pragma once
// What a storage fault must look like to a client: the contract's 503 `unavailable` (with
// Retry-After) or 500 `internal_error` Error body, with the /v1 headers and none of the adapter's
// internal details.

#include <gtest/gtest.h>

#include "adapters/http/api/http_message.hpp"

namespace petstore::tests {

// is_unavailable / is_internal_error: whether `response` is the contract's 503 `unavailable`
// with Retry-After: 1, or its 500 `internal_error` with a message free of internal_details, with
// the /v1 headers.
[[nodiscard]] testing::AssertionResult is_unavailable(const adapters::http::HttpResponse& response);
[[nodiscard]] testing::AssertionResult is_internal_error(
    const adapters::http::HttpResponse& response);

}  // namespace petstore::tests
