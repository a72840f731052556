#include "adapters/http/api/trace_context.hpp"

#include <algorithm>

#include "adapters/http/api/random_hex.hpp"

namespace petstore::adapters::http {
namespace {

constexpr std::size_t version_00_size = ports::TraceContext::traceparent_size;

bool is_lower_hex(char c) noexcept { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_lower_hex(std::string_view text) noexcept {
  return std::all_of(text.begin(), text.end(), [](char c) { return is_lower_hex(c); });
}

bool is_all_zero(std::string_view text) noexcept {
  return text.find_first_not_of('0') == std::string_view::npos;
}

// is_kept_tracestate: printable ASCII within the size kept. The members' own grammar is their
// vendors' to check: the service only passes the value on.
bool is_kept_tracestate(std::string_view value) noexcept {
  return value.size() <= max_tracestate_size &&
         std::all_of(value.begin(), value.end(), [](char c) { return c >= ' ' && c <= '~'; });
}

}  // namespace

std::optional<TraceIds> parse_traceparent(std::string_view value) noexcept {
  if (value.size() < version_00_size) {
    return std::nullopt;
  }
  const std::string_view version = value.substr(0, 2);
  if (!is_lower_hex(version) || version == "ff") {
    return std::nullopt;
  }
  if (version == "00" ? value.size() != version_00_size
                      : value.size() > version_00_size && value[version_00_size] != '-') {
    return std::nullopt;
  }
  if (value[2] != '-' || value[35] != '-' || value[52] != '-') {
    return std::nullopt;
  }
  const std::string_view trace_id = value.substr(3, 32);
  const std::string_view parent_id = value.substr(36, 16);
  const std::string_view flags = value.substr(53, 2);
  if (!is_lower_hex(trace_id) || !is_lower_hex(parent_id) || !is_lower_hex(flags) ||
      is_all_zero(trace_id) || is_all_zero(parent_id)) {
    return std::nullopt;
  }
  const char low = flags[1];  // the sampled flag is the low bit of the low digit
  const int low_value = low <= '9' ? low - '0' : low - 'a' + 10;
  return TraceIds{trace_id, parent_id, (low_value & 1) != 0};
}

ports::TraceContext trace_request(const TraceFields& fields) {
  ports::TraceContext trace;
  char* out = trace.traceparent.data();
  std::copy_n("00-", 3, out);
  const auto ids = fields.traceparent && !fields.traceparent_repeated
                       ? parse_traceparent(*fields.traceparent)
                       : std::nullopt;
  if (ids) {
    std::copy(ids->trace_id.begin(), ids->trace_id.end(), out + 3);
    if (fields.tracestate && is_kept_tracestate(*fields.tracestate)) {
      trace.tracestate.assign(*fields.tracestate);
    }
  } else {
    do {
      write_random_hex(out + 3, 16);
    } while (is_all_zero(std::string_view(out + 3, 32)));
  }
  out[35] = '-';
  do {
    write_random_hex(out + 36, 8);
  } while (is_all_zero(std::string_view(out + 36, 16)));
  std::copy_n(ids && ids->sampled ? "-01" : "-00", 3, out + 52);
  return trace;
}

}  // namespace petstore::adapters::http
