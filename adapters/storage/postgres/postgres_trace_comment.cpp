#include "adapters/storage/postgres/postgres_trace_comment.hpp"

#include <algorithm>
#include <string_view>

namespace petstore::adapters::storage::postgres {
namespace {

// append_url_encoded: `value` with every byte but RFC 3986's unreserved ones as %XX, so that no
// quote, no `*/` and no control character can reach the statement's text.
void append_url_encoded(std::string& sql, std::string_view value) {
  static constexpr std::string_view digits = "0123456789ABCDEF";
  for (const char c : value) {
    const bool unreserved = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                            (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' || c == '~';
    if (unreserved) {
      sql += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      sql += '%';
      sql += digits[byte >> 4U];
      sql += digits[byte & 0xFU];
    }
  }
}

void append_pair(std::string& sql, bool& first, std::string_view key, std::string_view value) {
  sql += first ? " /*" : ",";
  first = false;
  sql += key;
  sql += "='";
  append_url_encoded(sql, value);
  sql += '\'';
}

}  // namespace

void append_batch_trace_comment(std::string& sql,
                                const std::vector<const ports::TraceContext*>& traces) {
  std::vector<const ports::TraceContext*> traced;
  std::copy_if(
      traces.begin(), traces.end(), std::back_inserter(traced),
      [](const ports::TraceContext* trace) { return trace != nullptr && !trace->empty(); });
  if (traced.empty()) {
    return;
  }
  bool first = true;
  if (traced.size() > 1) {
    std::string all;
    for (const ports::TraceContext* trace : traced) {
      all += all.empty() ? "" : ",";
      all += trace->parent();
    }
    append_pair(sql, first, "petstore_batch", all);
  }
  append_pair(sql, first, "traceparent", traced.front()->parent());
  if (!traced.front()->tracestate.empty()) {
    append_pair(sql, first, "tracestate", traced.front()->tracestate);
  }
  sql += "*/";
}

}  // namespace petstore::adapters::storage::postgres
