#pragma once
// ImportPets (`petstore import`): adds pets under their own ids, all or nothing, never over a
// stored pet; later creates go above them. The rules live here, once for every backend. The
// driving adapter words refusals for its reader (a line number, say) from the `refused` index.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "ports/pet_archive.hpp"

namespace petstore::application {

struct ImportReport {
  std::size_t pets = 0;
  std::uint64_t next_id = 0;  // the id the store's next create gets (2^63: none is left)
};

// ImportCallbacks: optional observers of an import, called on the caller's thread.
struct ImportCallbacks {
  // progress: how many pets are written so far; may start again from 0 (see PetArchive).
  std::function<void(std::size_t written)> progress;
  // refused: the index in `pets` of the pet an invalid_argument or conflict is about.
  std::function<void(std::size_t index)> refused;
};

class ImportPets {
 public:
  explicit ImportPets(ports::PetArchive& archive) : archive_(archive) {}

  // Errors, each with nothing stored: invalid_argument (field "id") for an id below 1 or twice in
  // `pets`, found before the store is touched; conflict (field "id") for an id the store holds;
  // the archive's unavailable and internal.
  [[nodiscard]] domain::Result<ImportReport> operator()(
      std::span<const domain::Pet> pets, const ImportCallbacks& callbacks = {}) const;

 private:
  ports::PetArchive& archive_;
};

}  // namespace petstore::application
