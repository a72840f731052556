#include "application/get_pet.hpp"

namespace petstore::application {

domain::Result<domain::Pet> GetPet::operator()(domain::PetId id) const { return pets_.get(id); }

}  // namespace petstore::application
