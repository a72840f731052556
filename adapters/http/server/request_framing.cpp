// g++ 12 takes Beast's boost::optional<std::uint64_t> content length for uninitialised once the
// parser's put() is inlined here (a known false positive of -Wmaybe-uninitialized with
// boost::optional); the session's translation unit inlines the same code without it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "adapters/http/server/request_framing.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/url/parse.hpp>

#include "adapters/http/api/ascii.hpp"
#include "adapters/http/api/error_response.hpp"

namespace petstore::adapters::http {
namespace {

namespace bhttp = boost::beast::http;

std::string_view buffered(const boost::beast::flat_buffer& buffer) {
  const auto bytes = buffer.data();
  return {static_cast<const char*>(bytes.data()), bytes.size()};
}

// pending_framing_error: while a chunked body waits, what is buffered is the start of a
// chunk-size line or, once that line is complete, the final chunk's trailer section (a complete
// size line of a chunk with data would have been consumed).
boost::system::error_code pending_framing_error(std::string_view pending,
                                                std::size_t header_bytes) {
  if (pending.starts_with("\r\n")) {
    pending.remove_prefix(2);
  }
  if (pending.find('\n') == std::string_view::npos) {
    return pending.size() > max_chunk_line_bytes ? bhttp::error::bad_chunk
                                                 : boost::system::error_code{};
  }
  return pending.size() > header_bytes ? bhttp::error::header_limit : boost::system::error_code{};
}

// transfer_codings: the codings of `fields`, in order, lower-cased and without parameters; empty
// list elements are skipped (RFC 9110 section 5.6.1).
std::vector<std::string> transfer_codings(std::string_view fields) {
  std::vector<std::string> codings;
  std::string_view rest = fields;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view element = rest.substr(0, comma);
    rest.remove_prefix(comma == std::string_view::npos ? rest.size() : comma + 1);
    const std::string_view coding = trim_ows(element.substr(0, element.find(';')));
    if (!coding.empty()) {
      std::string lower(coding);
      for (char& c : lower) {
        c = ascii_lower(c);
      }
      codings.push_back(std::move(lower));
    }
  }
  return codings;
}

std::optional<HttpResponse> refuse_transfer_codings(const std::vector<std::string>& codings) {
  if (codings.empty() || codings.back() != "chunked") {
    return refusal(400, "invalid_parameter",
                   "Transfer-Encoding must end with chunked: the body's length is unknown");
  }
  if (codings.size() == 1) {
    return std::nullopt;
  }
  if (std::find(codings.begin(), codings.end() - 1, "chunked") != codings.end() - 1) {
    return refusal(400, "invalid_parameter", "Transfer-Encoding applies chunked only once");
  }
  // Named only when it is a short token: a message never carries arbitrary request bytes.
  const std::string& coding = codings.front();
  const bool nameable = coding.size() <= 32 && std::all_of(coding.begin(), coding.end(), is_tchar);
  return refusal(501, "not_implemented",
                 "the transfer coding " + (nameable ? coding : std::string("sent")) +
                     " is not supported; send chunked alone");
}

// is_plain_host: letters, digits, dots and hyphens with an optional port: nearly every Host, valid
// without the costly full URI grammar (docs/decisions/one-pass-head-check.md).
bool is_plain_host(std::string_view value) {
  static constexpr std::array<bool, 256> name_chars = [] {
    std::array<bool, 256> table{};
    for (std::size_t c = 0; c < table.size(); ++c) {
      table[c] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '-';
    }
    return table;
  }();
  std::size_t at = 0;
  while (at < value.size() && name_chars[static_cast<unsigned char>(value[at])]) {
    ++at;
  }
  if (at == 0) {
    return false;
  }
  if (at == value.size()) {
    return true;
  }
  if (value[at] != ':') {
    return false;
  }
  for (++at; at < value.size(); ++at) {
    if (value[at] < '0' || value[at] > '9') {
      return false;
    }
  }
  return true;
}

// is_valid_host: RFC 9112 section 3.2: uri-host [ ":" port ], or empty.
bool is_valid_host(std::string_view value) {
  if (value.empty() || is_plain_host(value)) {
    return true;
  }
  const auto authority = boost::urls::parse_authority(value);
  return authority && !authority->has_userinfo() && !authority->host().empty();
}

std::optional<HttpResponse> refuse_host(const FramingFields& fields, unsigned version) {
  if (fields.hosts > 1) {
    return refusal(400, "invalid_parameter", "the request has more than one Host header");
  }
  if (fields.hosts == 0) {
    return version >= 11
               ? refusal(400, "invalid_parameter", "an HTTP/1.1 request needs a Host header")
               : std::optional<HttpResponse>{};
  }
  if (!is_valid_host(fields.host)) {
    return refusal(400, "invalid_parameter", "the Host header is not a valid host and port");
  }
  return std::nullopt;
}

// wants_keep_alive: the client's wish, as Beast's keep_alive() reads the first Connection field.
bool wants_keep_alive(const FramingFields& fields, unsigned version) {
  if (version < 11) {
    return fields.connection && bhttp::token_list{*fields.connection}.exists("keep-alive");
  }
  return !fields.connection || !bhttp::token_list{*fields.connection}.exists("close");
}

}  // namespace

boost::system::error_code feed_parser(RequestParser& parser, boost::beast::flat_buffer& buffer,
                                      bool whole_message, std::size_t header_bytes) {
  const auto done = [&] { return whole_message ? parser.is_done() : parser.is_header_done(); };
  parser.eager(whole_message);
  while (buffer.size() > 0 && !done()) {
    boost::system::error_code error;
    const std::size_t used = parser.put(buffer.data(), error);
    buffer.consume(used);
    if (error && error != bhttp::error::need_more) {
      return error;
    }
    if (error || used == 0) {
      break;
    }
  }
  if (done()) {
    return {};
  }
  if (parser.is_header_done() && parser.chunked()) {
    if (const auto error = pending_framing_error(buffered(buffer), header_bytes)) {
      return error;
    }
  }
  return bhttp::error::need_more;
}

void skip_empty_lines(boost::beast::flat_buffer& buffer) {
  for (;;) {
    const std::string_view bytes = buffered(buffer);
    if (bytes.starts_with("\r\n")) {
      buffer.consume(2);
    } else if (bytes.starts_with('\n')) {
      buffer.consume(1);
    } else {
      return;
    }
  }
}

HeadVerdict check_head(const RequestParser& head) {
  const FramingFields& fields = head.framing();
  HeadVerdict verdict;
  verdict.keep_alive = wants_keep_alive(fields, head.version());
  verdict.expects_continue =
      head.version() >= 11 && fields.expect && equals_ignoring_case(*fields.expect, "100-continue");
  verdict.request_id = fields.request_id;
  verdict.trace = fields.trace;
  if (auto refused = refuse_host(fields, head.version())) {
    verdict.refusal = std::move(refused);
    verdict.close_after = true;
  } else if (fields.transfer_encoding) {
    verdict.refusal = refuse_transfer_codings(transfer_codings(*fields.transfer_encoding));
    // RFC 9112 section 6.1: an HTTP/1.0 message with Transfer-Encoding has faulty framing.
    verdict.close_after = verdict.refusal.has_value() || head.version() < 11;
  }
  return verdict;
}

std::optional<HttpResponse> response_to_read_error(const boost::system::error_code& error) {
  if (error == bhttp::error::header_limit) {
    return refusal(431, "request_header_fields_too_large",
                   "the request headers (or a chunked body's trailer fields) are larger than the "
                   "server accepts");
  }
  if (error == bhttp::error::body_limit) {
    return refusal(413, "payload_too_large", "the request body is larger than the server accepts");
  }
  if (error == bhttp::error::bad_chunk || error == bhttp::error::bad_chunk_extension) {
    return refusal(400, "invalid_parameter",
                   "the chunked body is malformed, or a chunk-size line is longer than " +
                       std::to_string(max_chunk_line_bytes) + " bytes");
  }
  if (error.category() == bhttp::make_error_code(bhttp::error::bad_method).category() &&
      error != bhttp::error::end_of_stream && error != bhttp::error::partial_message) {
    return refusal(400, "invalid_parameter", "the request is not valid HTTP/1.1");
  }
  return std::nullopt;
}

}  // namespace petstore::adapters::http
