#include "support/raw_http_response.hpp"

#include <algorithm>
#include <charconv>

namespace petstore::tests {
namespace {

bool same_ignoring_case(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; };
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [&](char x, char y) { return lower(x) == lower(y); });
}

std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) {
    return {};
  }
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

template <class Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

// parse_head: the status line and fields of `head` (without the blank line); false if malformed.
bool parse_head(std::string_view head, RawResponse& out) {
  const auto line_end = head.find("\r\n");
  const std::string_view status_line = head.substr(0, line_end);
  const auto first_space = status_line.find(' ');
  if (first_space == std::string_view::npos || !status_line.starts_with("HTTP/")) {
    return false;
  }
  out.version = std::string(status_line.substr(0, first_space));
  const auto status = parse_number<unsigned>(status_line.substr(first_space + 1, 3));
  if (!status) {
    return false;
  }
  out.status = *status;
  std::string_view rest = line_end == std::string_view::npos ? "" : head.substr(line_end + 2);
  while (!rest.empty()) {
    const auto end = rest.find("\r\n");
    const std::string_view field = rest.substr(0, end);
    const auto colon = field.find(':');
    if (colon == std::string_view::npos || colon == 0) {
      return false;
    }
    out.headers.emplace_back(std::string(field.substr(0, colon)),
                             std::string(trim(field.substr(colon + 1))));
    rest = end == std::string_view::npos ? "" : rest.substr(end + 2);
  }
  return true;
}

}  // namespace

std::optional<std::string> RawResponse::header(std::string_view name) const {
  const auto found = std::find_if(headers.begin(), headers.end(), [name](const auto& field) {
    return same_ignoring_case(field.first, name);
  });
  if (found == headers.end()) {
    return std::nullopt;
  }
  return found->second;
}

std::size_t RawResponse::count(std::string_view name) const {
  return static_cast<std::size_t>(
      std::count_if(headers.begin(), headers.end(),
                    [name](const auto& field) { return same_ignoring_case(field.first, name); }));
}

std::ostream& operator<<(std::ostream& out, const RawResponse& response) {
  out << response.version << ' ' << response.status << '\n';
  for (const auto& [name, value] : response.headers) {
    out << name << ": " << value << '\n';
  }
  return out << '\n' << response.body;
}

ParseOutcome parse_response(std::string& buffer, RawResponse& out) {
  const auto head_end = buffer.find("\r\n\r\n");
  if (head_end == std::string::npos) {
    return ParseOutcome::incomplete;
  }
  RawResponse response;
  if (!parse_head(std::string_view(buffer).substr(0, head_end), response)) {
    return ParseOutcome::malformed;
  }
  std::size_t body_length = 0;
  const bool bodiless = response.status < 200 || response.status == 204 || response.status == 304;
  if (!bodiless) {
    const auto length = response.header("Content-Length");
    const auto parsed = length ? parse_number<std::size_t>(*length) : std::nullopt;
    if (!parsed || response.count("Content-Length") != 1) {
      return ParseOutcome::malformed;
    }
    body_length = *parsed;
  }
  const std::size_t body_start = head_end + 4;
  if (buffer.size() < body_start + body_length) {
    return ParseOutcome::incomplete;
  }
  response.body = buffer.substr(body_start, body_length);
  buffer.erase(0, body_start + body_length);
  out = std::move(response);
  return ParseOutcome::complete;
}

}  // namespace petstore::tests
