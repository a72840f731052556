#include "bootstrap/command_line.hpp"

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bootstrap/build_info.hpp"
#include "bootstrap/config_file.hpp"
#include "bootstrap/serve_command_line.hpp"
#include "bootstrap/storage_flag.hpp"

namespace petstore::bootstrap {
namespace {

struct KeysCommands {
  CLI::App* keys;
  CLI::App* make;
  CLI::App* list;
  CLI::App* revoke;
};

KeysCommands add_keys_commands(CLI::App& app, KeysOptions& options) {
  KeysCommands commands{};
  commands.keys = app.add_subcommand("keys", "Manage API keys");
  commands.keys->require_subcommand(0, 1);
  const auto key_file = [&options](CLI::App& command, const char* what) {
    command.add_option("--api-keys", options.api_keys, what)
        ->envname("PETSTORE_API_KEYS")
        ->required();
  };
  commands.make =
      commands.keys->add_subcommand("new", "Make an API key, print it once, store its digest");
  key_file(*commands.make, "Key file to append to");
  commands.make->add_option("--label", options.label, "A name for the key (visible ASCII)");
  commands.make->add_flag("--read-only", options.read_only,
                          "The key may list and get pets, not create them");
  commands.list = commands.keys->add_subcommand(
      "list", "Show each key's principal id, access, creation time and label");
  key_file(*commands.list, "Key file to read");
  commands.revoke = commands.keys->add_subcommand(
      "revoke", "Remove a key from the key file (a serving petstore drops it at SIGHUP)");
  key_file(*commands.revoke, "Key file to remove the key from");
  commands.revoke
      ->add_option("key", options.which,
                   "The key's label, or its digest prefix (8 or more hex digits, as `keys list` "
                   "shows it: key-3f0a9c41b2de)")
      ->required();
  return commands;
}

struct DataCommands {
  CLI::App* export_pets = nullptr;
  CLI::App* import_pets = nullptr;
  CLI::App* backup = nullptr;
};

// add_store_flags: the store a data tool acts on: an LMDB data directory, or with
// `--storage postgres` a database (contract section 8). Which one is required is checked when the
// command runs (a missing one exits 2 there).
void add_store_flags(CLI::App& command, StoreOptions& store, const std::string& data_dir_help) {
  add_storage_flag(command, store.storage, {StorageKind::lmdb, StorageKind::postgres},
                   "Where the pets are kept: lmdb or postgres");
  auto* dir = command.add_option("--data-dir", store.data_dir, data_dir_help);
  command
      .add_option("--database-url", store.database_url,
                  "PostgreSQL connection string or URI (--storage postgres; a password is better "
                  "kept in PGPASSFILE or PGPASSWORD than on a command line)")
      ->excludes(dir);
}

// add_data_commands: the data tools `export`, `import` and `backup`, writing into `command`.
DataCommands add_data_commands(CLI::App& app, Command& command) {
  DataCommands commands;
  commands.export_pets =
      app.add_subcommand("export", "Write every pet as JSON Lines (works on a live store)");
  add_store_flags(*commands.export_pets, command.export_pets.store, "LMDB data directory to read");
  commands.export_pets->add_option("--out", command.export_pets.out,
                                   "File to write (replaced when complete; default: stdout)");

  commands.import_pets = app.add_subcommand(
      "import", "Add pets from JSON Lines, keeping their ids; all or nothing (works live)");
  add_store_flags(*commands.import_pets, command.import_pets.store,
                  "LMDB data directory to import into (created when missing)");
  commands.import_pets->add_option("--in", command.import_pets.in, "File to read (default: stdin)");

  commands.backup = app.add_subcommand(
      "backup", "Write a consistent, compacted copy of a store (works on a live store)");
  add_store_flags(*commands.backup, command.backup.store, "LMDB data directory to copy");
  commands.backup->add_option("--out", command.backup.out, "New or empty directory for the copy")
      ->required();
  return commands;
}

}  // namespace

Command parse_command_line(int argc, const char* const* argv) {
  Command command;
  ServeFlags serve_flags;
  CLI::App app{"Petstore: a store's catalogue of pets, served as an HTTP JSON API.", "petstore"};
  app.set_version_flag("--version", version_text());
  // At most one subcommand; "none" is reported after parsing, so that an unknown word or flag
  // is named as such rather than as a missing subcommand.
  app.require_subcommand(0, 1);
  CLI::App* serve = app.add_subcommand("serve", "Serve the API");
  add_serve_flags(*serve, command.serve, serve_flags);
  const KeysCommands keys = add_keys_commands(app, command.keys);
  const DataCommands data = add_data_commands(app, command);
  if (const auto config_error = apply_config_file(*serve, argc, argv)) {
    std::cerr << "petstore: " << *config_error << '\n';
    command.exit_code = 2;
    return command;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& help_or_version) {
    command.exit_code = app.exit(help_or_version);
    return command;
  } catch (const CLI::ParseError& error) {
    std::cerr << "petstore: " << error.what() << " (see petstore --help)\n";
    command.exit_code = 2;
    return command;
  }
  if (serve->parsed() && serve_flags.timeouts_disagree()) {
    std::cerr << "petstore: --database-timeout is an alias of --storage-timeout: give one, or "
                 "both with the same value (see petstore --help)\n";
    command.exit_code = 2;
    return command;
  }
  if (serve->parsed()) {
    apply_serve_flags(serve_flags, command.serve);
    command.kind = Command::Kind::serve;
  } else if (keys.make->parsed()) {
    command.kind = Command::Kind::keys_new;
  } else if (keys.list->parsed()) {
    command.kind = Command::Kind::keys_list;
  } else if (keys.revoke->parsed()) {
    command.kind = Command::Kind::keys_revoke;
  } else if (data.export_pets->parsed()) {
    command.kind = Command::Kind::export_pets;
  } else if (data.import_pets->parsed()) {
    command.kind = Command::Kind::import_pets;
  } else if (data.backup->parsed()) {
    command.kind = Command::Kind::backup;
  } else {
    std::cerr << "petstore: "
              << (keys.keys->parsed()
                      ? "keys needs a subcommand: new, list or revoke"
                      : "a subcommand is required: serve, keys, export, import or backup")
              << " (see petstore --help)\n";
    command.exit_code = 2;
  }
  return command;
}

}  // namespace petstore::bootstrap
