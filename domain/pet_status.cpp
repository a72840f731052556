#include "domain/pet_status.hpp"

#include <string>

namespace petstore::domain {

std::string_view to_string(PetStatus status) noexcept {
  switch (status) {
    case PetStatus::available:
      return "available";
    case PetStatus::pending:
      return "pending";
    case PetStatus::sold:
      return "sold";
  }
  return "available";  // unreachable: the enumeration is closed
}

Result<PetStatus> parse_pet_status(std::string_view text, std::string_view field) {
  for (const PetStatus status : all_pet_statuses) {
    if (text == to_string(status)) {
      return status;
    }
  }
  return invalid_argument(std::string(field),
                          std::string(field) + " must be one of available, pending, sold");
}

}  // namespace petstore::domain
