#pragma once
// Conversions between Beast's messages and the router's plain ones, plus the responses the
// session itself gives when a request cannot be read. Only the Beast translation units include it.

#include <optional>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/system/error_code.hpp>

#include "adapters/http/http_message.hpp"

namespace petstore::adapters::http {

using BeastRequest = boost::beast::http::request<boost::beast::http::string_body>;
using BeastResponse = boost::beast::http::response<boost::beast::http::string_body>;

// to_http_request: views into `request`, which must outlive the result.
[[nodiscard]] HttpRequest to_http_request(const BeastRequest& request);

// to_beast_response: the wire form of `response`, with Content-Type, Date and Connection set.
[[nodiscard]] BeastResponse to_beast_response(HttpResponse response, unsigned version,
                                              bool keep_alive);

// omit_body_keeping_length: drops the body but keeps the Content-Length it had, as a response to
// HEAD must.
void omit_body_keeping_length(BeastResponse& response);

// response_to_read_error: the answer to a request that failed to be read with `error` (431, 413
// or 400), or nullopt when the client is gone or too slow and deserves no answer.
[[nodiscard]] std::optional<HttpResponse> response_to_read_error(
    const boost::system::error_code& error);

}  // namespace petstore::adapters::http
