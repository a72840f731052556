#include "bootstrap/data_command_line.hpp"

#include <CLI/CLI.hpp>

namespace petstore::bootstrap {

DataCommands add_data_commands(CLI::App& app, ExportOptions& export_options,
                               ImportOptions& import_options, BackupOptions& backup_options) {
  DataCommands commands;
  commands.export_pets =
      app.add_subcommand("export", "Write every pet as JSON Lines (works on a live store)");
  commands.export_pets
      ->add_option("--data-dir", export_options.data_dir, "LMDB data directory to read")
      ->required();
  commands.export_pets->add_option("--out", export_options.out,
                                   "File to write (replaced when complete; default: stdout)");

  commands.import_pets = app.add_subcommand(
      "import", "Add pets from JSON Lines, keeping their ids; all or nothing (works live)");
  commands.import_pets
      ->add_option("--data-dir", import_options.data_dir,
                   "LMDB data directory to import into (created when missing)")
      ->required();
  commands.import_pets->add_option("--in", import_options.in, "File to read (default: stdin)");

  commands.backup = app.add_subcommand(
      "backup", "Write a consistent, compacted copy of a store (works on a live store)");
  commands.backup->add_option("--data-dir", backup_options.data_dir, "LMDB data directory to copy")
      ->required();
  commands.backup->add_option("--out", backup_options.out, "New or empty directory for the copy")
      ->required();
  return commands;
}

}  // namespace petstore::bootstrap
