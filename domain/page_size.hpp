#pragma once
// PageSize: how many pets one page of a list holds, 1 to 100, 20 when not given.

#include <cstdint>
#include <string_view>

#include "domain/error.hpp"

namespace petstore::domain {

class PageSize {
 public:
  static constexpr std::int64_t min = 1;
  static constexpr std::int64_t max = 100;
  static constexpr std::int64_t fallback = 20;

  constexpr PageSize() noexcept = default;

  // from: the page size `count` if it is within 1..100, else invalid_argument naming `field`.
  [[nodiscard]] static Result<PageSize> from(std::int64_t count, std::string_view field = "limit");

  [[nodiscard]] constexpr std::int64_t value() const noexcept { return value_; }

 private:
  constexpr explicit PageSize(std::int64_t value) noexcept : value_(value) {}
  std::int64_t value_ = fallback;
};

}  // namespace petstore::domain
