#pragma once
// The flags of `serve`: each also read from an environment variable and `--config FILE`, each
// value checked while parsing (a bad one exits 2, named with its flag). Some are kept as given in
// ServeFlags until apply_serve_flags turns them into ServeOptions. And add_word_flag, which the
// data tools' --storage shares.

#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "bootstrap/serve_options.hpp"

namespace petstore::bootstrap {

// add_word_flag: `flag WORD` on a CLI11 command, one of `words`, bound to the enum `value`.
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

struct ServeFlags {
  double header_timeout = 10;
  double body_timeout = 30;
  double idle_timeout = 60;
  double storage_timeout = 5;
  double database_timeout = 5;
  double drain_delay = 0;
  // --database-timeout is an alias of --storage-timeout (one clock): which were given.
  const CLI::Option* storage_timeout_given = nullptr;
  const CLI::Option* database_timeout_given = nullptr;
  // Bound to --trusted-proxies and --cors-origins; their checks keep the parse in ServeOptions.
  std::string trusted_proxies;
  std::string cors_origins;

  // timeouts_disagree: both --storage-timeout and its alias were given, with different values.
  [[nodiscard]] bool timeouts_disagree() const;
};

// add_serve_flags: declares every flag of `serve`, writing into `options` and `flags`.
void add_serve_flags(CLI::App& serve, ServeOptions& options, ServeFlags& flags);
// apply_serve_flags: after a parse, what `flags` holds turned into `options`.
void apply_serve_flags(const ServeFlags& flags, ServeOptions& options);

}  // namespace petstore::bootstrap
