#include "bootstrap/config_file.hpp"

#include <cstdlib>
#include <string_view>

#include <CLI/CLI.hpp>

namespace petstore::bootstrap {
namespace {

// config_path: FILE of `serve ... --config FILE` or `--config=FILE`, else $PETSTORE_CONFIG.
std::optional<std::string> config_path(int argc, const char* const* argv) {
  bool serving = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    serving = serving || word == "serve";
    if (serving && word == "--config" && i + 1 < argc) {
      return std::string(argv[i + 1]);
    }
    if (serving && word.starts_with("--config=")) {
      return std::string(word.substr(9));
    }
  }
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once at start, before any thread
  const char* from_environment = std::getenv("PETSTORE_CONFIG");
  if (serving && from_environment != nullptr && *from_environment != '\0') {
    return std::string(from_environment);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> apply_config_file(const CLI::App& serve, int argc,
                                             const char* const* argv) {
  const auto path = config_path(argc, argv);
  if (!path) {
    return std::nullopt;
  }
  std::vector<CLI::ConfigItem> items;
  try {
    items = CLI::ConfigTOML().from_file(*path);
  } catch (const CLI::Error& error) {
    return "--config " + *path + ": " + error.what();
  }
  for (const CLI::ConfigItem& item : items) {
    const CLI::Option* option =
        item.parents.empty() ? serve.get_option_no_throw("--" + item.name) : nullptr;
    if (option == nullptr || option->get_envname().empty() || item.name == "config") {
      return "--config " + *path + ": '" + item.fullname() +
             "' is not a serve flag (keys are the flags without --, e.g. listen)";
    }
    std::string value;
    for (const std::string& input : item.inputs) {
      value += (value.empty() ? "" : ",") + input;
    }
    // overwrite = 0: an environment variable already set wins over the file.
    // NOLINTNEXTLINE(concurrency-mt-unsafe): at start, before any thread
    ::setenv(option->get_envname().c_str(), value.c_str(), 0);
  }
  return std::nullopt;
}

}  // namespace petstore::bootstrap
