#include "support/fake_key_verifier.hpp"

#include <cstdint>

namespace petstore::tests {
namespace {

class FakeKeyVerifier final : public ports::KeyVerifier {
 public:
  // KeyVerifier
  [[nodiscard]] domain::Result<ports::Principal> verify(std::string_view key) const override {
    if (key == test_key_a) {
      return ports::Principal{"key-a"};
    }
    if (key == test_key_b) {
      return ports::Principal{"key-b"};
    }
    if (key == test_key_read_only) {
      return ports::Principal{"key-r", "dashboards", ports::KeyAccess::read_only};
    }
    return domain::make_error(domain::ErrorCode::unauthenticated, "token",
                              "the API key is not accepted");
  }
  [[nodiscard]] std::uint64_t key_set_version() const noexcept override { return 0; }  // fixed
};

}  // namespace

std::unique_ptr<ports::KeyVerifier> make_fake_key_verifier() {
  return std::make_unique<FakeKeyVerifier>();
}

}  // namespace petstore::tests
