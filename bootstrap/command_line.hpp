#pragma once
// The command line of contract section 7, read with CLI11: `serve`, `keys new|list|revoke`, the
// data tools `export`, `import` and `backup`, `--help` and `--version`. Every flag of `serve` also
// reads an environment variable of the same meaning.

#include "bootstrap/data_options.hpp"
#include "bootstrap/serve_options.hpp"

namespace petstore::bootstrap {

struct Command {
  enum class Kind {
    done,  // help or version was printed, or usage was wrong: exit with `exit_code`
    serve,
    keys_new,
    keys_list,
    keys_revoke,
    export_pets,
    import_pets,
    backup,
  };
  Kind kind = Kind::done;
  int exit_code = 0;
  ServeOptions serve;
  KeysOptions keys;
  ExportOptions export_pets;
  ImportOptions import_pets;
  BackupOptions backup;
};

// parse_command_line: the command `argv` asks for. Prints help and version itself; on bad usage
// prints one line on stderr and returns Kind::done with exit code 2.
[[nodiscard]] Command parse_command_line(int argc, const char* const* argv);

}  // namespace petstore::bootstrap
