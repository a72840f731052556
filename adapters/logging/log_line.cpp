#include "adapters/logging/log_line.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <system_error>

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

// Writer: writes into the caller's string through a cursor, growing it only when a write would
// pass its end, so that a line is a run of stores rather than of append calls (each with its
// own checks): the whole line costs about what formatting its numbers costs.
class Writer {
 public:
  explicit Writer(std::string& line) : line_(line) {
    line_.resize(std::max<std::size_t>(line_.capacity(), 512));
    at_ = line_.data();
    end_ = at_ + line_.size();
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  ~Writer() { line_.resize(static_cast<std::size_t>(at_ - line_.data())); }

  void put(char c) {
    room(1);
    *at_++ = c;
  }
  void put(std::string_view text) {
    room(text.size());
    std::memcpy(at_, text.data(), text.size());
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
    room(5);
    *at_++ = '.';
    *at_++ = static_cast<char>('0' + (millis / 100));
    *at_++ = static_cast<char>('0' + (millis / 10 % 10));
    *at_++ = static_cast<char>('0' + (millis % 10));
    *at_++ = 'Z';
  }

  // json_string: `text` as a JSON string, escaped as Boost.JSON's serializer escapes it. Room for
  // the worst case is made once; eight bytes at a time that need no escape (every byte of a
  // request line's values) are copied as one word, the rest byte by byte.
  void json_string(std::string_view text) {
    constexpr std::size_t widest_escape = 6;  // \u00XX
    room(text.size() * widest_escape + 2);
    *at_++ = '"';
    const char* from = text.data();
    const char* const end = from + text.size();
    for (; end - from >= 8; from += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, from, sizeof word);
      if (!needs_escape(word)) {
        std::memcpy(at_, &word, sizeof word);
        at_ += sizeof word;
        continue;
      }
      for (int i = 0; i < 8; ++i) {
        escaped(from[i]);
      }
    }
    for (; from != end; ++from) {
      escaped(*from);
    }
    *at_++ = '"';
  }

  // key: a field's key as a JSON member name. Keys are names in the code, never input: they are
  // copied as they are, without the escape scan.
  void key(std::string_view name) {
    room(name.size() + 3);
    *at_++ = '"';
    at_ = std::copy(name.begin(), name.end(), at_);
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

  // milliseconds: `micros` as milliseconds with up to three decimals and no trailing zero
  // ("1.5", "0.012", "3"): a JSON number, in integer arithmetic.
  void milliseconds(std::int64_t micros) {
    if (micros < 0) {
      put('-');
      micros = -micros;
    }
    number(micros / 1000);
    auto fraction = static_cast<unsigned>(micros % 1000);
    if (fraction == 0) {
      return;
    }
    room(4);
    *at_++ = '.';
    for (unsigned digit = 100; fraction != 0; digit /= 10) {
      *at_++ = static_cast<char>('0' + fraction / digit);
      fraction %= digit;
    }
  }

  // number: an integer, or a double in its shortest round-trip form ("1.5", not "1.5E0"): valid
  // JSON and readable as text.
  template <class Number>
  void number(Number value) {
    constexpr std::size_t widest = 32;
    room(widest);
    const auto [end, error] = std::to_chars(at_, at_ + widest, value);
    at_ = error == std::errc{} ? end : at_;
  }

 private:
  // needs_escape: whether any of the eight bytes in `word` is below 0x20, '"' or '\\' (bytes
  // from 0x80 up never are: the high bit of each byte is masked out of each test).
  static bool needs_escape(std::uint64_t word) {
    constexpr std::uint64_t ones = 0x0101010101010101U;
    constexpr std::uint64_t highs = 0x8080808080808080U;
    const auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
    const std::uint64_t below_space = (word - ones * 0x20U) & ~word & highs;
    return (below_space | zero_byte(word ^ (ones * '"')) | zero_byte(word ^ (ones * '\\'))) != 0;
  }

  // escaped: one byte of a JSON string, escaped where it must be. REQUIRES: room for six bytes.
  void escaped(char c) {
    const auto byte = static_cast<unsigned char>(c);
    if (!json_escaped[byte]) {
      *at_++ = c;
      return;
    }
    *at_++ = '\\';
    switch (byte) {
      case '"':
      case '\\':
        *at_++ = c;
        return;
      case '\b':
        *at_++ = 'b';
        return;
      case '\f':
        *at_++ = 'f';
        return;
      case '\n':
        *at_++ = 'n';
        return;
      case '\r':
        *at_++ = 'r';
        return;
      case '\t':
        *at_++ = 't';
        return;
      default: {
        constexpr std::string_view hex = "0123456789abcdef";
        const std::array<char, 5> code{'u', '0', '0', hex[byte >> 4U], hex[byte & 0xFU]};
        at_ = std::copy(code.begin(), code.end(), at_);
      }
    }
  }

  void room(std::size_t bytes) {
    if (static_cast<std::size_t>(end_ - at_) < bytes) {
      const auto used = static_cast<std::size_t>(at_ - line_.data());
      line_.resize(std::max(line_.size() * 2, used + bytes));
      at_ = line_.data() + used;
      end_ = line_.data() + line_.size();
    }
  }

  std::string& line_;
  char* at_;
  char* end_;
};

}  // namespace

void format_line(std::string& line, LogFormat format, LogLevel level, std::string_view event,
                 LogFields fields) {
  const bool json = format == LogFormat::json;
  line.clear();
  Writer out(line);
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
}

}  // namespace petstore::adapters::logging
