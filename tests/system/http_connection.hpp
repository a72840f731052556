#pragma once
// HttpConnection: one keep-alive HTTP/1.1 connection to 127.0.0.1 over a raw POSIX socket, enough
// for a system test to talk to the real server: it sends a request and reads the whole response
// (Content-Length bodies only). Any I/O failure, a closed connection or a response it cannot
// parse ends the connection and is reported as nullopt, which is what a killed server looks like.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::tests::system {

struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  // header: the value of the first header called `name` (case-insensitive).
  [[nodiscard]] std::optional<std::string> header(std::string_view name) const;
};

class HttpConnection {
 public:
  // open: a connection to 127.0.0.1:`port` whose every read and write gives up after `timeout`.
  [[nodiscard]] static std::optional<HttpConnection> open(std::uint16_t port,
                                                          std::chrono::milliseconds timeout);

  HttpConnection(HttpConnection&& other) noexcept;
  HttpConnection& operator=(HttpConnection&& other) noexcept;
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;
  ~HttpConnection();

  // request: sends `method target` with `Authorization: Bearer api_key`, and `body` as
  // application/json when not empty; the response, or nullopt when the exchange failed.
  [[nodiscard]] std::optional<HttpResponse> request(std::string_view method,
                                                    std::string_view target,
                                                    std::string_view api_key,
                                                    std::string_view body = {});

  [[nodiscard]] bool is_open() const noexcept { return fd_ >= 0; }

 private:
  explicit HttpConnection(int fd) noexcept : fd_(fd) {}
  void close() noexcept;
  [[nodiscard]] bool send_all(std::string_view bytes);
  // fill: reads more bytes into `received_`; false on error or end of stream.
  [[nodiscard]] bool fill();
  [[nodiscard]] std::optional<HttpResponse> read_response();

  int fd_ = -1;
  std::string received_;
};

}  // namespace petstore::tests::system
