#pragma once
// A KeyVerifier for the router fuzzer with keys short enough for the fuzzer to find: `k`
// (Principal "a") and `key2` (Principal "b"); any other key is unauthenticated.

#include <cstdint>
#include <string_view>

#include "domain/error.hpp"
#include "ports/key_verifier.hpp"

namespace petstore::tests::fuzz {

// FuzzKeyVerifier: accepts the keys `k` (Principal "a") and `key2` (Principal "b").
class FuzzKeyVerifier final : public ports::KeyVerifier {
 public:
  // KeyVerifier
  [[nodiscard]] domain::Result<ports::Principal> verify(std::string_view key) const override {
    if (key == "k") {
      return ports::Principal{"a"};
    }
    if (key == "key2") {
      return ports::Principal{"b"};
    }
    return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                              "the API key is not accepted");
  }
  [[nodiscard]] std::uint64_t key_set_version() const noexcept override { return 0; }  // fixed
};

}  // namespace petstore::tests::fuzz
