#include "bootstrap/command_line.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "bootstrap/config_file.hpp"
#include "bootstrap/data_command_line.hpp"
#include "bootstrap/serve_command_line.hpp"

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
