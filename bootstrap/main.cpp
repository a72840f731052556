#include "bootstrap/command_line.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {

int run(int argc, const char* const* argv) {
  const Command command = parse_command_line(argc, argv);
  switch (command.kind) {
    case Command::Kind::serve:
      return run_serve(command.serve);
    case Command::Kind::keys_new:
      return run_keys_new(command.keys_new);
    case Command::Kind::done:
      break;
  }
  return command.exit_code;
}

}  // namespace petstore::bootstrap

int main(int argc, char** argv) { return petstore::bootstrap::run(argc, argv); }
