#pragma once
// ExportPets (`petstore export`): every pet of a store, in ascending id from one consistent
// snapshot, handed to a sink that writes them out (the format is the driving adapter's). The
// core guards the order: an archive that hands a pet out of id order (or one id twice) fails the
// export with internal, so a broken backend never writes a file that an import would refuse.

#include <cstddef>

#include "ports/pet_archive.hpp"

namespace petstore::application {

struct ExportReport {
  std::size_t pets = 0;  // pets the sink accepted
  bool complete = true;  // false when the sink stopped the export
};

class ExportPets {
 public:
  explicit ExportPets(const ports::PetArchive& archive) : archive_(archive) {}

  // Errors: the archive's (unavailable, internal), and internal for pets out of id order.
  [[nodiscard]] domain::Result<ExportReport> operator()(
      const ports::PetArchive::PetSink& sink) const;

 private:
  const ports::PetArchive& archive_;
};

}  // namespace petstore::application
