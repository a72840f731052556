// The command line of contract section 7, read with CLI11: `serve`, `keys new|list|revoke`, the
// data tools `export`, `import` and `backup`, `--help` and `--version`; then the command it names.

#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "bootstrap/build_info.hpp"
#include "bootstrap/commands.hpp"
#include "bootstrap/config_file.hpp"
#include "bootstrap/serve_command_line.hpp"
#include "bootstrap/word_flag.hpp"

namespace petstore::bootstrap {
namespace {

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
