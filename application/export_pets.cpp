#include "application/export_pets.hpp"

#include <optional>

namespace petstore::application {

domain::Result<ExportReport> ExportPets::operator()(const ports::PetArchive::PetSink& sink) const {
  std::optional<domain::PetId> last;
  bool out_of_order = false;
  auto read = archive_.read_all([&](const domain::Pet& pet) {
    if (last && pet.id.value <= last->value) {
      out_of_order = true;
      return false;
    }
    last = pet.id;
    return sink(pet);
  });
  if (!read) {
    return read.error();
  }
  if (out_of_order) {
    return domain::make_error(domain::ErrorCode::internal, "",
                              "the store handed out pets out of id order");
  }
  return *read;
}

}  // namespace petstore::application
