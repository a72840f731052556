#pragma once
// audit_catalogue: what a crash must not break, checked on the whole catalogue as listed after a
// restart. The answer is the list of problems found (empty when the store is sound), each one
// line naming the pet, so that a failing test says exactly what was lost or damaged.

#include <string>
#include <unordered_map>
#include <vector>

#include "wire_pets.hpp"

namespace petstore::tests::system {

// By name: names are unique per create, so a name identifies one create.
using PetsByName = std::unordered_map<std::string, WirePet>;

// audit_catalogue: problems with `listing` given every create `sent` (id 0) and every create
// `acknowledged` (as its 201 gave it):
//   - ids are not strictly increasing along the listing;
//   - a name appears twice (a create stored twice);
//   - a listed pet was never sent, or differs from what was sent (a half-written pet);
//   - an acknowledged pet differs from what was sent, is missing, or is listed with another id.
[[nodiscard]] std::vector<std::string> audit_catalogue(const std::vector<WirePet>& listing,
                                                       const PetsByName& sent,
                                                       const PetsByName& acknowledged);

}  // namespace petstore::tests::system
