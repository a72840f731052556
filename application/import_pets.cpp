#include "application/import_pets.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace petstore::application {
namespace {

std::optional<std::size_t> first_id_below_one(std::span<const domain::Pet> pets) {
  const auto found = std::find_if(pets.begin(), pets.end(), [](const domain::Pet& pet) {
    return pet.id.value < domain::first_pet_id.value;
  });
  return found == pets.end() ? std::nullopt : std::optional(found - pets.begin());
}

// first_repeat: the lowest index whose id an earlier pet has. An export's pets come in ascending
// id, which needs no sort.
std::optional<std::size_t> first_repeat(std::span<const domain::Pet> pets) {
  const auto ascending = [](const domain::Pet& a, const domain::Pet& b) {
    return a.id.value < b.id.value;
  };
  if (std::is_sorted(pets.begin(), pets.end(), ascending) &&
      std::adjacent_find(pets.begin(), pets.end(), [](const auto& a, const auto& b) {
        return a.id.value == b.id.value;
      }) == pets.end()) {
    return std::nullopt;
  }
  std::vector<std::pair<std::int64_t, std::size_t>> ids;  // (id, index)
  ids.reserve(pets.size());
  for (std::size_t i = 0; i < pets.size(); ++i) {
    ids.emplace_back(pets[i].id.value, i);
  }
  std::sort(ids.begin(), ids.end());
  std::optional<std::size_t> first;
  for (std::size_t i = 1; i < ids.size(); ++i) {
    if (ids[i].first == ids[i - 1].first) {
      first = std::min(first.value_or(ids[i].second), ids[i].second);
    }
  }
  return first;
}

domain::Error refuse(const ImportCallbacks& callbacks, std::size_t index, domain::Error error) {
  if (callbacks.refused) {
    callbacks.refused(index);
  }
  return error;
}

}  // namespace

domain::Result<ImportReport> ImportPets::operator()(std::span<const domain::Pet> pets,
                                                    const ImportCallbacks& callbacks) const {
  if (const auto low = first_id_below_one(pets)) {
    const std::string id = std::to_string(pets[*low].id.value);
    return refuse(callbacks, *low,
                  domain::invalid_argument("id", "id must be at least 1, not " + id));
  }
  if (const auto repeat = first_repeat(pets)) {
    const std::string id = std::to_string(pets[*repeat].id.value);
    return refuse(callbacks, *repeat,
                  domain::invalid_argument("id", "id " + id + " appears twice"));
  }
  auto written = archive_.write_all(pets, callbacks.progress);
  if (!written) {
    return written.error();
  }
  if (const auto conflict = written->conflict) {
    const std::string id = std::to_string(pets[*conflict].id.value);
    return refuse(callbacks, *conflict,
                  domain::make_error(domain::ErrorCode::conflict, "id",
                                     "id " + id + " is already in the store"));
  }
  return ImportReport{pets.size(), written->next_id};
}

}  // namespace petstore::application
