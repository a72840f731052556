#pragma once
// ExportPets (`petstore export`): every pet of a store, in ascending id from one snapshot, handed
// to a sink (the format is the driving adapter's). Pets out of id order (or one id twice) fail the
// export with internal, so a broken backend never writes a file that an import would refuse.

#include "ports/pet_archive.hpp"

namespace petstore::application {

// ExportReport: the archive's read report, once the order is checked.
using ExportReport = ports::ArchiveReadReport;

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
