#pragma once
// PetArchive: the port through which the data tools (contract section 7: export and import) read
// and write a whole store at once, every pet under its own id. What an import may contain is the
// core's rule (application/import_pets.hpp), not the adapter's.
//
// Thread-safety: calls are synchronous (the data tools have nothing else to serve) and must not
// overlap on one archive. Other processes, such as a running service, may use the same store.
// Errors every member may return: unavailable (the store cannot be opened or used; the message
// names the store, e.g. its data dir, for the operator) and internal (a stored record fails
// re-validation). Callbacks run on the caller's thread, must not throw and must not call into the
// store. One contract suite in tests/ports holds every adapter to this text.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>

#include "domain/error.hpp"
#include "domain/pet.hpp"

namespace petstore::ports {

struct ArchiveReadReport {
  std::size_t pets = 0;  // pets the sink accepted
  bool complete = true;  // false when the sink stopped the read
};

struct ArchiveWriteReport {
  // conflict: the index in the written pets of one whose id the store already holds; when set,
  // nothing was written.
  std::optional<std::size_t> conflict;
  // next_id: once written, the id the store's next create gets (2^63: no id is left).
  std::uint64_t next_id = 0;
};

class PetArchive {
 public:
  // PetSink: receives each pet; returns false to stop the read.
  using PetSink = std::function<bool(const domain::Pet&)>;
  // Progress: how many pets are written so far.
  using Progress = std::function<void(std::size_t written)>;

  PetArchive() = default;
  PetArchive(const PetArchive&) = delete;
  PetArchive& operator=(const PetArchive&) = delete;
  virtual ~PetArchive() = default;

  // read_all: hands every stored pet to `sink` in ascending id, all from one consistent snapshot
  // (a create that commits meanwhile is wholly in it or wholly out), until `sink` returns false.
  // Never creates a store: where none exists it fails with unavailable, so that a mistyped
  // location is reported instead of read as an empty store.
  [[nodiscard]] virtual domain::Result<ArchiveReadReport> read_all(const PetSink& sink) const = 0;

  // write_all: stores every pet of `pets` under its own id in one atomic step, and raises the
  // store's next id to at least the highest written id + 1, so that later creates go above the
  // import; a service on the same store sees all of it or none. Never overwrites: when a pet's id
  // is already stored, the report names that pet (`conflict`) and nothing is written. Creates
  // the store where none exists yet. `progress`, when set, is told the count now and then and
  // at the end; it may start again from 0 (an adapter that retries its transaction).
  // REQUIRES: every id is at least 1 and no id appears twice in `pets` (the core checks both).
  // On an error nothing is written.
  [[nodiscard]] virtual domain::Result<ArchiveWriteReport> write_all(
      std::span<const domain::Pet> pets, const Progress& progress) = 0;
};

}  // namespace petstore::ports
