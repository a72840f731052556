// A connection lost at the end of a create's transaction, on the executable's own server behind a
// proxy that ends the connection at the COMMIT's answer (tests/support/postgres_cutting_proxy):
// a COMMIT whose answer arrived is a created pet, not unavailable for a pet that is stored, also
// when a fast shutdown's error follows it. A COMMIT whose answer was lost is resolved on a new
// connection (pg_xact_status of the transaction's id): here it committed, so the create is
// answered with its stored pet, stored once. When the outcome cannot be learned before the
// deadline (the proxy stalls), the create is unavailable, and the retry with the same
// idempotency key gives back the pet instead of storing a second one.

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_cutting_proxy.hpp"
#include "support/postgres_hooks.hpp"
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
  explicit PostgresLostAnswer(std::chrono::milliseconds call_timeout = std::chrono::seconds(5))
      : database_(shared_postgres_server().create_database()) {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = proxy_.url(database_);
    options.call_timeout = call_timeout;
    auto hooks = std::make_shared<PostgresHooks>();
    hooks->on_resolved = [this](std::string_view outcome) {
      const std::lock_guard lock(mutex_);
      resolved_.emplace_back(outcome);
    };
    options.observer = hooks;
    // While holding, the writer waits after its batch until release(): what comes meanwhile
    // makes the next batch.
    hooks->on_commit = [this](std::chrono::nanoseconds, std::size_t) {
      std::unique_lock lock(mutex_);
      held_ = holding_;
      changed_.notify_all();
      changed_.wait(lock, [this] { return !holding_; });
      held_ = false;
    };
    repository_ = adapters::storage::postgres::make_postgres_pet_repository(options).value();
    // The pool is up and the first id taken before any cut.
    EXPECT_TRUE(create_pet(*repository_, new_pet("First")).has_value());
  }

  void hold() {
    const std::lock_guard lock(mutex_);
    holding_ = true;
  }
  void wait_until_held() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return held_; });
  }
  void release() {
    const std::lock_guard lock(mutex_);
    holding_ = false;
    changed_.notify_all();
  }

  // resolved: the outcome of each resolution of a commit in doubt so far.
  [[nodiscard]] std::vector<std::string> resolved() {
    const std::lock_guard lock(mutex_);
    return resolved_;
  }

  // stored_count: the pets in the database, read on a connection that bypasses the proxy.
  [[nodiscard]] std::int64_t stored_count() const {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = shared_postgres_server().url(database_);
    const auto direct = adapters::storage::postgres::make_postgres_pet_repository(options).value();
    return count_now(*direct).value();
  }

  PostgresCuttingProxy proxy_{shared_postgres_server()};
  std::mutex mutex_;
  std::condition_variable changed_;
  bool holding_ = false;
  bool held_ = false;
  std::vector<std::string> resolved_;
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

TEST_F(PostgresLostAnswer, ACommitWhoseAnswerWasLostIsResolvedAsTheStoredPet) {
  const ports::IdempotencyKey key{"scope", "resolve-me"};
  proxy_.arm(Cut::before, "COMMIT");
  const auto lost = create_now(*repository_, {new_pet("In doubt"), key, test_now});
  ASSERT_EQ(proxy_.cuts(), 1) << "the proxy never saw the COMMIT's answer";
  ASSERT_TRUE(lost.has_value()) << "the server committed, yet: " << lost.error().message << " ("
                                << lost.error().detail << ")";
  EXPECT_TRUE(lost->created);
  EXPECT_EQ(lost->pet.id, domain::PetId{2});
  EXPECT_EQ(lost->pet.name.value(), "In doubt");
  EXPECT_EQ(resolved(), std::vector<std::string>{"committed"});
  EXPECT_EQ(stored_count(), 2) << "stored once";

  const auto retried = once_connected([&] {
    return create_now(*repository_, {new_pet("In doubt"), key, test_now});
  });
  ASSERT_TRUE(retried.has_value()) << retried.error().message;
  EXPECT_FALSE(retried->created) << "the retry stored a second pet";
  EXPECT_EQ(retried->pet.id, domain::PetId{2});
  EXPECT_EQ(stored_count(), 2);
}

TEST_F(PostgresLostAnswer, ABatchInDoubtIsResolvedCreateByCreate) {
  const ports::IdempotencyKey stored_key{"scope", "stored-before"};
  ASSERT_TRUE(create_now(*repository_, {new_pet("Before"), stored_key, test_now}).has_value());
  // One batch of four: a new keyed create, the same key again, an unkeyed create, and the key
  // stored before; queued while the writer is held after the batch of "Hold".
  hold();
  domain::Result<domain::Pet> hold_answer =
      domain::make_error(domain::ErrorCode::internal, "", "unanswered");
  std::thread holder([&] { hold_answer = create_pet(*repository_, new_pet("Hold")); });
  wait_until_held();
  const ports::IdempotencyKey key{"scope", "twice"};
  const std::vector<ports::CreatePetCommand> commands{{new_pet("Twice"), key, test_now},
                                                      {new_pet("Twice"), key, test_now},
                                                      {new_pet("Plain"), std::nullopt, test_now},
                                                      {new_pet("Before"), stored_key, test_now}};
  std::vector<domain::Result<ports::CreateOutcome>> answers(
      commands.size(), domain::make_error(domain::ErrorCode::internal, "", "unanswered"));
  std::vector<std::thread> creates;
  creates.reserve(commands.size());
  for (std::size_t i = 0; i < commands.size(); ++i) {
    creates.emplace_back([&, i] { answers[i] = create_now(*repository_, commands[i]); });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all four queue up
  proxy_.arm(Cut::before, "COMMIT");
  release();
  for (auto& create : creates) {
    create.join();
  }
  holder.join();
  ASSERT_EQ(proxy_.cuts(), 1);
  for (const auto& answer : answers) {
    ASSERT_TRUE(answer.has_value())
        << answer.error().message << " (" << answer.error().detail << ")";
  }
  EXPECT_EQ(resolved(), std::vector<std::string>{"committed"});
  // The queue's order decides which of the two with one key claims it; on a busy machine it may
  // also put "Hold" after them. Either way Hold, Twice and Plain hold the ids 3, 4 and 5.
  EXPECT_EQ(answers[0]->pet.id, answers[1]->pet.id) << "one key, one pet";
  EXPECT_NE(answers[0]->created, answers[1]->created);
  EXPECT_TRUE(answers[2]->created);
  EXPECT_EQ(answers[2]->pet.name.value(), "Plain");
  ASSERT_TRUE(hold_answer.has_value()) << hold_answer.error().message;
  std::vector<std::int64_t> ids{hold_answer->id.value, answers[0]->pet.id.value,
                                answers[2]->pet.id.value};
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::int64_t>{3, 4, 5}));
  EXPECT_FALSE(answers[3]->created);
  EXPECT_EQ(answers[3]->pet.id, domain::PetId{2});
  EXPECT_EQ(stored_count(), 5) << "First, Before, Hold, Twice, Plain";
}

class PostgresUnlearnableCommit : public PostgresLostAnswer {
 protected:
  PostgresUnlearnableCommit() : PostgresLostAnswer(std::chrono::seconds(1)) {}
};

TEST_F(PostgresUnlearnableCommit, IsUnavailableAndItsRetryGivesBackThePet) {
  const ports::IdempotencyKey key{"scope", "retry-me"};
  proxy_.arm(Cut::before_then_stall, "COMMIT");
  const auto lost = create_now(*repository_, {new_pet("In doubt"), key, test_now});
  ASSERT_EQ(proxy_.cuts(), 1) << "the proxy never saw the COMMIT's answer";
  ASSERT_FALSE(lost.has_value()) << "answered though no server could be asked";
  EXPECT_EQ(lost.error().code, domain::ErrorCode::unavailable);
  EXPECT_EQ(resolved(), std::vector<std::string>{"unknown"});
  EXPECT_EQ(stored_count(), 2) << "the server committed; only its answer was lost";

  proxy_.stall(false);
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
