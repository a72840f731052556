#include "bootstrap/command_line.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {

int run(int argc, const char* const* argv) {
  const Command command = parse_command_line(argc, argv);
  switch (command.kind) {
    case Command::Kind::serve:
      return run_serve(command.serve);
    case Command::Kind::keys_new:
      return run_keys_new(command.keys);
    case Command::Kind::keys_list:
      return run_keys_list(command.keys);
    case Command::Kind::keys_revoke:
      return run_keys_revoke(command.keys);
    case Command::Kind::export_pets:
      return run_export(command.export_pets);
    case Command::Kind::import_pets:
      return run_import(command.import_pets);
    case Command::Kind::backup:
      return run_backup(command.backup);
    case Command::Kind::done:
      break;
  }
  return command.exit_code;
}

}  // namespace petstore::bootstrap

int main(int argc, char** argv) { return petstore::bootstrap::run(argc, argv); }
