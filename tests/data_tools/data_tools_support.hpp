#pragma once
// Helpers for the data-tool tests: sample pets that exercise the format (non-ASCII and escaped
// names, int64 extremes, every status), a store's whole content through the tools, and the
// contract-style checks a restored store must pass.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "application/export_pets.hpp"
#include "application/import_pets.hpp"
#include "domain/pet.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::tests {

// pet: a Pet from parts the caller knows to be valid.
[[nodiscard]] domain::Pet pet(std::int64_t id, std::string_view name, std::int64_t category_id,
                              domain::PetStatus status = domain::PetStatus::available);

// sample_pets: `count` pets in ascending id, sparse ids from 1, the last one INT64_MAX when
// `with_max_id`; names cycle through plain, non-ASCII, quoted, escaped and white-space cases.
[[nodiscard]] std::vector<domain::Pet> sample_pets(std::size_t count, bool with_max_id = true);

// sample_pet: the pet at `index` of sample_pets(count, with_max_id), made alone.
[[nodiscard]] domain::Pet sample_pet(std::size_t index, std::size_t count, bool with_max_id = true);

// jsonl: the JSON Lines text of `pets`, in the order given.
[[nodiscard]] std::string jsonl(const std::vector<domain::Pet>& pets);

// export_from: ExportPets over the LMDB archive of the store in `options.data_dir`.
[[nodiscard]] domain::Result<application::ExportReport> export_from(
    const adapters::storage::lmdb::LmdbOptions& options, const ports::PetArchive::PetSink& sink);

// import_into: ImportPets over the LMDB archive of the store in `options.data_dir`.
[[nodiscard]] domain::Result<application::ImportReport> import_into(
    const adapters::storage::lmdb::LmdbOptions& options, std::span<const domain::Pet> pets,
    const application::ImportCallbacks& callbacks = {});

// exported: every pet of the store in `options.data_dir`, through export_from (which must
// succeed, or the test fails).
[[nodiscard]] std::vector<domain::Pet> exported(
    const adapters::storage::lmdb::LmdbOptions& options);

// expect_consistent_store: the checks a store must pass: ids unique and ascending, and the
// status index agreeing with the pets (each status's list is the full list filtered).
// Returns every pet, for further checks.
std::vector<domain::Pet> expect_consistent_store(const ports::PetRepository& repository);

}  // namespace petstore::tests
