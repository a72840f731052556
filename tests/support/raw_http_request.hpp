#pragma once
// The bytes of HTTP/1.1 requests for tests that write to a raw socket: a request laid out from
// its parts, and the usual /v1 request with a bearer key and a JSON body.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::tests {

using Headers = std::vector<std::pair<std::string, std::string>>;

// format_request: an HTTP/1.1 request with `Host: petstore.test`, then `headers`, then
// Content-Length when there is a body or the method is POST, then the body.
// Example: format_request("GET", "/v1/pets", {{"Authorization", bearer(test_key_a)}}).
[[nodiscard]] std::string format_request(std::string_view method, std::string_view target,
                                         const Headers& headers = {}, std::string_view body = {});

// bearer: the Authorization value that presents `key`.
[[nodiscard]] std::string bearer(std::string_view key);

// api_request: format_request with Authorization when `key` is not empty, Content-Type:
// application/json when `body` is not empty, and Connection: close unless `keep_alive`.
[[nodiscard]] std::string api_request(std::string_view method, std::string_view target,
                                      std::string_view key, std::string_view body = {},
                                      bool keep_alive = false);

}  // namespace petstore::tests
