#pragma once
// add_storage_flag: `--storage WORD` on a CLI11 command, bound to a StorageKind: the words of
// `allowed` only (refused otherwise, naming the flag), its current value as the default shown.

#include <initializer_list>
#include <string>

#include "bootstrap/cli11_forward.hpp"
#include "bootstrap/storage_kind.hpp"

namespace petstore::bootstrap {

CLI::Option* add_storage_flag(CLI::App& command, StorageKind& kind,
                              std::initializer_list<StorageKind> allowed, const std::string& help);

}  // namespace petstore::bootstrap
