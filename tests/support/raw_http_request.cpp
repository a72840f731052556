#include "support/raw_http_request.hpp"

namespace petstore::tests {

std::string format_request(std::string_view method, std::string_view target, const Headers& headers,
                           std::string_view body) {
  std::string request;
  request.append(method).append(" ").append(target).append(" HTTP/1.1\r\n");
  request.append("Host: petstore.test\r\n");
  for (const auto& [name, value] : headers) {
    request.append(name).append(": ").append(value).append("\r\n");
  }
  if (!body.empty() || method == "POST") {
    request.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
  }
  request.append("\r\n").append(body);
  return request;
}

std::string bearer(std::string_view key) { return "Bearer " + std::string(key); }

std::string api_request(std::string_view method, std::string_view target, std::string_view key,
                        std::string_view body, bool keep_alive) {
  Headers headers;
  if (!key.empty()) {
    headers.emplace_back("Authorization", bearer(key));
  }
  if (!body.empty()) {
    headers.emplace_back("Content-Type", "application/json");
  }
  if (!keep_alive) {
    headers.emplace_back("Connection", "close");
  }
  return format_request(method, target, headers, body);
}

}  // namespace petstore::tests
