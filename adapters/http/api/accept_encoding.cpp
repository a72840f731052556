#include "adapters/http/api/accept_encoding.hpp"

#include <algorithm>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {
namespace {

// weight: the q parameter's value in a member's parameters (";q=0.5"), 1000 when it has none, or
// nullopt when it is no qvalue.
std::optional<unsigned> weight(std::string_view parameters) {
  for (std::size_t at = 0; at < parameters.size();) {
    const auto end = std::min(parameters.find(';', at), parameters.size());
    const std::string_view parameter = trim_ows(parameters.substr(at, end - at));
    const auto equals = std::min(parameter.find('='), parameter.size());
    if (equals_ignoring_case(trim_ows(parameter.substr(0, equals)), "q")) {
      return parse_qvalue(trim_ows(parameter.substr(std::min(equals + 1, parameter.size()))));
    }
    at = end + 1;
  }
  return 1000;
}

}  // namespace

std::optional<unsigned> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) {
    return std::nullopt;
  }
  unsigned thousandths = text[0] == '1' ? 1000 : 0;
  if (text.size() == 1) {
    return thousandths;
  }
  const std::string_view decimals = text.substr(2);
  if (text[1] != '.' || decimals.size() > 3) {
    return std::nullopt;
  }
  unsigned scale = 100;
  for (const char digit : decimals) {
    if (digit < '0' || digit > '9' || (thousandths == 1000 && digit != '0')) {
      return std::nullopt;
    }
    thousandths += static_cast<unsigned>(digit - '0') * scale;
    scale /= 10;
  }
  return thousandths;
}

bool accepts_gzip(std::string_view accept_encoding) {
  std::optional<unsigned> gzip;
  std::optional<unsigned> any;
  std::optional<unsigned> identity;
  for (std::size_t at = 0; at <= accept_encoding.size();) {
    const auto end = std::min(accept_encoding.find(',', at), accept_encoding.size());
    const std::string_view member = trim_ows(accept_encoding.substr(at, end - at));
    at = end + 1;
    const auto semicolon = std::min(member.find(';'), member.size());
    const std::string_view coding = trim_ows(member.substr(0, semicolon));
    const auto q = weight(member.substr(semicolon));
    if (!q) {
      continue;
    }
    if (equals_ignoring_case(coding, "gzip") || equals_ignoring_case(coding, "x-gzip")) {
      gzip = std::max(gzip.value_or(0), *q);
    } else if (coding == "*") {
      any = *q;
    } else if (equals_ignoring_case(coding, "identity")) {
      identity = *q;
    }
  }
  const unsigned taken = gzip ? *gzip : any.value_or(0);
  return taken > 0 && taken >= identity.value_or(0);
}

}  // namespace petstore::adapters::http
