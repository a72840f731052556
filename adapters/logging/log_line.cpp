// One log line, JSON (`{"time":...,"level":...,"event":...,` then the fields) or text (`TIME LEVEL
// EVENT key=value...`, quoted as JSON where needed), into a buffer the caller reuses.

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <system_error>

#include "adapters/logging/logger.hpp"

namespace petstore::adapters::logging {
namespace {

std::string_view level_name(LogLevel level) {
  switch (level) {
    case LogLevel::debug:
      return "debug";
    case LogLevel::info:
      return "info";
    case LogLevel::warn:
      return "warning";
    case LogLevel::error:
      return "error";
  }
  return "info";
}

// Which bytes a JSON string must escape (control characters, '"', '\\'), and which make a text
// value need quoting besides (space, '=', DEL, and every byte above 0x7F, as a signed char reads
// them: text values stay ASCII-bare).
constexpr std::array<bool, 256> json_escaped = [] {
  std::array<bool, 256> table{};
  for (std::size_t c = 0; c < 0x20; ++c) {
    table[c] = true;
  }
  table['"'] = true;
  table['\\'] = true;
  return table;
}();
constexpr std::array<bool, 256> text_quoted = [] {
  std::array<bool, 256> table = json_escaped;
  table[' '] = true;
  table['='] = true;
  table[0x7F] = true;
  for (std::size_t c = 0x80; c < 0x100; ++c) {
    table[c] = true;
  }
  return table;
}();

// Block: sixteen bytes, tested for escapes at once (SSE2 on x86-64; GCC's and Clang's vector
// extension, so any target compiles it).
using Block = unsigned char __attribute__((vector_size(16)));
constexpr std::size_t block_size = sizeof(Block);
constexpr std::size_t widest_number = 32;  // an int64, a double's shortest form, a duration

// line_bound: the most bytes a line can take, so that its buffer is sized once. The time, level
// and punctuation take 63; a string escapes to six bytes a byte at worst (\u00XX).
std::size_t line_bound(std::string_view event, std::span<const LogField> fields) {
  const auto string_bound = [](std::size_t bytes) { return (bytes * 6) + 2; };
  std::size_t bound = 64 + string_bound(event.size());
  for (const auto& field : fields) {
    const auto* text = std::get_if<std::string_view>(&field.value);
    bound += field.key.size() + 4 + (text != nullptr ? string_bound(text->size()) : widest_number);
  }
  return bound;
}

// Writer: a cursor into a buffer sized for the line's worst case up front (line_bound), so that a
// line is a run of stores with no check of room between them.
class Writer {
 public:
  explicit Writer(char* at) : at_(at) {}

  [[nodiscard]] char* at() const { return at_; }

  void put(char c) { *at_++ = c; }
  // put: `text` as it is; under sixteen bytes (a key, a level) as a short_piece.
  void put(std::string_view text) {
    if (text.size() >= block_size) {
      std::memcpy(at_, text.data(), text.size());
    } else if (text.size() >= 4) {
      store(at_, short_piece(text.data(), text.size()), text.size());
    } else {
      std::copy(text.begin(), text.end(), at_);
    }
    at_ += text.size();
  }

  // time: the time now, UTC, to the millisecond ("2026-01-02T03:04:05.678Z"). A thread formats
  // the date and second once a second and only the milliseconds for each line.
  void time() {
    struct Cached {
      std::time_t second = -1;
      std::array<char, 20> text{};  // "2026-01-02T03:04:05" and its NUL
    };
    thread_local Cached cached;
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    if (now.tv_sec != cached.second) {
      std::tm utc{};
      ::gmtime_r(&now.tv_sec, &utc);
      cached.second = now.tv_sec;
      (void)std::strftime(cached.text.data(), cached.text.size(), "%Y-%m-%dT%H:%M:%S", &utc);
    }
    put(std::string_view(cached.text.data(), cached.text.size() - 1));
    const auto millis = static_cast<unsigned>(now.tv_nsec / 1000000);
    *at_++ = '.';
    *at_++ = static_cast<char>('0' + (millis / 100));
    *at_++ = static_cast<char>('0' + (millis / 10 % 10));
    *at_++ = static_cast<char>('0' + (millis % 10));
    *at_++ = 'Z';
  }

  // json_string: `text` as a JSON string, escaped as Boost.JSON's serializer escapes it. Blocks
  // and a tail that need no escape (a request line's values) are copied whole; the rest byte by
  // byte. Inline: a line calls it for each field, and the call cost a tenth of the line.
  [[gnu::always_inline]] void json_string(std::string_view text) {
    *at_++ = '"';
    const char* from = text.data();
    std::size_t left = text.size();
    for (; left >= block_size; from += block_size, left -= block_size) {
      Block block{};
      std::memcpy(&block, from, block_size);
      if (needs_escape(block)) {
        std::for_each(from, from + block_size, [this](char c) { escaped(c); });
      } else {
        std::memcpy(at_, &block, block_size);
        at_ += block_size;
      }
    }
    if (left >= 4) {
      const Block piece = short_piece(from, left);
      if (needs_escape(piece)) {
        std::for_each(from, from + left, [this](char c) { escaped(c); });
      } else {
        store(at_, piece, left);
        at_ += left;
      }
    } else {
      std::for_each(from, from + left, [this](char c) { escaped(c); });
    }
    *at_++ = '"';
  }

  // key: a field's key as a JSON member name, unescaped: keys are names in the code, never input.
  void key(std::string_view name) {
    *at_++ = '"';
    put(name);
    *at_++ = '"';
    *at_++ = ':';
  }

  // text_value: a text value, bare when it needs no quoting, else a JSON string.
  void text_value(std::string_view text) {
    const bool bare = !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
      return text_quoted[static_cast<unsigned char>(c)];
    });
    if (bare) {
      put(text);
    } else {
      json_string(text);
    }
  }

  // milliseconds: `micros` as milliseconds, up to three decimals, no trailing zero ("0.012", "3").
  void milliseconds(std::int64_t micros) {
    // Unsigned, so that the most negative value has a magnitude too.
    auto magnitude = static_cast<std::uint64_t>(micros);
    if (micros < 0) {
      put('-');
      magnitude = 0 - magnitude;
    }
    number(magnitude / 1000);
    auto fraction = static_cast<unsigned>(magnitude % 1000);
    if (fraction == 0) {
      return;
    }
    *at_++ = '.';
    for (unsigned digit = 100; fraction != 0; digit /= 10) {
      *at_++ = static_cast<char>('0' + fraction / digit);
      fraction %= digit;
    }
  }

  // number: an integer, or a double's shortest round-trip form ("1.5"): valid JSON and text.
  template <class Number>
  void number(Number value) {
    const auto [end, error] = std::to_chars(at_, at_ + widest_number, value);
    at_ = error == std::errc{} ? end : at_;
  }

 private:
  // short_piece: the `length` (4 to 16) bytes at `from` as two halves of a block, its first and
  // its last eight (or four) bytes, overlapping when shorter: two loads that never read past the
  // end, where a call to memcpy with a length unknown here costs more than the bytes. Every byte
  // of the block is one of the piece's, so needs_escape tests the piece exactly.
  static Block short_piece(const char* from, std::size_t length) {
    std::array<std::uint64_t, 2> halves{};
    if (length >= 8) {
      std::memcpy(&halves[0], from, 8);
      std::memcpy(&halves[1], from + length - 8, 8);
    } else {
      std::uint32_t first = 0;
      std::uint32_t last = 0;
      std::memcpy(&first, from, 4);
      std::memcpy(&last, from + length - 4, 4);
      halves[0] = first | (std::uint64_t{last} << 32U);
      halves[1] = halves[0];
    }
    Block block{};
    std::memcpy(&block, halves.data(), block_size);
    return block;
  }

  // store: writes a short_piece of `length` bytes back as the piece, with the same two stores.
  static void store(char* to, Block piece, std::size_t length) {
    std::array<std::uint64_t, 2> halves{};
    std::memcpy(halves.data(), &piece, block_size);
    if (length >= 8) {
      std::memcpy(to, &halves[0], 8);
      std::memcpy(to + length - 8, &halves[1], 8);
    } else {
      const auto first = static_cast<std::uint32_t>(halves[0]);
      const auto last = static_cast<std::uint32_t>(halves[0] >> 32U);
      std::memcpy(to, &first, 4);
      std::memcpy(to + length - 4, &last, 4);
    }
  }

  // needs_escape: whether any of the bytes is below 0x20, '"' or '\\'.
  static bool needs_escape(Block bytes) {
    const auto flagged = (bytes < 0x20) | (bytes == '"') | (bytes == '\\');
    std::array<std::uint64_t, 2> halves{};
    std::memcpy(halves.data(), &flagged, sizeof halves);
    return (halves[0] | halves[1]) != 0;
  }

  // escaped: one byte of a JSON string, escaped where it must be.
  void escaped(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (!json_escaped[byte]) {
      *at_++ = c;
      return;
    }
    *at_++ = '\\';
    // The bytes JSON escapes by a letter, and their letters.
    constexpr std::string_view named = "\"\\\b\f\n\r\t";
    constexpr std::string_view letters = "\"\\bfnrt";
    if (const std::size_t i = named.find(c); i != std::string_view::npos) {
      *at_++ = letters[i];
      return;
    }
    constexpr std::string_view hex = "0123456789abcdef";
    const std::array<char, 5> code{'u', '0', '0', hex[byte >> 4U], hex[byte & 0xFU]};
    at_ = std::copy(code.begin(), code.end(), at_);
  }

  char* at_;
};

}  // namespace

std::string_view Logger::format_line(std::string& buffer, LogFormat format, LogLevel level,
                                     std::string_view event, std::span<const LogField> fields) {
  const bool json = format == LogFormat::json;
  buffer.resize(std::max(buffer.size(), line_bound(event, fields)));
  Writer out(buffer.data());
  out.put(json ? R"({"time":")" : "");
  out.time();
  out.put(json ? R"(","level":")" : " ");
  out.put(level_name(level));
  if (json) {
    out.put(R"(","event":)");
    out.json_string(event);
  } else {
    out.put(' ');
    out.text_value(event);
  }
  for (const auto& field : fields) {
    if (json) {
      out.put(',');
      out.key(field.key);
    } else {
      out.put(' ');
      out.put(field.key);
      out.put('=');
    }
    if (const auto* text = std::get_if<std::string_view>(&field.value)) {
      json ? out.json_string(*text) : out.text_value(*text);
    } else if (const auto* integer = std::get_if<std::int64_t>(&field.value)) {
      out.number(*integer);
    } else if (const auto* duration = std::get_if<Milliseconds>(&field.value)) {
      out.milliseconds(duration->micros);
    } else {
      out.number(std::get<double>(field.value));
    }
  }
  out.put(json ? "}\n" : "\n");
  return {buffer.data(), static_cast<std::size_t>(out.at() - buffer.data())};
}

}  // namespace petstore::adapters::logging
