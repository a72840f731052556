// The data tools' use cases as properties, over the LMDB archive (a fresh store in a temporary
// directory per run): whatever distinct ids it is given, an import exports back as it went in, in
// id order; and any import that breaks a rule (an id below 1, an id twice, an id already stored)
// fails whole, names a pet that broke it, and leaves the store and its next id exactly as they
// were.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "adapters/storage/lmdb/lmdb_pet_archive.hpp"
#include "application/export_pets.hpp"
#include "application/import_pets.hpp"
#include "support/awaited_repository.hpp"
#include "support/temp_dir.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using Pets = std::vector<domain::Pet>;

// arbitrary_pet: ids from a narrow range around 1, so that repeats, clashes and ids below 1 come
// up often.
rc::Gen<domain::Pet> arbitrary_pet(std::int64_t lowest_id) {
  return rc::gen::apply(
      [](std::int64_t id, int name, std::int64_t category, int status) {
        return domain::Pet{domain::PetId{id},
                           domain::PetName::parse("pet " + std::to_string(name)).value(),
                           domain::CategoryId{category},
                           domain::all_pet_statuses[static_cast<std::size_t>(status)]};
      },
      rc::gen::inRange<std::int64_t>(lowest_id, 40), rc::gen::inRange(0, 5),
      rc::gen::arbitrary<std::int64_t>(), rc::gen::inRange(0, 3));
}

// distinct_pets: pets with ids from 1 up, none twice, in no particular order.
rc::Gen<Pets> distinct_pets() {
  return rc::gen::map(rc::gen::container<Pets>(arbitrary_pet(1)), [](Pets pets) {
    std::set<std::int64_t> seen;
    std::erase_if(pets, [&](const domain::Pet& pet) { return !seen.insert(pet.id.value).second; });
    return pets;
  });
}

Pets exported(const ports::PetArchive& archive) {
  Pets pets;
  const auto report = application::ExportPets(archive)([&](const domain::Pet& pet) {
    pets.push_back(pet);
    return true;
  });
  RC_ASSERT(report.has_value());
  RC_ASSERT(report->complete);
  RC_ASSERT(report->pets == pets.size());
  return pets;
}

// LmdbStore: an LMDB store of its own. The archive opens the store per call; the repository
// opened after it must be closed before the archive's next call (LMDB forbids a second handle on
// an environment in one process).
struct LmdbStore {
  LmdbStore() {
    options.data_dir = dir.path();
    archive = adapters::storage::lmdb::make_lmdb_pet_archive(options);
  }

  // repository: the store as a service opens it.
  [[nodiscard]] std::unique_ptr<ports::PetRepository> repository() const {
    auto opened = adapters::storage::lmdb::make_lmdb_pet_repository(options);
    RC_ASSERT(opened.has_value());
    return std::move(*opened);
  }

  TempDir dir;
  adapters::storage::lmdb::LmdbOptions options;
  std::unique_ptr<ports::PetArchive> archive;
};

Pets by_id(Pets pets) {
  std::sort(pets.begin(), pets.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return pets;
}

// breaks_a_rule: whether `pets[index]` is a pet an import of `pets` into a store holding `stored`
// may be refused for.
bool breaks_a_rule(const Pets& pets, std::size_t index, const Pets& stored) {
  const auto id = pets[index].id;
  const auto same_id = [&](const domain::Pet& pet) { return pet.id == id; };
  return id < domain::first_pet_id ||
         std::any_of(pets.begin(), pets.begin() + static_cast<std::ptrdiff_t>(index), same_id) ||
         std::any_of(stored.begin(), stored.end(), same_id);
}

RC_GTEST_PROP(ImportExport, AnImportExportsBackInIdOrder, ()) {
  const LmdbStore store;
  const Pets pets = *distinct_pets();
  const auto report = application::ImportPets(*store.archive)(pets);
  RC_ASSERT(report.has_value());
  RC_ASSERT(report->pets == pets.size());
  std::int64_t highest = 0;
  for (const auto& pet : pets) {
    highest = std::max(highest, pet.id.value);
  }
  RC_ASSERT(report->next_id == static_cast<std::uint64_t>(highest) + 1);
  RC_ASSERT(exported(*store.archive) == by_id(pets));
}

RC_GTEST_PROP(ImportExport, AnImportThatBreaksARuleStoresNothingAndNamesTheOffendingPet, ()) {
  const LmdbStore store;
  const Pets before = *distinct_pets();
  RC_ASSERT(application::ImportPets(*store.archive)(before).has_value());
  const Pets batch = *rc::gen::container<Pets>(arbitrary_pet(-2));

  std::optional<std::size_t> refused;
  application::ImportCallbacks callbacks;
  callbacks.refused = [&](std::size_t index) { refused = index; };
  const auto report = application::ImportPets(*store.archive)(batch, callbacks);

  bool any_broken = false;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    any_broken = any_broken || breaks_a_rule(batch, i, before);
  }
  RC_TAG(any_broken ? "refused" : "imported");
  if (!any_broken) {
    RC_ASSERT(report.has_value());
    Pets all = before;
    all.insert(all.end(), batch.begin(), batch.end());
    RC_ASSERT(exported(*store.archive) == by_id(all));
    return;
  }
  RC_ASSERT(!report.has_value());
  RC_ASSERT(report.error().code == ErrorCode::invalid_argument ||
            report.error().code == ErrorCode::conflict);
  RC_ASSERT(report.error().field == "id");
  RC_ASSERT(refused.has_value());
  RC_ASSERT(*refused < batch.size());
  RC_ASSERT(breaks_a_rule(batch, *refused, before));
  RC_ASSERT(exported(*store.archive) == by_id(before));
  std::int64_t highest = 0;
  for (const auto& pet : before) {
    highest = std::max(highest, pet.id.value);
  }
  const domain::NewPet next{domain::PetName::parse("next").value(), domain::CategoryId{1},
                            domain::PetStatus::available};
  // Opened only now, after the archive's last call, and closed at the end of the run.
  const auto repository = store.repository();
  const auto created = create_now(*repository, ports::CreatePetCommand{next, std::nullopt, {}, {}});
  RC_ASSERT(created.has_value());
  RC_ASSERT(created->pet.id.value == highest + 1);
}

}  // namespace
}  // namespace petstore::tests
