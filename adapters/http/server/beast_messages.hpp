#pragma once
// From Beast's parsed request to the router's plain one, plus the responses the session itself
// gives when a request cannot be read. Responses go out through write_response (response_wire).
// Only the Beast translation units include it.

#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>

#include "adapters/http/api/http_message.hpp"

namespace petstore::adapters::http {

// A request's fields and body come from a memory resource the session gives each request (an
// arena over the connection's own bytes, so a usual request costs no heap allocation at all, where
// Beast's default allocator costs one per field); elsewhere, the default resource (the heap).
using RequestAllocator = std::pmr::polymorphic_allocator<char>;
using RequestBody =
    boost::beast::http::basic_string_body<char, std::char_traits<char>, RequestAllocator>;
using RequestFields = boost::beast::http::basic_fields<RequestAllocator>;
using BeastRequest = boost::beast::http::request<RequestBody, RequestFields>;

// take_first: keeps the first of a field's values in `taken`; `repeated`, when not null, notes
// any later one.
void take_first(std::optional<std::string_view>& taken, bool* repeated, std::string_view value);

// to_http_request: views into `request`, which must outlive the result.
[[nodiscard]] HttpRequest to_http_request(const BeastRequest& request);

// refusal: an Error response the session sends itself, with the headers every /v1 response has
// (a request refused before routing may have been meant for /v1).
[[nodiscard]] HttpResponse refusal(unsigned status, std::string_view code,
                                   std::string_view message);

// response_to_read_error: the answer to a request that failed to be read with `error` (431, 413
// or 400), or nullopt when the client is gone or too slow and deserves no answer.
[[nodiscard]] std::optional<HttpResponse> response_to_read_error(
    const boost::system::error_code& error);

}  // namespace petstore::adapters::http
