// The command line of contract section 7, read with CLI11: `serve`, `keys new|list|revoke`, the
// data tools `export`, `import` and `backup`, `--help` and `--version`; then the command it names.

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>

#include "bootstrap/commands.hpp"
#include "bootstrap/config_toml.hpp"
#include "bootstrap/serve_command_line.hpp"

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

// read_regular_file: the file's text, or why not. Opened without waiting (a FIFO with no writer
// would block for ever) and refused unless regular, so that no other kind is read or waited on.
domain::Result<std::string> read_regular_file(const std::string& path) {
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-vararg): open(2) is variadic
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    return domain::invalid_argument("config", std::strerror(errno));
  }
  struct stat about {};
  std::string text;
  std::string why;
  if (::fstat(fd, &about) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(about.st_mode)) {
    why = S_ISDIR(about.st_mode) ? "a directory, not a file" : "not a regular file";
  } else {
    char buffer[4096];
    for (ssize_t got = 0; (got = ::read(fd, buffer, sizeof buffer)) != 0;) {
      if (got < 0 && errno != EINTR) {
        why = std::strerror(errno);
        break;
      }
      text.append(buffer, static_cast<std::size_t>(std::max<ssize_t>(got, 0)));
    }
  }
  ::close(fd);
  if (!why.empty()) {
    return domain::invalid_argument("config", why);
  }
  return text;
}

// apply_config_file: `serve --config FILE`, a TOML file of serve's flags under the same names
// without the dashes (docs/decisions/config-file.md). Precedence: command line, environment, file,
// default: when argv runs `serve` with --config FILE (or PETSTORE_CONFIG is set), sets PETSTORE_*
// for each of FILE's keys whose variable is unset or empty, so that CLI11 checks the file's values
// as it checks those. Call before parsing, before any thread starts. The error line when FILE is
// no regular file, cannot be read, is refused by parse_toml or names no serve flag.
std::optional<std::string> apply_config_file(const CLI::App& serve, int argc,
                                             const char* const* argv) {
  const auto path = config_path(argc, argv);
  if (!path) {
    return std::nullopt;
  }
  const auto text = read_regular_file(*path);
  if (!text) {
    return "--config " + *path + ": " + text.error().message;
  }
  const auto entries = parse_toml(*text);
  if (!entries) {
    return "--config " + *path + ": " + entries.error().message;
  }
  for (const TomlEntry& entry : *entries) {
    const CLI::Option* option = serve.get_option_no_throw("--" + entry.key);
    if (option == nullptr || option->get_envname().empty() || entry.key == "config") {
      return "--config " + *path + ": line " + std::to_string(entry.line) + ", column " +
             std::to_string(entry.column) + ": '" + entry.key +
             "' is not a serve flag (keys are the flags without --, e.g. listen)";
    }
    std::string value;
    for (const std::string& input : entry.values) {
      value += (value.empty() ? "" : ",") + input;
    }
    // An environment variable already set wins over the file; an empty one counts as unset.
    // NOLINTNEXTLINE(concurrency-mt-unsafe): at start, before any thread
    const char* set = std::getenv(option->get_envname().c_str());
    if (set == nullptr || *set == '\0') {
      // NOLINTNEXTLINE(concurrency-mt-unsafe): at start, before any thread
      ::setenv(option->get_envname().c_str(), value.c_str(), 1);
    }
  }
  return std::nullopt;
}

// add_store_flags: an LMDB data directory, or with `--storage postgres` a database (contract
// section 8). Which one is required is checked when the command runs (exit 2).
void add_store_flags(CLI::App& command, StoreOptions& store, const std::string& data_dir_help) {
  add_word_flag(command, "--storage", store.storage,
                {{"lmdb", StorageKind::lmdb}, {"postgres", StorageKind::postgres}},
                "Where the pets are kept: lmdb or postgres");
  auto* dir = command.add_option("--data-dir", store.data_dir, data_dir_help);
  command
      .add_option("--database-url", store.database_url,
                  "PostgreSQL connection string or URI (--storage postgres; a password is better "
                  "kept in PGPASSFILE or PGPASSWORD than on a command line)")
      ->excludes(dir);
}

}  // namespace

int run(int argc, const char* const* argv) {
  ServeOptions serve_options;
  ServeFlags serve_flags;
  KeysOptions keys;
  ExportOptions export_options;
  ImportOptions import_options;
  BackupOptions backup_options;
  CLI::App app{"Petstore: a store's catalogue of pets, served as an HTTP JSON API.", "petstore"};
  app.set_version_flag("--version", version_text());
  // At most one subcommand; "none" is reported after parsing, so that an unknown word or flag
  // is named as such rather than as a missing subcommand.
  app.require_subcommand(0, 1);
  CLI::App* serve = app.add_subcommand("serve", "Serve the API");
  add_serve_flags(*serve, serve_options, serve_flags);

  CLI::App* keys_command = app.add_subcommand("keys", "Manage API keys");
  keys_command->require_subcommand(0, 1);
  const auto key_command = [&](const char* name, const char* help, const char* file_help) {
    CLI::App* command = keys_command->add_subcommand(name, help);
    command->add_option("--api-keys", keys.api_keys, file_help)
        ->envname("PETSTORE_API_KEYS")
        ->required();
    return command;
  };
  CLI::App* keys_new = key_command("new", "Make an API key, print it once, store its digest",
                                   "Key file to append to");
  keys_new->add_option("--label", keys.label, "A name for the key (visible ASCII)");
  keys_new->add_flag("--read-only", keys.read_only,
                     "The key may list and get pets, not create them");
  CLI::App* keys_list = key_command(
      "list", "Show each key's principal id, access, creation time and label", "Key file to read");
  CLI::App* keys_revoke = key_command(
      "revoke", "Remove a key from the key file (a serving petstore drops it at SIGHUP)",
      "Key file to remove the key from");
  keys_revoke
      ->add_option("key", keys.which,
                   "The key's label, or its digest prefix (8 or more hex digits, as `keys list` "
                   "shows it: key-3f0a9c41b2de)")
      ->required();

  CLI::App* export_pets =
      app.add_subcommand("export", "Write every pet as JSON Lines (works on a live store)");
  add_store_flags(*export_pets, export_options.store, "LMDB data directory to read");
  export_pets->add_option("--out", export_options.out,
                          "File to write (replaced when complete; default: stdout)");
  CLI::App* import_pets = app.add_subcommand(
      "import", "Add pets from JSON Lines, keeping their ids; all or nothing (works live)");
  add_store_flags(*import_pets, import_options.store,
                  "LMDB data directory to import into (created when missing)");
  import_pets->add_option("--in", import_options.in, "File to read (default: stdin)");
  CLI::App* backup = app.add_subcommand(
      "backup", "Write a consistent, compacted copy of a store (works on a live store)");
  add_store_flags(*backup, backup_options.store, "LMDB data directory to copy");
  backup->add_option("--out", backup_options.out, "New or empty directory for the copy")
      ->required();

  if (const auto config_error = apply_config_file(*serve, argc, argv)) {
    std::cerr << "petstore: " << *config_error << '\n';
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& help_or_version) {
    return app.exit(help_or_version);
  } catch (const CLI::ParseError& error) {
    std::cerr << "petstore: " << error.what() << " (see petstore --help)\n";
    return 2;
  }
  if (serve->parsed()) {
    if (serve_flags.timeouts_disagree()) {
      std::cerr << "petstore: --database-timeout is an alias of --storage-timeout: give one, or "
                   "both with the same value (see petstore --help)\n";
      return 2;
    }
    apply_serve_flags(serve_flags, serve_options);
    return run_serve(serve_options);
  }
  if (keys_new->parsed()) {
    return run_keys_new(keys);
  }
  if (keys_list->parsed()) {
    return run_keys_list(keys);
  }
  if (keys_revoke->parsed()) {
    return run_keys_revoke(keys);
  }
  if (export_pets->parsed()) {
    return run_export(export_options);
  }
  if (import_pets->parsed()) {
    return run_import(import_options);
  }
  if (backup->parsed()) {
    return run_backup(backup_options);
  }
  std::cerr << "petstore: "
            << (keys_command->parsed()
                    ? "keys needs a subcommand: new, list or revoke"
                    : "a subcommand is required: serve, keys, export, import or backup")
            << " (see petstore --help)\n";
  return 2;
}

}  // namespace petstore::bootstrap
