#include "bootstrap/config_toml.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include <toml++/toml.h>

namespace petstore::bootstrap {
namespace {

std::string place(const toml::source_position& at) {
  return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column) + ": ";
}

// float_text: the shortest text that reads back as `value`, still a float: `2.0` stays "2.0", so
// that a flag taking a whole number refuses it as it refuses the same in a variable. Every NaN is
// "nan": to_chars writes a negative one as "-nan", which no flag's check names.
std::string float_text(double value) {
  if (std::isnan(value)) {
    return "nan";
  }
  std::array<char, 32> text{};
  const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
  std::string out(text.data(), written.ptr);
  if (std::isfinite(value) && out.find_first_of(".e") == std::string::npos) {
    out += ".0";
  }
  return out;
}

// Flattener: one entry a key of the parsed tables, and a refusal for each value no flag takes.
// toml++ keeps a table's keys in name order, so entries are sorted back into file order by their
// keys' places, and the refusal reported is the first in the file.
class Flattener {
 public:
  void add_table(const toml::table& table, const std::string& prefix) {
    for (const auto& [key, node] : table) {
      const std::string dotted = prefix + std::string(key.str());
      if (const toml::table* inner = node.as_table()) {
        add_table(*inner, dotted + ".");
        continue;
      }
      const toml::source_position& at = key.source().begin;
      TomlEntry entry{dotted, {}, static_cast<int>(at.line), static_cast<int>(at.column)};
      if (const toml::array* array = node.as_array()) {
        for (const toml::node& element : *array) {
          add_value(element, entry.values);
        }
      } else {
        add_value(node, entry.values);
      }
      entries_.push_back(std::move(entry));
    }
  }

  domain::Result<std::vector<TomlEntry>> finish() && {
    if (!refusals_.empty()) {
      const auto first = std::ranges::min_element(refusals_, {}, &Refusal::at);
      return domain::invalid_argument("config", place(first->at) + first->why);
    }
    std::ranges::sort(entries_, {},
                      [](const TomlEntry& entry) { return std::pair(entry.line, entry.column); });
    return std::move(entries_);
  }

 private:
  struct Refusal {
    toml::source_position at;
    std::string why;
  };

  void add_value(const toml::node& node, std::vector<std::string>& values) {
    switch (node.type()) {
      case toml::node_type::string:
        // A NUL would end the value early once it becomes an environment variable.
        if (node.as_string()->get().find('\0') != std::string::npos) {
          refuse(node, "a string holds a NUL character (\\u0000), which no flag takes");
        } else {
          values.push_back(node.as_string()->get());
        }
        return;
      case toml::node_type::integer:
        values.push_back(std::to_string(node.as_integer()->get()));
        return;
      case toml::node_type::floating_point:
        values.push_back(float_text(node.as_floating_point()->get()));
        return;
      case toml::node_type::boolean:
        values.emplace_back(node.as_boolean()->get() ? "true" : "false");
        return;
      case toml::node_type::array:
        refuse(node, "an array inside an array is not taken: no flag takes one");
        return;
      case toml::node_type::table:
        refuse(node, "an array of tables is not taken: no flag takes one");
        return;
      default:
        refuse(node, "a date or time is not taken: quote it to make it a string");
        return;
    }
  }

  void refuse(const toml::node& node, std::string why) {
    refusals_.push_back({node.source().begin, std::move(why)});
  }

  std::vector<TomlEntry> entries_;
  std::vector<Refusal> refusals_;
};

}  // namespace

domain::Result<std::vector<TomlEntry>> parse_toml(std::string_view text) {
  try {
    Flattener flattener;
    flattener.add_table(toml::parse(text), "");
    return std::move(flattener).finish();
  } catch (const toml::parse_error& error) {
    return domain::invalid_argument("config",
                                    place(error.source().begin) + std::string(error.description()));
  }
}

}  // namespace petstore::bootstrap
