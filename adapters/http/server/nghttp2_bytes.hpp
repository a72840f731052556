#pragma once
// The two conversions every user of nghttp2 here makes (the server and the tests' HTTP/2 client).

#include <cstddef>
#include <cstdint>
#include <nghttp2/nghttp2.h>
#include <string_view>

namespace petstore::adapters::http {

// nghttp2_text: bytes nghttp2 hands out (a field's name or value, a DATA chunk) as text.
inline std::string_view nghttp2_text(const std::uint8_t* bytes, std::size_t size) {
  return {reinterpret_cast<const char*>(bytes), size};  // NOLINT: nghttp2 hands out bytes
}

// nghttp2_field: a field for nghttp2_submit_request or _response, which copy it.
inline nghttp2_nv nghttp2_field(std::string_view name, std::string_view value) {
  // NOLINTBEGIN(cppcoreguidelines-pro-type-const-cast,cppcoreguidelines-pro-type-reinterpret-cast):
  // nghttp2's nv names non-const bytes it only reads.
  return nghttp2_nv{const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>(name.data())),
                    const_cast<std::uint8_t*>(reinterpret_cast<const std::uint8_t*>(value.data())),
                    name.size(), value.size(), NGHTTP2_NV_FLAG_NONE};
  // NOLINTEND(cppcoreguidelines-pro-type-const-cast,cppcoreguidelines-pro-type-reinterpret-cast)
}

}  // namespace petstore::adapters::http
