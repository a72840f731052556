#pragma once
// add_word_flag: `flag WORD` on a CLI11 command, one of `words`, bound to the enum `value`. For
// the .cpp files that add flags (they include <CLI/CLI.hpp>, which this header needs).

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

namespace petstore::bootstrap {

// CLI11 runs transforms before checks, each added transform first: so the word is checked first
// (the refusal reads "bogus not in {json,text}", naming the words in the order given), then made
// the enum by a transform that --help does not show; the word of `value` is the default shown.
template <class Enum>
CLI::Option* add_word_flag(CLI::App& command, const std::string& flag, Enum& value,
                           const std::vector<std::pair<std::string, Enum>>& words,
                           const std::string& help) {
  std::vector<std::string> names;
  std::string shown;
  for (const auto& [name, each] : words) {
    names.push_back(name);
    shown = each == value ? name : shown;
  }
  return command.add_option(flag, value, help)
      ->transform(CLI::CheckedTransformer(words).description(""))
      ->transform(CLI::IsMember(names))
      ->type_name("TEXT")
      ->default_str(shown);
}

}  // namespace petstore::bootstrap
