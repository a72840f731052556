#include "adapters/http/api/http_message.hpp"

#include <algorithm>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {

std::optional<std::string_view> HttpResponse::header(std::string_view name) const {
  if (v1_fields) {
    if (equals_ignoring_case(name, "Cache-Control")) {
      return "no-store";
    }
    if (equals_ignoring_case(name, "X-Content-Type-Options")) {
      return "nosniff";
    }
  }
  const auto found = std::find_if(headers.begin(), headers.end(), [name](const auto& field) {
    return equals_ignoring_case(field.first.text(), name);
  });
  if (found == headers.end()) {
    return std::nullopt;
  }
  return found->second;
}

}  // namespace petstore::adapters::http
