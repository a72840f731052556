#include "faults/fault_assertions.hpp"

#include <string>

#include "support/json_bodies.hpp"
#include "support/router_harness.hpp"

#include "faults/faulty_pet_repository.hpp"

namespace petstore::tests {
namespace {

testing::AssertionResult leaks_no_details(const HttpResponse& response) {
  for (const char* detail : internal_details) {
    if (response.body.find(detail) != std::string::npos) {
      return testing::AssertionFailure() << "the body leaks '" << detail << "': " << response.body;
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace

testing::AssertionResult is_unavailable(const HttpResponse& response) {
  if (response.status != 503) {
    return testing::AssertionFailure()
           << "expected 503, got " << response.status << " " << response.body;
  }
  if (auto body = is_error_body(response.body, 503, "unavailable"); !body) {
    return body;
  }
  if (auto clean = leaks_no_details(response); !clean) {
    return clean;
  }
  // Contract section 11: every 503 says when to try again, in whole seconds, at least 1.
  if (response.header("Retry-After") != "1") {
    return testing::AssertionFailure() << "a 503 without Retry-After: 1";
  }
  return has_v1_headers(response);
}

testing::AssertionResult is_internal_error(const HttpResponse& response) {
  if (response.status != 500) {
    return testing::AssertionFailure()
           << "expected 500, got " << response.status << " " << response.body;
  }
  if (auto body = is_error_body(response.body, 500, "internal_error"); !body) {
    return body;
  }
  if (auto clean = leaks_no_details(response); !clean) {
    return clean;
  }
  return has_v1_headers(response);
}

}  // namespace petstore::tests
