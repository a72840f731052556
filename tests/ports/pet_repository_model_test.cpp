// A model-based contract case: random sequences of creates (some with idempotency keys), gets,
// lists and reopens run against the adapter and against a std::map, and every answer must agree.
// Ids are predicted exactly: a fresh repository assigns 1, 2, 3... with nothing in between.

#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using domain::PetStatus;

struct Model {
  std::map<std::int64_t, domain::Pet> pets;
  std::map<std::pair<std::string, std::string>, std::int64_t> keys;  // (scope, key) -> pet id
  std::int64_t last_id = 0;
};

using ModelCommand = rc::state::Command<Model, RepositoryHarness>;

// uniform: a value in [min, max) drawn evenly whatever rapidcheck's current size (inRange alone
// stays near `min` while the size is small, and the sizes here stay small to keep runs short).
template <class T>
T uniform(T min, T max) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}

// pick_id: mostly an id the model holds, else one it cannot hold.
std::int64_t pick_id(const Model& model) {
  const int kind = uniform(0, 5);
  if (kind < 3 && model.last_id > 0) {
    return uniform<std::int64_t>(1, model.last_id + 1);
  }
  if (kind == 4) {
    return *rc::gen::arbitrary<std::int64_t>();
  }
  return *rc::gen::element<std::int64_t>(0, -1, model.last_id + 1,
                                         std::numeric_limits<std::int64_t>::min(),
                                         std::numeric_limits<std::int64_t>::max());
}

bool same_pet(const domain::Pet& pet, const domain::NewPet& sent) {
  return domain::with_id(pet.id, sent) == pet;
}

struct Create final : ModelCommand {
  // A few names and categories, so that keyed repeats often send the same pet again.
  std::string name = *rc::gen::element<std::string>("Rex", "Fido", "\u00D1and\u00FA", "\u732B",
                                                    "\U0001F415 Bruno", " Rex ");
  std::int64_t category =
      uniform(0, 5) == 0 ? *rc::gen::arbitrary<std::int64_t>() : uniform<std::int64_t>(0, 2);
  PetStatus status = *rc::gen::elementOf(domain::all_pet_statuses);
  std::optional<ports::IdempotencyKey> key;

  Create() {
    const int pick = uniform(0, 12);
    if (pick < 6) {
      key = ports::IdempotencyKey{pick % 2 == 0 ? "alice" : "bob", "k" + std::to_string(pick / 2)};
    }
  }

  [[nodiscard]] domain::NewPet pet() const { return new_pet(name, category, status); }

  // earlier: the pet an unexpired keyed create made before, if any (all stamps are equal).
  [[nodiscard]] const domain::Pet* earlier(const Model& model) const {
    if (!key) {
      return nullptr;
    }
    const auto found = model.keys.find({key->scope, key->key});
    return found == model.keys.end() ? nullptr : &model.pets.at(found->second);
  }

  void apply(Model& model) const override {
    if (earlier(model) != nullptr) {
      return;  // a repeat or a conflict: nothing is created
    }
    const domain::PetId id{model.last_id + 1};
    model.pets.emplace(id.value, domain::with_id(id, pet()));
    model.last_id = id.value;
    if (key) {
      model.keys.emplace(std::pair{key->scope, key->key}, id.value);
    }
  }

  void run(const Model& model, RepositoryHarness& sut) const override {
    const auto result = create_pet(sut.repository(), pet(), key);
    const domain::Pet* then = earlier(model);
    if (then != nullptr && !same_pet(*then, pet())) {
      RC_ASSERT(!result.has_value());
      RC_ASSERT(result.error().code == domain::ErrorCode::conflict);
      return;
    }
    RC_ASSERT(result.has_value());
    const auto expected =
        then != nullptr ? *then : domain::with_id(domain::PetId{model.last_id + 1}, pet());
    RC_ASSERT(*result == expected);
  }

  void show(std::ostream& os) const override {
    os << "create " << pet();
    if (key) {
      os << " with key " << key->scope << "/" << key->key;
    }
  }
};

struct Get final : ModelCommand {
  std::int64_t id;

  explicit Get(const Model& model) : id(pick_id(model)) {}

  void run(const Model& model, RepositoryHarness& sut) const override {
    const auto result = get_now(sut.repository(), domain::PetId{id});
    const auto expected = model.pets.find(id);
    if (expected == model.pets.end()) {
      RC_ASSERT(!result.has_value());
      RC_ASSERT(result.error().code == domain::ErrorCode::not_found);
    } else {
      RC_ASSERT(result.has_value());
      RC_ASSERT(*result == expected->second);
    }
  }

  void show(std::ostream& os) const override { os << "get " << id; }
};

struct List final : ModelCommand {
  std::optional<PetStatus> status;
  std::optional<std::int64_t> after;
  std::int64_t limit =
      uniform(0, 7) == 0 ? uniform<std::int64_t>(1, 101) : uniform<std::int64_t>(1, 6);

  explicit List(const Model& model) {
    const auto filter = uniform<std::size_t>(0, 4);
    if (filter < domain::all_pet_statuses.size()) {
      status = domain::all_pet_statuses[filter];
    }
    if (uniform(0, 3) != 0) {
      after = pick_id(model);
    }
  }

  void run(const Model& model, RepositoryHarness& sut) const override {
    std::vector<domain::Pet> expected;
    bool more = false;
    auto it = after ? model.pets.upper_bound(*after) : model.pets.begin();
    for (; it != model.pets.end(); ++it) {
      if (status && it->second.status != *status) {
        continue;
      }
      if (std::ssize(expected) == limit) {
        more = true;
        break;
      }
      expected.push_back(it->second);
    }
    const auto page = list_now(
        sut.repository(),
        ports::PetQuery{status, after ? std::optional{domain::PetId{*after}} : std::nullopt,
                        page_size(limit)});
    RC_ASSERT(page.has_value());
    RC_ASSERT(page->pets == expected);
    RC_ASSERT(page->has_more == more);
  }

  void show(std::ostream& os) const override {
    os << "list limit " << limit;
    if (status) {
      os << " status " << *status;
    }
    if (after) {
      os << " after " << *after;
    }
  }
};

struct Reopen final : ModelCommand {
  void run(const Model& model, RepositoryHarness& sut) const override {
    if (!sut.reopen()) {
      return;
    }
    std::vector<domain::Pet> expected;
    for (const auto& [id, pet] : model.pets) {
      expected.push_back(pet);
    }
    RC_ASSERT(list_all(sut.repository(), std::nullopt, 100) == expected);
  }

  void show(std::ostream& os) const override { os << "reopen"; }
};

// Bounded so that a disk-backed adapter under ASan finishes in seconds; RC_PARAMS overrides.
rc::detail::TestParams model_test_params() {
  auto params = rc::detail::configuration().testParams;
  if (std::getenv("RC_PARAMS") == nullptr) {
    params.maxSuccess = 50;
    params.maxSize = 40;
  }
  return params;
}

TEST_P(PetRepositoryContract, AgreesWithAMapUnderRandomCommands) {
  const auto& make = GetParam().make;
  const rc::detail::TestMetadata metadata{"PetRepositoryContract/model/" + GetParam().name,
                                          "agrees with a std::map model"};
  const auto result = rc::detail::checkTestable(
      [&make] {
        const auto harness = make();
        rc::state::check(Model{}, *harness,
                         rc::state::gen::execOneOfWithArgs<Create, Create, Get, List, Reopen>());
      },
      metadata, model_test_params());
  if (!result.is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    FAIL() << message.str();
  }
}

}  // namespace
}  // namespace petstore::tests
