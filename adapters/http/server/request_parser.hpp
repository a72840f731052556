#pragma once
// RequestParser: Beast's HTTP/1 basic_parser with callbacks that keep only the fields the server
// and router read, copied into the request's memory, and no field container: a field nobody reads
// costs its parse alone (docs/decisions/field-keeping-parser.md). Trailer fields are never kept.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/verb.hpp>

#include "adapters/http/api/http_message.hpp"
#include "adapters/http/api/trace_context.hpp"

namespace petstore::adapters::http {

// FramingFields: the fields check_head reads (request_framing.hpp), first values only, but Host
// is also counted and every Transfer-Encoding kept.
struct FramingFields {
  std::size_t hosts = 0;
  std::string_view host;
  // Every Transfer-Encoding field's value, joined by commas in order (a list either way).
  std::optional<std::string_view> transfer_encoding;
  std::optional<std::string_view> connection;
  std::optional<std::string_view> expect;
  std::optional<std::string_view> request_id;  // X-Request-Id
  TraceFields trace;
};

class RequestParser final : public boost::beast::http::basic_parser<true> {
 public:
  // RequestParser: keeps values inside itself, past that in `memory`, which must outlive it and
  // never deallocates (a monotonic arena: docs/decisions/request-arena.md).
  explicit RequestParser(std::pmr::memory_resource& memory)
      : memory_(memory),
        transfer_encoding_(&memory),
        accept_encoding_(&memory),
        tracestate_(&memory),
        body_(&memory) {}
  RequestParser(const RequestParser&) = delete;
  RequestParser& operator=(const RequestParser&) = delete;
  RequestParser(RequestParser&&) = delete;
  RequestParser& operator=(RequestParser&&) = delete;
  ~RequestParser() override = default;

  // The request line; valid once the head is parsed.
  [[nodiscard]] boost::beast::http::verb method() const noexcept { return method_; }
  [[nodiscard]] std::string_view method_string() const noexcept { return request_.method; }
  [[nodiscard]] unsigned version() const noexcept { return version_; }

  // request: the router's view: views into this parser (its fields once the head is parsed, its
  // body once the request is), valid while it lives.
  [[nodiscard]] HttpRequest request() const {
    HttpRequest request = request_;
    request.body = body_;
    return request;
  }
  [[nodiscard]] const FramingFields& framing() const noexcept { return framing_; }
  [[nodiscard]] std::string_view body() const noexcept { return body_; }

  // For HTTP/2, whose framing nghttp2 has checked: a request's :method and :path, its fields and
  // its body, kept by the HTTP/1.1 rules. The version reads 20.
  void take_request_line(std::string_view method, std::string_view target);
  void take_field(std::string_view name, std::string_view value);
  void take_body(std::string_view bytes) { body_.append(bytes); }

  // head_field_count: the field lines of the header section; trailer_bytes: the size of a chunked
  // body's trailer section, as its field lines were sent (name, ": ", value, CRLF).
  [[nodiscard]] std::size_t head_field_count() const noexcept { return head_fields_; }
  [[nodiscard]] std::size_t trailer_bytes() const noexcept { return trailer_bytes_; }
  // kept_bytes: the bytes of the values kept (the request line's method and target included).
  [[nodiscard]] std::size_t kept_bytes() const noexcept { return kept_bytes_; }

 private:
  using ErrorCode = boost::system::error_code;

  void on_request_impl(boost::beast::http::verb method, boost::beast::string_view method_string,
                       boost::beast::string_view target, int version, ErrorCode& error) override;
  // Never called: this parser parses requests.
  void on_response_impl(int /*status*/, boost::beast::string_view /*reason*/, int /*version*/,
                        ErrorCode& error) override {
    error = boost::beast::http::error::bad_version;
  }
  void on_field_impl(boost::beast::http::field name, boost::beast::string_view name_string,
                     boost::beast::string_view value, ErrorCode& error) override;
  void on_header_impl(ErrorCode& error) override {
    head_done_ = true;
    error = {};
  }
  void on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                         ErrorCode& error) override;
  std::size_t on_body_impl(boost::beast::string_view body, ErrorCode& error) override {
    body_.append(body);
    error = {};
    return body.size();
  }
  void on_chunk_header_impl(std::uint64_t /*size*/, boost::beast::string_view /*extensions*/,
                            ErrorCode& error) override {
    error = {};
  }
  std::size_t on_chunk_body_impl(std::uint64_t /*remain*/, boost::beast::string_view body,
                                 ErrorCode& error) override {
    return on_body_impl(body, error);
  }
  void on_finish_impl(ErrorCode& error) override { error = {}; }

  // keep: `value` copied into memory_ (the parser's input moves on, and a folded value lives
  // only for its callback).
  std::string_view keep(std::string_view value);
  // keep_first: keeps the first value in `taken`; `repeated`, when not null, notes any later one.
  void keep_first(std::optional<std::string_view>& taken, bool* repeated, std::string_view value);
  // keep_list: a list field's values joined by commas in `joined` (RFC 9110 section 5.3).
  void keep_list(std::optional<std::string_view>& taken, std::pmr::string& joined,
                 std::string_view value);
  void on_unknown_field(std::string_view name, std::string_view value);

  // The values of a usual request fit here: a copy costs no call into the arena.
  static constexpr std::size_t inline_bytes = 256;

  std::pmr::memory_resource& memory_;
  std::array<char, inline_bytes> inline_{};
  std::size_t inline_used_ = 0;
  std::size_t kept_bytes_ = 0;
  HttpRequest request_;  // without its body
  FramingFields framing_;
  std::pmr::string transfer_encoding_;
  std::pmr::string accept_encoding_;
  std::pmr::string tracestate_;
  std::pmr::string body_;
  boost::beast::http::verb method_ = boost::beast::http::verb::unknown;
  unsigned version_ = 11;
  bool head_done_ = false;
  std::size_t head_fields_ = 0;
  std::size_t trailer_bytes_ = 0;
};

}  // namespace petstore::adapters::http
