// The logging decorator on its own: ordinary outcomes (a create, a replay, a pet not found) write
// no line, and what it wraps answers through it unchanged. Fault lines through the Router:
// tests/faults.

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

TEST(LoggingPetRepository, LogsNoOrdinaryOutcome) {
  std::ostringstream log;
  const auto logger = Logger::to_stream(log, LogFormat::json, LogLevel::debug);
  const auto pets = adapters::logging::make_logging_pet_repository(
      adapters::storage::memory::make_memory_pet_repository(), *logger);

  ASSERT_TRUE(create_now(*pets, create_once("Rex", "k1")));
  const auto replay = create_now(*pets, create_once("Rex", "k1"));
  ASSERT_TRUE(replay);
  EXPECT_FALSE(replay->created);
  ASSERT_TRUE(create_now(*pets, create_once("Fido", "k2")));
  EXPECT_FALSE(get_now(*pets, domain::PetId{99}));  // not found is ordinary

  EXPECT_EQ(count_now(*pets).value(), 2);
  EXPECT_EQ(log.str(), "");
}

}  // namespace
}  // namespace petstore::tests
