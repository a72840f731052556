#include "bootstrap/config_toml.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>

#include "bootstrap/config_toml_values.hpp"

namespace petstore::bootstrap {
namespace {

// Reader: one pass over the text; each read_* consumes what it recognises, or sets error_ and
// returns false at the line where the text stops being TOML.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  domain::Result<std::vector<TomlEntry>> read() {
    while (skip_blanks(), pos_ < text_.size()) {
      const bool read =
          peek() == '[' ? read_table() : peek() == '#' || at_newline() || read_entry();
      if (!read || !end_line()) {
        return domain::invalid_argument("config", "line " + std::to_string(line_) + ": " + error_);
      }
    }
    return std::move(entries_);
  }

 private:
  [[nodiscard]] char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  [[nodiscard]] bool at_newline() const {
    return peek() == '\n' || (peek() == '\r' && peek(1) == '\n');
  }
  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }
  void skip_blanks() {
    while (peek() == ' ' || peek() == '\t') {
      ++pos_;
    }
  }
  void skip_comment() {
    while (pos_ < text_.size() && !at_newline()) {
      ++pos_;
    }
  }
  // end_line: blanks, a comment, then the end of the line (or of the text).
  bool end_line() {
    skip_blanks();
    if (peek() == '#') {
      skip_comment();
    }
    if (pos_ == text_.size()) {
      return true;
    }
    if (!at_newline()) {
      return fail("unexpected '" + std::string(text_.substr(pos_, 1)) + "' after the value");
    }
    pos_ += peek() == '\r' ? 2 : 1;
    ++line_;
    return true;
  }

  bool read_table() {
    ++pos_;
    const bool array_of_tables = peek() == '[';
    pos_ += array_of_tables ? 1 : 0;
    skip_blanks();
    if (!read_key(table_)) {
      return false;
    }
    skip_blanks();
    if (peek() != ']' || (array_of_tables && peek(1) != ']')) {
      return fail("the table header [" + table_ + " is not closed by ']'");
    }
    pos_ += array_of_tables ? 2 : 1;
    return true;
  }

  bool read_key(std::string& key) {
    key.clear();
    for (;;) {
      std::string part;
      const std::size_t start = pos_;
      if (peek() == '"' || peek() == '\'') {
        if (!read_string(part)) {
          return false;
        }
      } else {
        while (std::isalnum(static_cast<unsigned char>(peek())) != 0 || peek() == '_' ||
               peek() == '-') {
          part += text_[pos_++];
        }
      }
      if (pos_ == start) {
        return fail(peek() == '=' ? "a key is missing before '='" : "expected a key");
      }
      key += part;
      skip_blanks();
      if (peek() != '.') {
        return true;
      }
      key += text_[pos_++];
      skip_blanks();
    }
  }

  bool read_entry() {
    TomlEntry entry;
    entry.line = line_;
    if (!read_key(entry.key)) {
      return false;
    }
    if (peek() != '=') {
      return fail("expected '=' after the key '" + entry.key + "'");
    }
    ++pos_;
    skip_blanks();
    if (pos_ == text_.size() || at_newline() || peek() == '#') {
      return fail("'" + entry.key + "' has no value");
    }
    if (!read_value(entry.values, true)) {
      return false;
    }
    entry.key = table_.empty() ? entry.key : table_ + "." + entry.key;
    if (const auto [first, added] = first_lines_.emplace(entry.key, entry.line); !added) {
      return fail("'" + entry.key + "' is set twice (first on line " +
                  std::to_string(first->second) + ")");
    }
    entries_.push_back(std::move(entry));
    return true;
  }

  bool read_value(std::vector<std::string>& values, bool outermost) {
    if (peek() == '"' || peek() == '\'') {
      return read_string(values.emplace_back());
    }
    if (peek() == '[') {
      return outermost ? read_array(values) : fail("an array inside an array is not taken");
    }
    if (peek() == '{') {
      return fail("an inline table is not taken");
    }
    const std::size_t start = pos_;
    while (std::isalnum(static_cast<unsigned char>(peek())) != 0 ||
           std::string_view("_+-.:").find(peek()) != std::string_view::npos) {
      ++pos_;
    }
    const std::string_view token = text_.substr(start, pos_ - start);
    if (token == "true" || token == "false") {
      values.emplace_back(token);
      return true;
    }
    if (auto number = toml_number(token)) {
      values.push_back(std::move(*number));
      return true;
    }
    return fail(token.empty() ? "expected a value"
                              : std::string(token) +
                                    " is not a TOML value (a string, a number, true, false or "
                                    "an array; a string is quoted: \"...\")");
  }

  // read_array: `[ v, v, ]`, across lines and comments as TOML allows.
  bool read_array(std::vector<std::string>& values) {
    ++pos_;
    for (bool expect_value = true;;) {
      while (skip_blanks(), peek() == '#' || at_newline()) {
        skip_comment();
        if (at_newline()) {
          pos_ += peek() == '\r' ? 2 : 1;
          ++line_;
        }
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      if (pos_ == text_.size()) {
        return fail("the array is not closed by ']'");
      }
      if (!expect_value) {
        return fail("expected ',' or ']' in the array");
      }
      if (!read_value(values, false)) {
        return false;
      }
      skip_blanks();
      expect_value = peek() == ',';
      pos_ += expect_value ? 1 : 0;
    }
  }

  bool read_string(std::string& out) {
    auto why = read_toml_string(text_, pos_, out);
    return !why || fail(std::move(*why));
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::string table_;
  std::string error_;
  std::vector<TomlEntry> entries_;
  std::map<std::string, int> first_lines_;
};

}  // namespace

domain::Result<std::vector<TomlEntry>> parse_toml(std::string_view text) {
  return Reader(text).read();
}

}  // namespace petstore::bootstrap
