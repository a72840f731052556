#pragma once
// UseCases: every use case, built once by bootstrap and handed to the driving adapter as one value.

#include "application/authenticate.hpp"
#include "application/create_pet.hpp"
#include "application/get_pet.hpp"
#include "application/list_orders.hpp"
#include "application/list_pets.hpp"

namespace petstore::application {

struct UseCases {
  Authenticate authenticate;
  ListPets list_pets;
  CreatePet create_pet;
  GetPet get_pet;
  ListOrders list_orders;
};

}  // namespace petstore::application
