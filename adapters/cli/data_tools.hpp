#pragma once
// The terminal side of the data tools (contract section 7): `petstore export` and `import` run
// the use cases of application/ over whichever PetArchive bootstrap opened, in JSON Lines
// (adapters/jsonl), and talk to the operator on stderr: `petstore: ...` lines for problems, one
// summary line on success, a progress bar for large inputs. Each returns the exit code.

#include <filesystem>
#include <optional>
#include <string_view>

#include "ports/pet_archive.hpp"

namespace petstore::adapters::cli {

// report: one line `petstore: LINE` on stderr, a problem or a summary (stdout may carry data).
void report(std::string_view line);

// export_pets: every pet of `archive` as JSON Lines, in ascending id from one snapshot, to `out`
// (standard output when absent or "-"; a file appears only complete). Returns 0, then a summary
// naming `store`; or 1 after one line saying why.
[[nodiscard]] int export_pets(const ports::PetArchive& archive,
                              const std::optional<std::filesystem::path>& out,
                              std::string_view store);

// import_pets: reads JSON Lines from `in` (standard input when absent or "-"), checks every line,
// then stores all the pets (keeping their ids) or none. Returns 0, then a summary naming `store`
// and its next id; or 1 after the bad lines (at most 10, by number) or the reason.
[[nodiscard]] int import_pets(ports::PetArchive& archive,
                              const std::optional<std::filesystem::path>& in,
                              std::string_view store);

}  // namespace petstore::adapters::cli
