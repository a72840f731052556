#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace petstore::adapters::storage::postgres {

// ArrayLiteral: a PostgreSQL array's text form, built one element at a time. Every element is
// quoted (a backslash before each quote and backslash in it), so any text passes; nullopt is NULL.
class ArrayLiteral {
 public:
  void add(const std::optional<std::string>& item) {
    text_ += text_.size() == 1 ? "" : ",";
    if (!item) {
      text_ += "NULL";
      return;
    }
    text_ += '"';
    for (const char c : *item) {
      if (c == '"' || c == '\\') {
        text_ += '\\';
      }
      text_ += c;
    }
    text_ += '"';
  }
  void add(std::int64_t value) { add(std::optional<std::string>(std::to_string(value))); }
  [[nodiscard]] std::optional<std::string> done() && { return std::move(text_) + "}"; }

 private:
  std::string text_ = "{";
};

}  // namespace petstore::adapters::storage::postgres
