#include "adapters/http/media_type.hpp"

#include "adapters/http/ascii.hpp"

namespace petstore::adapters::http {
namespace {

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string_view unquote(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

}  // namespace

bool is_json_media_type(std::string_view content_type) {
  std::string_view rest = content_type;
  const auto type_end = rest.find(';');
  if (!equals_ignoring_case(trim(rest.substr(0, type_end)), "application/json")) {
    return false;
  }
  while (rest.size() > 0 && rest.find(';') != std::string_view::npos) {
    rest.remove_prefix(rest.find(';') + 1);
    const std::string_view parameter = trim(rest.substr(0, rest.find(';')));
    if (parameter.empty()) {
      continue;  // RFC 9110 §5.6.6 allows empty parameters: "application/json;"
    }
    const auto equals = parameter.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      return false;
    }
    const std::string_view name = trim(parameter.substr(0, equals));
    const std::string_view value = unquote(trim(parameter.substr(equals + 1)));
    if (equals_ignoring_case(name, "charset") && !equals_ignoring_case(value, "utf-8")) {
      return false;
    }
  }
  return true;
}

}  // namespace petstore::adapters::http
