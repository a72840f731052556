// A connection lost at the end of a create's transaction, on the executable's own server behind a
// proxy that ends the connection at the COMMIT's answer (tests/support/postgres_cutting_proxy):
// a COMMIT whose answer arrived is a created pet, not unavailable for a pet that is stored, also
// when a fast shutdown's error follows it; a COMMIT whose answer was lost is unavailable (it may
// have committed: here it did), and the retry with the same idempotency key gives back that pet
// instead of storing a second one.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_cutting_proxy.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

using Cut = PostgresCuttingProxy::Cut;

// once_connected: `call()`'s result, called again every 20 ms (for at most 30 s) while it is
// unavailable: with its only open connection lost, the pool answers so until one is up again.
template <class Call>
auto once_connected(Call call) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    auto result = call();
    if (result.has_value() || result.error().code != domain::ErrorCode::unavailable ||
        std::chrono::steady_clock::now() >= deadline) {
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

class PostgresLostAnswer : public testing::Test {
 protected:
  PostgresLostAnswer() : database_(shared_postgres_server().create_database()) {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = proxy_.url(database_);
    repository_ = adapters::storage::postgres::make_postgres_pet_repository(options).value();
    // The pool is up and the first id taken before any cut.
    EXPECT_TRUE(create_pet(*repository_, new_pet("First")).has_value());
  }

  // stored_count: the pets in the database, read on a connection that bypasses the proxy.
  [[nodiscard]] std::int64_t stored_count() const {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = shared_postgres_server().url(database_);
    const auto direct = adapters::storage::postgres::make_postgres_pet_repository(options).value();
    return count_now(*direct).value();
  }

  PostgresCuttingProxy proxy_{shared_postgres_server()};
  std::string database_;
  std::unique_ptr<ports::PetRepository> repository_;
};

class PostgresAnsweredCommit : public PostgresLostAnswer,
                               public testing::WithParamInterface<Cut> {};

TEST_P(PostgresAnsweredCommit, IsACreatedPetThoughTheConnectionWasLostAfterIt) {
  proxy_.arm(GetParam(), "COMMIT");
  const auto created = create_pet(*repository_, new_pet("Answered"));
  ASSERT_EQ(proxy_.cuts(), 1) << "the proxy never saw the COMMIT's answer";
  ASSERT_TRUE(created.has_value()) << created.error().message;
  EXPECT_EQ(created->id, domain::PetId{2});
  EXPECT_EQ(stored_count(), 2);
  const auto read = once_connected([&] { return get_now(*repository_, domain::PetId{2}); });
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->name.value(), "Answered");
}

INSTANTIATE_TEST_SUITE_P(Postgres, PostgresAnsweredCommit,
                         testing::Values(Cut::after, Cut::after_then_fatal),
                         [](const testing::TestParamInfo<Cut>& cut) {
                           return cut.param == Cut::after ? "ThenTheEnd" : "ThenAShutdownsError";
                         });

TEST_F(PostgresLostAnswer, ACommitWhoseAnswerWasLostIsUnavailableAndItsRetryGivesBackThePet) {
  const ports::IdempotencyKey key{"scope", "retry-me"};
  proxy_.arm(Cut::before, "COMMIT");
  const auto lost = create_now(*repository_, {new_pet("In doubt"), key, test_now});
  ASSERT_EQ(proxy_.cuts(), 1) << "the proxy never saw the COMMIT's answer";
  ASSERT_FALSE(lost.has_value()) << "answered without a COMMIT's answer";
  EXPECT_EQ(lost.error().code, domain::ErrorCode::unavailable);
  EXPECT_EQ(stored_count(), 2) << "the server committed; only its answer was lost";

  const auto retried = once_connected([&] {
    return create_now(*repository_, {new_pet("In doubt"), key, test_now});
  });
  ASSERT_TRUE(retried.has_value()) << retried.error().message;
  EXPECT_FALSE(retried->created) << "the retry stored a second pet";
  EXPECT_EQ(retried->pet.id, domain::PetId{2});
  EXPECT_EQ(stored_count(), 2);
}

}  // namespace
}  // namespace petstore::tests
