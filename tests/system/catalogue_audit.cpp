#include "catalogue_audit.hpp"

namespace petstore::tests::system {
namespace {

bool same_fields(const WirePet& a, const WirePet& b) {
  return a.name == b.name && a.category_id == b.category_id && a.status == b.status;
}

}  // namespace

std::vector<std::string> audit_catalogue(const std::vector<WirePet>& listing,
                                         const PetsByName& sent, const PetsByName& acknowledged) {
  std::vector<std::string> problems;
  PetsByName listed;
  for (std::size_t i = 0; i < listing.size(); ++i) {
    const WirePet& pet = listing[i];
    if (i > 0 && pet.id <= listing[i - 1].id) {
      problems.push_back("ids not strictly increasing: " + describe(listing[i - 1]) + " then " +
                         describe(pet));
    }
    if (!listed.emplace(pet.name, pet).second) {
      problems.push_back("stored twice: " + describe(listed.at(pet.name)) + " and " +
                         describe(pet));
    }
    const auto request = sent.find(pet.name);
    if (request == sent.end()) {
      problems.push_back("listed but never sent: " + describe(pet));
    } else if (!same_fields(pet, request->second)) {
      problems.push_back("listed " + describe(pet) + " but sent " + describe(request->second));
    }
  }
  for (const auto& [name, pet] : acknowledged) {
    const auto request = sent.find(name);
    if (request == sent.end() || !same_fields(pet, request->second)) {
      problems.push_back("acknowledged " + describe(pet) + " differs from what was sent");
    }
    const auto stored = listed.find(name);
    if (stored == listed.end()) {
      problems.push_back("acknowledged but lost: " + describe(pet));
    } else if (stored->second != pet) {
      problems.push_back("acknowledged " + describe(pet) + " but listed " +
                         describe(stored->second));
    }
  }
  return problems;
}

}  // namespace petstore::tests::system
