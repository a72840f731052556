#pragma once
// A KeyVerifier with three fixed API keys, for component tests that need no key file:
// test_key_a is Principal{"key-a"}, test_key_b is Principal{"key-b"}, and test_key_read_only is
// the read-only Principal{"key-r", "dashboards"}; any other key is unauthenticated, as the port
// promises. All are valid RFC 6750 token68 values.

#include <memory>
#include <string_view>

#include "ports/key_verifier.hpp"

namespace petstore::tests {

inline constexpr std::string_view test_key_a = "petstore-test-key-a";
inline constexpr std::string_view test_key_b = "petstore-test-key-b";
inline constexpr std::string_view test_key_read_only = "petstore-test-key-read-only";

// make_fake_key_verifier: the verifier of the three test keys. Thread-safe.
[[nodiscard]] std::unique_ptr<ports::KeyVerifier> make_fake_key_verifier();

}  // namespace petstore::tests
