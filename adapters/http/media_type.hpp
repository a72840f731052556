#pragma once
// Decides whether a Content-Type names JSON as the contract accepts it: `application/json`, in
// any letter case, with parameters allowed as long as any charset is UTF-8.

#include <string_view>

namespace petstore::adapters::http {

[[nodiscard]] bool is_json_media_type(std::string_view content_type);

}  // namespace petstore::adapters::http
