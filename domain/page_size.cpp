#include "domain/page_size.hpp"

#include <string>

namespace petstore::domain {

Result<PageSize> PageSize::from(std::int64_t count, std::string_view field) {
  if (count < min || count > max) {
    const std::string name(field);
    return invalid_argument(name, name + " must be an integer from 1 to 100");
  }
  return PageSize(count);
}

}  // namespace petstore::domain
