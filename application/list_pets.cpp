#include "application/list_pets.hpp"

namespace petstore::application {

domain::Result<ports::PetPage> ListPets::operator()(const ports::PetQuery& query) const {
  return pets_.list(query);
}

}  // namespace petstore::application
