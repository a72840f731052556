#pragma once
// Reads a Content-Type by RFC 9110 (sections 8.3.1 and 5.6.6) and decides whether it names JSON as
// the contract accepts it: `application/json` in any letter case, with any parameters as long as a
// charset, if given, is UTF-8.

#include <cstdint>
#include <string_view>

namespace petstore::adapters::http {

enum class JsonMediaType : std::uint8_t {
  json,           // application/json, in UTF-8
  other_charset,  // application/json with a charset other than UTF-8
  not_json,       // another media type, or no well-formed media type at all
};

[[nodiscard]] JsonMediaType classify_json_media_type(std::string_view content_type);

}  // namespace petstore::adapters::http
