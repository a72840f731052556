#include "application/accepted_key_memo.hpp"

#include <utility>

namespace petstore::application {
namespace {

bool equal_in_constant_time(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) {
    return false;
  }
  unsigned difference = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    difference |= static_cast<unsigned char>(a[i]) ^ static_cast<unsigned char>(b[i]);
  }
  return difference == 0;
}

}  // namespace

const ports::Principal* AcceptedKeyMemo::recall(std::string_view key,
                                                std::uint64_t key_set_version) const noexcept {
  if (!principal_ || key_set_version != key_set_version_ || !equal_in_constant_time(key, key_)) {
    return nullptr;
  }
  return &*principal_;
}

void AcceptedKeyMemo::remember(std::string_view key, std::uint64_t key_set_version,
                               ports::Principal principal) {
  if (key.size() > max_key_bytes) {
    principal_.reset();
    return;
  }
  key_.assign(key);
  key_set_version_ = key_set_version;
  principal_ = std::move(principal);
}

}  // namespace petstore::application
