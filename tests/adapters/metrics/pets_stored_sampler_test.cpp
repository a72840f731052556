// PetsStoredSampler: the stored-pets gauge follows storage's own count. A count answered at once
// (memory, LMDB) is current at every sample; one answered later (PostgreSQL) is never doubled
// while in flight, and neither a late answer nor a failure is followed by another count within
// the minimum interval.

#include "adapters/metrics/pets_stored_sampler.hpp"

#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using adapters::metrics::Metrics;
using adapters::metrics::PetsStoredSampler;
using namespace std::chrono_literals;

constexpr std::array<std::string_view, 1> operations{"listPets"};

// gauge: the value of petstore_pets_stored in the exposition; nullopt while it is not shown.
std::optional<std::string> gauge(const Metrics& metrics) {
  const std::string text = metrics.exposition();
  const std::string name = "\npetstore_pets_stored ";
  const auto at = text.find(name);
  if (at == std::string::npos) {
    return std::nullopt;
  }
  const auto from = at + name.size();
  return text.substr(from, text.find('\n', from) - from);
}

ports::CreatePetCommand new_pet(std::string_view name) {
  return {domain::NewPet{domain::PetName::parse(name).value(), domain::CategoryId{1}}, std::nullopt,
          std::chrono::system_clock::time_point{}, 24h};
}

// LateCounts: a repository whose counts wait until the test answers them, as PostgreSQL's do;
// `fail` answers the next ones unavailable at once instead. Nothing else is called.
class LateCounts final : public ports::PetRepository {
 public:
  void create(ports::CreatePetCommand /*command*/, CreateDone /*done*/) override { FAIL(); }
  void get(domain::PetId /*id*/, GetDone /*done*/) const override { FAIL(); }
  void list(ports::PetQuery /*query*/, ListDone /*done*/) const override { FAIL(); }
  void count(CountDone done) const override {
    ++started;
    if (fail) {
      done(domain::make_error(domain::ErrorCode::unavailable, "", "no connection"));
      return;
    }
    waiting.push_back(std::move(done));
  }
  void answer(std::int64_t count) {
    auto done = std::move(waiting.at(0));
    waiting.erase(waiting.begin());
    done(count);
  }

  bool fail = false;
  mutable int started = 0;
  mutable std::vector<CountDone> waiting;
};

TEST(PetsStoredSampler, ShowsStoragesCountAtOnceWhenStorageAnswersAtOnce) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  const auto pets = adapters::storage::memory::make_memory_pet_repository();
  ASSERT_TRUE(create_now(*pets, new_pet("Rex")));
  PetsStoredSampler sampler(*pets, metrics);
  EXPECT_EQ(gauge(metrics), "1");  // sampled when made
  ASSERT_TRUE(create_now(*pets, new_pet("Tom")));
  ASSERT_TRUE(create_now(*pets, new_pet("Ada")));
  sampler.sample();
  EXPECT_EQ(gauge(metrics), "3");
  ASSERT_TRUE(create_now(*pets, new_pet("Bo")));
  sampler.sample();  // no interval between counts that answer at once
  EXPECT_EQ(gauge(metrics), "4");
}

TEST(PetsStoredSampler, KeepsOneLateCountInFlightAndWaitsTheIntervalAfterIt) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  LateCounts pets;
  PetsStoredSampler sampler(pets, metrics, 1h);
  EXPECT_EQ(pets.started, 1);
  EXPECT_EQ(gauge(metrics), std::nullopt);  // unknown until storage answers
  sampler.sample();
  EXPECT_EQ(pets.started, 1);  // one in flight: no second
  pets.answer(7);
  EXPECT_EQ(gauge(metrics), "7");
  sampler.sample();
  EXPECT_EQ(pets.started, 1);  // answered late, less than an hour ago
}

TEST(PetsStoredSampler, CountsAgainAfterALateAnswerOnceTheIntervalHasPassed) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  LateCounts pets;
  PetsStoredSampler sampler(pets, metrics, 0s);
  pets.answer(7);
  sampler.sample();
  EXPECT_EQ(pets.started, 2);
  pets.answer(9);
  EXPECT_EQ(gauge(metrics), "9");
}

TEST(PetsStoredSampler, AFailedCountLeavesTheGaugeAndWaitsTheInterval) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  LateCounts pets;
  PetsStoredSampler sampler(pets, metrics, 1h);
  pets.answer(7);
  pets.fail = true;
  PetsStoredSampler failing(pets, metrics, 1h);  // fails at once
  EXPECT_EQ(pets.started, 2);
  EXPECT_EQ(gauge(metrics), "7");
  failing.sample();
  EXPECT_EQ(pets.started, 2);  // a failure is not retried within the interval
}

TEST(PetsStoredSampler, AFailedCountIsToldToItsHandlerAndAnAnsweredOneIsNot) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  LateCounts pets;
  std::vector<std::string> failures;
  const auto record = [&failures](const domain::Error& error) {
    failures.push_back(error.message);
  };
  PetsStoredSampler answered(pets, metrics, 0s, record);
  pets.answer(3);
  EXPECT_TRUE(failures.empty());
  pets.fail = true;
  const PetsStoredSampler failing(pets, metrics, 1h, record);
  EXPECT_EQ(failures, std::vector<std::string>{"no connection"});
  EXPECT_EQ(gauge(metrics), "3");
}

TEST(PetsStoredSampler, ACountAnsweredAfterTheSamplerIsGoneIsHarmless) {
  Metrics metrics({"1.0.0", "abc"}, operations);
  LateCounts pets;
  { const PetsStoredSampler sampler(pets, metrics); }
  pets.answer(5);  // the sampler's state outlives it for the count in flight
  EXPECT_EQ(gauge(metrics), "5");
}

}  // namespace
}  // namespace petstore::tests
