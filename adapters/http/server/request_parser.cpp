#include "adapters/http/server/request_parser.hpp"

#include <algorithm>

#include "adapters/http/api/ascii.hpp"

namespace petstore::adapters::http {

namespace bhttp = boost::beast::http;

std::string_view RequestParser::keep(std::string_view value) {
  if (value.empty()) {
    return {};
  }
  char* copy = nullptr;
  if (value.size() <= inline_.size() - inline_used_) {
    copy = inline_.data() + inline_used_;
    inline_used_ += value.size();
  } else {
    copy = static_cast<char*>(memory_.allocate(value.size(), 1));
  }
  kept_bytes_ += value.size();
  std::copy_n(value.data(), value.size(), copy);
  return {copy, value.size()};
}

void RequestParser::keep_first(std::optional<std::string_view>& taken, bool* repeated,
                               std::string_view value) {
  if (!taken) {
    taken = keep(value);
  } else if (repeated != nullptr) {
    *repeated = true;
  }
}

void RequestParser::keep_list(std::optional<std::string_view>& taken, std::pmr::string& joined,
                              std::string_view value) {
  if (!taken) {
    taken = keep(value);  // the usual single field: no join
    return;
  }
  if (joined.empty()) {
    joined.assign(*taken);
  }
  joined.append(",").append(value);
  kept_bytes_ += value.size() + 1;
  taken = joined;
}

void RequestParser::on_request_impl(bhttp::verb method, boost::beast::string_view method_string,
                                    boost::beast::string_view target, int version,
                                    ErrorCode& error) {
  method_ = method;
  request_.method = keep(method_string);
  request_.target = keep(target);
  version_ = static_cast<unsigned>(version);
  error = {};
}

void RequestParser::take_request_line(std::string_view method, std::string_view target) {
  ErrorCode ignored;
  on_request_impl(bhttp::string_to_verb(method), method, target, 20, ignored);
}

void RequestParser::take_field(std::string_view name, std::string_view value) {
  ErrorCode ignored;
  on_field_impl(bhttp::string_to_field(name), name, value, ignored);
}

// One switch on the name Beast has already looked up; a field nobody reads is dropped here.
void RequestParser::on_field_impl(bhttp::field name, boost::beast::string_view name_string,
                                  boost::beast::string_view value, ErrorCode& error) {
  error = {};
  if (head_done_) {  // RFC 9110 section 6.5: trailers are never merged into the header section
    trailer_bytes_ += name_string.size() + value.size() + 4;  // ": " and CRLF
    return;
  }
  ++head_fields_;
  switch (name) {
    case bhttp::field::host:
      if (framing_.hosts++ == 0) {
        framing_.host = keep(value);
      }
      break;
    case bhttp::field::transfer_encoding:
      keep_list(framing_.transfer_encoding, transfer_encoding_, value);
      break;
    case bhttp::field::connection:
      keep_first(framing_.connection, nullptr, value);
      break;
    case bhttp::field::expect:
      keep_first(framing_.expect, nullptr, value);
      break;
    case bhttp::field::authorization:
      keep_first(request_.authorization, &request_.authorization_repeated, value);
      break;
    case bhttp::field::content_type:
      keep_first(request_.content_type, &request_.content_type_repeated, value);
      break;
    case bhttp::field::content_encoding:
      keep_first(request_.content_encoding, nullptr, value);
      break;
    case bhttp::field::if_none_match:
      keep_first(request_.if_none_match, nullptr, value);
      break;
    case bhttp::field::accept_encoding:
      keep_list(request_.accept_encoding, accept_encoding_, value);
      break;
    case bhttp::field::origin:
      keep_first(request_.origin, &request_.origin_repeated, value);
      break;
    case bhttp::field::access_control_request_method:
      keep_first(request_.access_control_request_method, nullptr, value);
      break;
    case bhttp::field::unknown:
      on_unknown_field(name_string, value);
      break;
    default:
      break;
  }
}

// The fields Beast's table does not name, matched whatever their case.
void RequestParser::on_unknown_field(std::string_view name, std::string_view value) {
  if (equals_ignoring_case(name, "X-Request-Id")) {
    keep_first(framing_.request_id, nullptr, value);
  } else if (equals_ignoring_case(name, "traceparent")) {
    keep_first(framing_.trace.traceparent, &framing_.trace.traceparent_repeated, value);
  } else if (equals_ignoring_case(name, "tracestate")) {
    keep_list(framing_.trace.tracestate, tracestate_, value);
  } else if (equals_ignoring_case(name, "X-Forwarded-For")) {
    request_.forwarded_for.append(request_.forwarded_for.empty() ? "" : ",").append(value);
  } else if (equals_ignoring_case(name, "Idempotency-Key")) {
    keep_first(request_.idempotency_key, &request_.idempotency_key_repeated, value);
  }
}

// Beast has already held a stated length to the body limit.
void RequestParser::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                      ErrorCode& error) {
  if (content_length) {
    body_.reserve(static_cast<std::size_t>(*content_length));
  }
  error = {};
}

}  // namespace petstore::adapters::http
