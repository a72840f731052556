// The logging decorator on its own: a pet newly stored is reported once (a replay is not), and
// ordinary outcomes write no line. Fault lines through the Router: tests/faults.

#include "adapters/logging/logging_pet_repository.hpp"

#include <sstream>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/awaited_repository.hpp"

namespace petstore::tests {
namespace {

using adapters::logging::LogFormat;
using adapters::logging::Logger;
using adapters::logging::LogLevel;

ports::CreatePetCommand create_once(std::string_view name, std::string key) {
  return {domain::NewPet{domain::PetName::parse(name).value(), domain::CategoryId{1}},
          ports::IdempotencyKey{"scope", std::move(key)}, std::chrono::system_clock::time_point{},
          std::chrono::hours(24)};
}

TEST(LoggingPetRepository, CountsEachPetNewlyStoredAndLogsNoOrdinaryOutcome) {
  std::ostringstream log;
  const auto logger = Logger::to_stream(log, LogFormat::json, LogLevel::debug);
  int stored = 0;
  const auto pets = adapters::logging::make_logging_pet_repository(
      adapters::storage::memory::make_memory_pet_repository(), logger.get(),
      [&stored] { ++stored; });

  ASSERT_TRUE(create_now(*pets, create_once("Rex", "k1")));
  const auto replay = create_now(*pets, create_once("Rex", "k1"));
  ASSERT_TRUE(replay);
  EXPECT_FALSE(replay->created);
  ASSERT_TRUE(create_now(*pets, create_once("Fido", "k2")));
  EXPECT_FALSE(get_now(*pets, domain::PetId{99}));  // not found is ordinary

  EXPECT_EQ(stored, 2);
  EXPECT_EQ(log.str(), "");
}

}  // namespace
}  // namespace petstore::tests
