#pragma once
// add_data_commands: the subcommands `export`, `import` and `backup` on the CLI11 app of
// command_line.cpp, writing their flags into the options it is given.

#include "bootstrap/cli11_forward.hpp"
#include "bootstrap/data_options.hpp"

namespace petstore::bootstrap {

struct DataCommands {
  CLI::App* export_pets = nullptr;
  CLI::App* import_pets = nullptr;
  CLI::App* backup = nullptr;
};

[[nodiscard]] DataCommands add_data_commands(CLI::App& app, ExportOptions& export_options,
                                             ImportOptions& import_options,
                                             BackupOptions& backup_options);

}  // namespace petstore::bootstrap
