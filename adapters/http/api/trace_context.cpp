#include "adapters/http/api/trace_context.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>

namespace petstore::adapters::http {
namespace {

std::uint64_t next_bits() {
  thread_local std::uint64_t state = [] {
    std::random_device device;
    return (std::uint64_t{device()} << 32U) ^ device();
  }();
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31U);
}

// hex_digits: the eight nibbles in `nibbles` (each byte 0-15) as lowercase hex digits, a byte
// each, all eight at once: a byte of 10-15 carries into its bit 4 when 6 is added.
std::uint64_t hex_digits(std::uint64_t nibbles) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  const std::uint64_t letters = ((nibbles + (6 * ones)) >> 4U) & ones;
  return nibbles + ('0' * ones) + (('a' - '0' - 10) * letters);
}

// write_random_hex: 2 * `bytes` lowercase hex digits of random bits at `out`; `bytes` is a
// multiple of 8. The digits' order is of no matter, so the low nibbles go first, then the high.
void write_random_hex(char* out, std::size_t bytes) {
  constexpr std::uint64_t low_nibbles = 0x0F0F0F0F0F0F0F0FULL;
  for (; bytes >= 8; bytes -= 8, out += 16) {
    const std::uint64_t bits = next_bits();
    const std::uint64_t low = hex_digits(bits & low_nibbles);
    const std::uint64_t high = hex_digits((bits >> 4U) & low_nibbles);
    std::memcpy(out, &low, sizeof low);
    std::memcpy(out + 8, &high, sizeof high);
  }
}

constexpr std::size_t version_00_size = ports::TraceContext::traceparent_size;

bool is_lower_hex(std::string_view text) noexcept {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
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

void assign_request_id(std::string& out, std::optional<std::string_view> sent) {
  if (sent && !sent->empty() && sent->size() <= 128 &&
      std::all_of(sent->begin(), sent->end(), [](char c) { return c >= '!' && c <= '~'; })) {
    out.assign(*sent);
    return;
  }
  constexpr std::size_t new_id_bytes = 16;  // 32 hex digits
  out.resize(2 * new_id_bytes);
  write_random_hex(out.data(), new_id_bytes);
}

}  // namespace petstore::adapters::http
