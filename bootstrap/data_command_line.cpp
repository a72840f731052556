#include "bootstrap/data_command_line.hpp"

#include <string>

#include <CLI/CLI.hpp>

#include "bootstrap/storage_flag.hpp"

namespace petstore::bootstrap {
namespace {

// add_store_flags: the store a data tool acts on: an LMDB data directory, or with
// `--storage postgres` a database (contract section 8). Which one is required is checked when the
// command runs (a missing one exits 2 there).
void add_store_flags(CLI::App& command, StorageKind& storage, std::filesystem::path& data_dir,
                     std::string& database_url, const std::string& data_dir_help) {
  add_storage_flag(command, storage, {StorageKind::lmdb, StorageKind::postgres},
                   "Where the pets are kept: lmdb or postgres");
  auto* dir = command.add_option("--data-dir", data_dir, data_dir_help);
  command
      .add_option("--database-url", database_url,
                  "PostgreSQL connection string or URI (--storage postgres; a password is better "
                  "kept in PGPASSFILE or PGPASSWORD than on a command line)")
      ->excludes(dir);
}

}  // namespace

DataCommands add_data_commands(CLI::App& app, ExportOptions& export_options,
                               ImportOptions& import_options, BackupOptions& backup_options) {
  DataCommands commands;
  commands.export_pets =
      app.add_subcommand("export", "Write every pet as JSON Lines (works on a live store)");
  add_store_flags(*commands.export_pets, export_options.storage, export_options.data_dir,
                  export_options.database_url, "LMDB data directory to read");
  commands.export_pets->add_option("--out", export_options.out,
                                   "File to write (replaced when complete; default: stdout)");

  commands.import_pets = app.add_subcommand(
      "import", "Add pets from JSON Lines, keeping their ids; all or nothing (works live)");
  add_store_flags(*commands.import_pets, import_options.storage, import_options.data_dir,
                  import_options.database_url,
                  "LMDB data directory to import into (created when missing)");
  commands.import_pets->add_option("--in", import_options.in, "File to read (default: stdin)");

  commands.backup = app.add_subcommand(
      "backup", "Write a consistent, compacted copy of a store (works on a live store)");
  add_store_flags(*commands.backup, backup_options.storage, backup_options.data_dir,
                  backup_options.database_url, "LMDB data directory to copy");
  commands.backup->add_option("--out", backup_options.out, "New or empty directory for the copy")
      ->required();
  return commands;
}

}  // namespace petstore::bootstrap
