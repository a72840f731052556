#include "bootstrap/command_line.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "bootstrap/config_file.hpp"
#include "bootstrap/data_command_line.hpp"
#include "bootstrap/serve_command_line.hpp"

namespace petstore::bootstrap {

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
  CLI::App* keys = app.add_subcommand("keys", "Manage API keys");
  keys->require_subcommand(0, 1);
  CLI::App* keys_new =
      keys->add_subcommand("new", "Make an API key, print it once, store its digest");
  keys_new->add_option("--api-keys", command.keys_new.api_keys, "Key file to append to")
      ->envname("PETSTORE_API_KEYS")
      ->required();
  keys_new->add_option("--label", command.keys_new.label, "A name for the key (visible ASCII)");
  const DataCommands data =
      add_data_commands(app, command.export_pets, command.import_pets, command.backup);
  if (const auto config_error = apply_config_file(*serve, argc, argv)) {
    std::cerr << "petstore: " << *config_error << '\n';
    command.exit_code = 2;
    return command;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    command.exit_code = app.exit(help);
    return command;
  } catch (const CLI::CallForAllHelp& help) {
    command.exit_code = app.exit(help);
    return command;
  } catch (const CLI::CallForVersion& version) {
    command.exit_code = app.exit(version);
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
  } else if (keys_new->parsed()) {
    command.kind = Command::Kind::keys_new;
  } else if (data.export_pets->parsed()) {
    command.kind = Command::Kind::export_pets;
  } else if (data.import_pets->parsed()) {
    command.kind = Command::Kind::import_pets;
  } else if (data.backup->parsed()) {
    command.kind = Command::Kind::backup;
  } else {
    std::cerr << "petstore: "
              << (keys->parsed()
                      ? "keys needs a subcommand: new"
                      : "a subcommand is required: serve, keys, export, import or backup")
              << " (see petstore --help)\n";
    command.exit_code = 2;
  }
  return command;
}

}  // namespace petstore::bootstrap
