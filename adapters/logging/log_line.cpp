#include "adapters/logging/log_line.hpp"

#include <algorithm>
#include <array>
#include <charconv>
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

// append_time: the time now, UTC, to the millisecond ("2026-01-02T03:04:05.678Z"). A thread
// formats the date and second once a second and only the milliseconds for each line.
void append_time(std::string& line) {
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
  line.append(cached.text.data(), cached.text.size() - 1);
  const auto millis = static_cast<unsigned>(now.tv_nsec / 1000000);
  const std::array<char, 5> fraction{'.', static_cast<char>('0' + (millis / 100)),
                                     static_cast<char>('0' + (millis / 10 % 10)),
                                     static_cast<char>('0' + (millis % 10)), 'Z'};
  line.append(fraction.data(), fraction.size());
}

// append_json_string: `text` as a JSON string, escaped as Boost.JSON's serializer escapes it.
void append_json_string(std::string& line, std::string_view text) {
  line += '"';
  constexpr std::string_view hex = "0123456789abcdef";
  for (const char c : text) {
    switch (c) {
      case '"':
        line += "\\\"";
        break;
      case '\\':
        line += "\\\\";
        break;
      case '\b':
        line += "\\b";
        break;
      case '\f':
        line += "\\f";
        break;
      case '\n':
        line += "\\n";
        break;
      case '\r':
        line += "\\r";
        break;
      case '\t':
        line += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          line += "\\u00";
          line += hex[static_cast<unsigned char>(c) >> 4U];
          line += hex[static_cast<unsigned char>(c) & 0xFU];
        } else {
          line += c;
        }
    }
  }
  line += '"';
}

// append_text_value: a text value, bare when it needs no quoting, else a JSON string.
void append_text_value(std::string& line, std::string_view text) {
  const bool bare = !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    return c <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7F;
  });
  if (bare) {
    line += text;
  } else {
    append_json_string(line, text);
  }
}

// append_number: an integer, or a double in its shortest round-trip form ("1.5", not "1.5E0"):
// valid JSON and readable as text.
template <class Number>
void append_number(std::string& line, Number value) {
  std::array<char, 32> text{};
  const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), value);
  line.append(text.data(), error == std::errc{} ? end : text.data());
}

}  // namespace

void format_line(std::string& line, LogFormat format, LogLevel level, std::string_view event,
                 LogFields fields) {
  const bool json = format == LogFormat::json;
  line.clear();
  line += json ? R"({"time":")" : "";
  append_time(line);
  line += json ? R"(","level":")" : " ";
  line += level_name(level);
  if (json) {
    line += R"(","event":)";
    append_json_string(line, event);
  } else {
    line += ' ';
    append_text_value(line, event);
  }
  for (const auto& field : fields) {
    if (json) {
      line += ',';
      append_json_string(line, field.key);
      line += ':';
    } else {
      line += ' ';
      line += field.key;
      line += '=';
    }
    if (const auto* text = std::get_if<std::string_view>(&field.value)) {
      json ? append_json_string(line, *text) : append_text_value(line, *text);
    } else if (const auto* integer = std::get_if<std::int64_t>(&field.value)) {
      append_number(line, *integer);
    } else {
      append_number(line, std::get<double>(field.value));
    }
  }
  line += json ? "}\n" : "\n";
}

}  // namespace petstore::adapters::logging
