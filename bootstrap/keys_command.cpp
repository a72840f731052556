#include <chrono>
#include <iomanip>
#include <iostream>
#include <string_view>

#include "adapters/auth/key_digest.hpp"
#include "adapters/auth/key_file_admin.hpp"
#include "adapters/cli/data_tools.hpp"
#include "bootstrap/commands.hpp"

namespace petstore::bootstrap {
namespace {

using adapters::cli::report;

void print_warnings(const std::vector<std::string>& warnings) {
  for (const auto& warning : warnings) {
    report("warning: " + warning);
  }
}

std::string_view or_dash(std::string_view text) { return text.empty() ? "-" : text; }

}  // namespace

int run_keys_new(const KeysOptions& options) {
  const auto created = adapters::auth::create_api_key(
      options.api_keys, options.label,
      options.read_only ? ports::KeyAccess::read_only : ports::KeyAccess::read_write,
      std::chrono::system_clock::now());
  if (!created) {
    report(created.error().message);
    return created.error().field == "label" ? 2 : 1;
  }
  print_warnings(created->warnings);
  // The key is shown this once; only its digest is kept.
  std::cout << created->key << std::endl;
  return 0;
}

int run_keys_list(const KeysOptions& options) {
  const auto listed = adapters::auth::list_api_keys(options.api_keys);
  if (!listed) {
    report(listed.error().message);
    return 1;
  }
  print_warnings(listed->warnings);
  // The label last: a hand-written one may hold spaces.
  std::cout << std::left << std::setw(18) << "PRINCIPAL" << std::setw(12) << "ACCESS"
            << std::setw(22) << "CREATED"
            << "LABEL\n";
  for (const auto& key : listed->keys) {
    std::cout << std::setw(18) << adapters::auth::principal_id(key.digest) << std::setw(12)
              << (key.access == ports::KeyAccess::read_only ? "read-only" : "read-write")
              << std::setw(22) << or_dash(key.created) << or_dash(key.label) << '\n';
  }
  std::cout << std::flush;
  return 0;
}

int run_keys_revoke(const KeysOptions& options) {
  const auto revoked = adapters::auth::revoke_api_key(options.api_keys, options.which);
  if (!revoked) {
    report(revoked.error().message);
    return 1;
  }
  print_warnings(revoked->warnings);
  std::cout << "revoked " << adapters::auth::principal_id(revoked->key.digest);
  if (!revoked->key.label.empty()) {
    std::cout << " (" << revoked->key.label << ")";
  }
  std::cout << "; a serving petstore stops accepting it at its next reload (SIGHUP, or: "
               "systemctl reload petstore)"
            << std::endl;
  return 0;
}

}  // namespace petstore::bootstrap
