#include "bootstrap/storage_flag.hpp"

#include <map>
#include <vector>

#include <CLI/CLI.hpp>

namespace petstore::bootstrap {

CLI::Option* add_storage_flag(CLI::App& command, StorageKind& kind,
                              std::initializer_list<StorageKind> allowed, const std::string& help) {
  std::vector<std::string> words;
  std::map<std::string, StorageKind> kinds;
  for (const StorageKind each : allowed) {
    words.emplace_back(storage_name(each));
    kinds.emplace(storage_name(each), each);
  }
  // CLI11 runs transforms before checks, each added transform first: so the word is checked
  // first (the refusal reads "bogus not in {memory,lmdb,postgres}"), then made a kind by a
  // transform that --help does not show.
  return command.add_option("--storage", kind, help)
      ->transform(CLI::CheckedTransformer(kinds).description(""))
      ->transform(CLI::IsMember(words))
      ->type_name("TEXT")
      ->default_str(std::string(storage_name(kind)));
}

}  // namespace petstore::bootstrap
