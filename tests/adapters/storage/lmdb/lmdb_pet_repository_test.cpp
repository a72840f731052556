// What only the LMDB repository promises: data survives a reopen, creates are group-committed by
// one writer that calls back only after the commit, the map grows when full, and a failed
// commit leaves nothing half-written.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "application/idempotency.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/commit_gate.hpp"

#include "lmdb_test_support.hpp"

namespace petstore::tests {
namespace {

using domain::ErrorCode;
using domain::PetStatus;

// Creates that `create_all` issues without waiting, and what their callbacks received.
struct Outcomes {
  std::mutex mutex;
  std::vector<domain::Result<domain::Pet>> results;
  std::atomic<int> calls{0};
};

// create_all: issues `count` creates at once (so that they queue and batch), returning when
// every callback has run.
void create_all(ports::PetRepository& repository, int count, Outcomes& outcomes) {
  for (int i = 0; i < count; ++i) {
    const auto status = domain::all_pet_statuses[static_cast<std::size_t>(i % 3)];
    repository.create({new_pet("Pet " + std::to_string(i), i, status), std::nullopt, test_now},
                      pet_done([&outcomes](domain::Result<domain::Pet> result) {
                        const std::lock_guard lock(outcomes.mutex);
                        outcomes.results.push_back(std::move(result));
                        ++outcomes.calls;
                      }));
  }
  while (outcomes.calls.load() < count) {
    std::this_thread::yield();
  }
}

TEST(LmdbPetRepository, IdsContinueAboveTheLastAfterReopens) {
  const TempDir temp;
  domain::Pet last = [&] {
    const auto repository = open_repository(options_for(temp.path()));
    (void)create_pet(*repository, new_pet("Rex")).value();
    return create_pet(*repository, new_pet("Fido", 2, PetStatus::sold)).value();
  }();
  for (int round = 0; round < 3; ++round) {
    const auto repository = open_repository(options_for(temp.path()));
    EXPECT_EQ(get_now(*repository, last.id).value(), last);
    EXPECT_EQ(list_all(*repository, PetStatus::sold, 1).back(), last);
    const auto next = create_pet(*repository, new_pet("Bello", round, PetStatus::sold)).value();
    EXPECT_EQ(next.id.value, last.id.value + 1);
    last = next;
  }
}

TEST(LmdbPetRepository, ConcurrentCreatorsGetOneCallbackEachAndDistinctIds) {
  const TempDir temp;
  const auto repository = open_repository(options_for(temp.path()));
  constexpr int threads = 8;
  constexpr int per_thread = 100;
  Outcomes outcomes;
  std::vector<std::thread> creators;
  creators.reserve(threads);
  for (int t = 0; t < threads; ++t) {
    creators.emplace_back([&] {
      Outcomes mine;
      create_all(*repository, per_thread, mine);
      const std::lock_guard lock(outcomes.mutex);
      for (auto& result : mine.results) {
        outcomes.results.push_back(std::move(result));
      }
      outcomes.calls += mine.calls.load();
    });
  }
  for (auto& creator : creators) {
    creator.join();
  }
  EXPECT_EQ(outcomes.calls.load(), threads * per_thread);
  std::set<std::int64_t> ids;
  for (const auto& result : outcomes.results) {
    ASSERT_TRUE(result.has_value()) << result.error().message;
    ids.insert(result->id.value);
  }
  EXPECT_EQ(ids.size(), std::size_t{threads} * per_thread);
  EXPECT_EQ(*ids.begin(), 1);
  EXPECT_EQ(*ids.rbegin(), threads * per_thread);  // no id skipped
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), ids.size());
}

// A read transaction sees only what is committed, so a pet that `get` finds from inside its own
// callback was committed before the callback ran.
TEST(LmdbPetRepository, CallbacksRunAfterTheCommit) {
  const TempDir temp;
  const auto repository = open_repository(options_for(temp.path()));
  constexpr int count = 300;
  std::atomic<int> visible{0};
  std::atomic<int> calls{0};
  for (int i = 0; i < count; ++i) {
    repository->create({new_pet("Rex"), std::nullopt, test_now},
                       pet_done([&](const domain::Result<domain::Pet>& result) {
                         if (result && get_now(*repository, result->id).value() == *result) {
                           ++visible;
                         }
                         ++calls;
                       }));
  }
  while (calls.load() < count) {
    std::this_thread::yield();
  }
  EXPECT_EQ(visible.load(), count);
}

TEST(LmdbPetRepository, DestroyingCommitsWhatIsQueued) {
  const TempDir temp;
  constexpr int count = 400;
  std::atomic<int> succeeded{0};
  {
    const auto repository = open_repository(options_for(temp.path()));
    for (int i = 0; i < count; ++i) {
      repository->create({new_pet("Rex"), std::nullopt, test_now},
                         pet_done([&](const domain::Result<domain::Pet>& result) {
                           succeeded += result ? 1 : 0;
                         }));
    }
  }  // the destructor returns only when every queued create is done
  EXPECT_EQ(succeeded.load(), count);
  const auto repository = open_repository(options_for(temp.path()));
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), std::size_t{count});
}

// After a batch of several creates the writer waits for as many more, but only as long as the
// last commit took: a create that comes alone is committed alone, not kept waiting.
TEST(LmdbPetRepository, ALoneCreateAfterABusyBatchIsCommittedAlone) {
  const TempDir temp;
  CommitGate gate;
  auto options = options_for(temp.path());
  options.on_commit = gate.hook();
  const auto repository = open_repository(options);
  busy_batch(*repository, gate);
  const auto lone = create_pet(*repository, new_pet("Lone"));
  ASSERT_TRUE(lone.has_value()) << lone.error().message;
  EXPECT_EQ(lone->id, domain::PetId{10});
  EXPECT_EQ(gate.batches(), (std::vector<std::size_t>{1, 8, 1}));
}

// A create queued while the writer is busy, whose deadline passes meanwhile, is answered
// unavailable and never written: its client has already had its 503.
TEST(LmdbPetRepository, ACreateWhoseDeadlinePassesInTheQueueIsNeverWritten) {
  const TempDir temp;
  CommitGate gate;
  auto options = options_for(temp.path());
  options.on_commit = gate.hook();
  const auto repository = open_repository(options);
  std::promise<domain::Result<ports::CreateOutcome>> first;
  repository->create({new_pet("First"), std::nullopt, test_now},
                     [&first](domain::Result<ports::CreateOutcome> result) {
                       first.set_value(std::move(result));
                     });
  gate.wait_for_commits(1);  // the writer is held after its first batch
  std::promise<domain::Result<ports::CreateOutcome>> late;
  repository->create({new_pet("Late"), std::nullopt, test_now},
                     ports::PetRepository::CreateDone(
                         [&late](domain::Result<ports::CreateOutcome> result) {
                           late.set_value(std::move(result));
                         },
                         std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  gate.open();
  ASSERT_TRUE(first.get_future().get().has_value());
  const auto result = late.get_future().get();
  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, domain::ErrorCode::unavailable);
  const auto pets = list_all(*repository, std::nullopt, 100);
  ASSERT_EQ(pets.size(), 1U);
  EXPECT_EQ(pets.front().name.value(), "First");
}

// Stopping ends the writer's wait for company: the create it waited with is committed.
TEST(LmdbPetRepository, DestroyingWhileTheWriterWaitsForCompanyCommitsWhatIsQueued) {
  const TempDir temp;
  std::atomic<bool> stored{false};
  {
    CommitGate gate;
    auto options = options_for(temp.path());
    options.on_commit = gate.hook();
    const auto repository = open_repository(options);
    busy_batch(*repository, gate);
    repository->create(
        {new_pet("Last"), std::nullopt, test_now},
        pet_done([&](const domain::Result<domain::Pet>& result) { stored = result.has_value(); }));
  }
  EXPECT_TRUE(stored.load());
  const auto repository = open_repository(options_for(temp.path()));
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), 10U);
}

// Three creates with one key in the same batch: the first stores its pet; the others store
// nothing and get the first one's pet back, whatever they sent (settling that is the core's).
TEST(LmdbPetRepository, OneKeyThriceInOneBatch) {
  const TempDir temp;
  const auto repository = open_repository(options_for(temp.path()));
  const ports::IdempotencyKey key{"alice", "k1"};
  std::mutex mutex;
  std::vector<domain::Result<ports::CreateOutcome>> results;
  std::atomic<int> calls{0};
  for (const auto& pet : {new_pet("Rex"), new_pet("Rex"), new_pet("Fido")}) {
    repository->create({pet, key, test_now, application::idempotency_retention},
                       [&](domain::Result<ports::CreateOutcome> result) {
                         const std::lock_guard lock(mutex);
                         results.push_back(std::move(result));
                         ++calls;
                       });
  }
  while (calls.load() < 3) {
    std::this_thread::yield();
  }
  // One writer runs the batch in order, so the callbacks come in order too.
  ASSERT_TRUE(results[0].has_value());
  EXPECT_TRUE(results[0]->created);
  for (std::size_t i = 1; i < 3; ++i) {
    ASSERT_TRUE(results[i].has_value());
    EXPECT_FALSE(results[i]->created);
    EXPECT_EQ(results[i]->pet, results[0]->pet);
  }
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), 1U);
}

// Expired idempotency records are pruned a bounded number per batch, so they do not pile up; the
// live ones stay.
TEST(LmdbPetRepository, ExpiredIdempotencyRecordsArePruned) {
  const TempDir temp;
  constexpr int expired = 100;
  {
    const auto repository = open_repository(options_for(temp.path()));
    for (int i = 0; i < expired; ++i) {
      const ports::IdempotencyKey key{"alice", "old " + std::to_string(i)};
      (void)create_pet(*repository, new_pet("Rex"), key, test_now).value();
    }
    const auto later = test_now + application::idempotency_retention + std::chrono::hours(1);
    (void)create_pet(*repository, new_pet("Fido"), ports::IdempotencyKey{"alice", "new"}, later)
        .value();
    for (int i = 0; i < expired / 10; ++i) {  // each create prunes more than ten
      (void)create_pet(*repository, new_pet("Bello"), std::nullopt, later).value();
    }
  }
  EXPECT_EQ(count_raw(temp.path(), "idempotency"), 1U);
  EXPECT_EQ(count_raw(temp.path(), "idempotency_by_time"), 1U);
  EXPECT_EQ(count_raw(temp.path(), "pets"), std::size_t{expired + 1 + expired / 10});
}

TEST(LmdbPetRepository, TheMapGrowsWhenFull) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.initial_map_size = std::size_t{64} * 1024;
  options.map_growth_step = std::size_t{64} * 1024;
  constexpr int count = 4800;  // a multiple of 3: as many pets of each status
  {
    const auto repository = open_repository(options);
    Outcomes outcomes;
    create_all(*repository, count, outcomes);
    for (const auto& result : outcomes.results) {
      ASSERT_TRUE(result.has_value()) << result.error().message;
    }
  }
  EXPECT_GT(std::filesystem::file_size(temp.path() / "data.mdb"), options.initial_map_size);
  const auto repository = open_repository(options);  // opens at the grown size
  EXPECT_EQ(list_all(*repository, std::nullopt, 100).size(), std::size_t{count});
  EXPECT_EQ(list_all(*repository, PetStatus::pending, 100).size(), std::size_t{count / 3});
  EXPECT_EQ(create_pet(*repository, new_pet("Rex")).value().id.value, count + 1);
}

// Past the largest map allowed, creates fail as unavailable, each failed batch leaves nothing,
// and what was acknowledged before is all there.
TEST(LmdbPetRepository, AFullStoreFailsCreatesWithoutHalfWrites) {
  const TempDir temp;
  auto options = options_for(temp.path());
  options.initial_map_size = std::size_t{64} * 1024;
  options.map_growth_step = std::size_t{32} * 1024;
  options.max_map_size = std::size_t{256} * 1024;
  const auto repository = open_repository(options);
  Outcomes outcomes;
  create_all(*repository, 8000, outcomes);
  std::set<std::int64_t> acknowledged;
  int full = 0;
  for (const auto& result : outcomes.results) {
    if (result) {
      acknowledged.insert(result->id.value);
    } else {
      EXPECT_EQ(result.error().code, ErrorCode::unavailable);
      EXPECT_EQ(result.error().message, "storage is full");
      ++full;
    }
  }
  EXPECT_GT(full, 0);
  ASSERT_FALSE(acknowledged.empty());
  EXPECT_EQ(*acknowledged.rbegin(), static_cast<std::int64_t>(acknowledged.size()));
  std::set<std::int64_t> stored;
  for (const auto& pet : list_all(*repository, std::nullopt, 100)) {
    stored.insert(pet.id.value);
  }
  EXPECT_EQ(stored, acknowledged);
}

}  // namespace
}  // namespace petstore::tests
