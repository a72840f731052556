#pragma once
// The terminal side of the data tools (contract section 7): `petstore export` and `import` over
// the PetArchive bootstrap opened, in JSON Lines. The operator is told on stderr: problems, one
// summary line, a progress bar for large inputs. Each returns the exit code.

#include <filesystem>
#include <optional>
#include <string_view>

#include "ports/pet_archive.hpp"

namespace petstore::adapters::cli {

// report: one line `petstore: LINE` on stderr, a problem or a summary (stdout may carry data).
void report(std::string_view line);

// export_pets: every pet of `archive` as JSON Lines to `out` (standard output when absent or "-";
// a file appears only complete). Returns 0 after a summary naming `store`, or 1 after why not.
[[nodiscard]] int export_pets(const ports::PetArchive& archive,
                              const std::optional<std::filesystem::path>& out,
                              std::string_view store);

// import_pets: stores every pet of the JSON Lines in `in` (standard input when absent or "-"), or
// none. Returns 0 after a summary, or 1 after the bad lines (at most 10) or the reason.
[[nodiscard]] int import_pets(ports::PetArchive& archive,
                              const std::optional<std::filesystem::path>& in,
                              std::string_view store);

}  // namespace petstore::adapters::cli
