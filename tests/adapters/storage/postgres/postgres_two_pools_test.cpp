// Two pools on one database, as two instances have, on the executable's own server: creates
// through both, while a cursor walk alternates between them, never show a walk an id below one
// an earlier walk saw (ids in commit order, with the counter row locked only in a batch's last
// statement); and one Idempotency-Key sent through both at once stores one pet, both answered
// with it.

#include <array>
#include <atomic>
#include <barrier>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

struct TwoPools {
  TwoPools() {
    auto& server = shared_postgres_server();
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = server.url(server.create_database());
    for (auto& pool : pools) {
      pool = adapters::storage::postgres::make_postgres_pet_repository(options).value();
    }
  }
  std::array<std::unique_ptr<ports::PetRepository>, 2> pools;
};

// ids_walked: every id a cursor walk lists, page by page (small pages, so that commits land
// between them).
std::vector<std::int64_t> ids_walked(const ports::PetRepository& repository) {
  std::vector<std::int64_t> ids;
  for (const auto& pet : list_all(repository, std::nullopt, 7)) {
    ids.push_back(pet.id.value);
  }
  return ids;
}

TEST(PostgresTwoPools, ConcurrentCreatesAppearToAWalkInIdOrder) {
  TwoPools db;
  constexpr std::size_t writers_per_pool = 3;
  constexpr int creates_each = 60;
  std::atomic<bool> writing{true};
  std::atomic<int> failures{0};
  std::vector<std::thread> writers;
  writers.reserve(2 * writers_per_pool);
  std::vector<std::vector<std::int64_t>> acknowledged(2 * writers_per_pool);
  for (std::size_t w = 0; w < 2 * writers_per_pool; ++w) {
    writers.emplace_back([&, w] {
      auto& pool = *db.pools.at(w % 2);
      for (int i = 0; i < creates_each; ++i) {
        std::optional<ports::IdempotencyKey> key;
        if (i % 3 == 0) {  // some batches claim records before they take the counter row
          key = ports::IdempotencyKey{"walk", std::to_string(w) + "-" + std::to_string(i)};
        }
        const auto created = create_pet(pool, new_pet("Walked"), key);
        if (!created) {
          ++failures;
          continue;
        }
        acknowledged[w].push_back(created->id.value);
      }
    });
  }
  int violations = 0;
  int walks = 0;
  std::set<std::int64_t> seen;
  std::int64_t highest_seen = 0;
  std::thread reader([&] {
    while (writing.load()) {
      const auto ids = ids_walked(*db.pools.at(static_cast<std::size_t>(walks % 2)));
      ++walks;
      for (const auto id : ids) {
        if (!seen.contains(id) && id < highest_seen) {
          ++violations;  // appeared below an id an earlier walk listed: a walk skipped it
        }
      }
      for (const auto id : ids) {
        seen.insert(id);
        highest_seen = std::max(highest_seen, id);
      }
    }
  });
  for (auto& writer : writers) {
    writer.join();
  }
  writing = false;
  reader.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(violations, 0) << "in " << walks << " walks";
  EXPECT_GT(walks, 1);
  const auto last = ids_walked(*db.pools[0]);
  const std::set<std::int64_t> stored(last.begin(), last.end());
  std::size_t total = 0;
  for (const auto& ids : acknowledged) {
    total += ids.size();
    for (std::size_t i = 1; i < ids.size(); ++i) {
      EXPECT_GT(ids[i], ids[i - 1]);  // one writer's creates commit one after another
    }
    for (const auto id : ids) {
      EXPECT_TRUE(stored.contains(id)) << id;
    }
  }
  EXPECT_EQ(stored.size(), total);
}

TEST(PostgresTwoPools, OneKeyThroughBothAtOnceStoresOnePet) {
  TwoPools db;
  constexpr int keys = 25;
  for (int k = 0; k < keys; ++k) {
    const ports::IdempotencyKey key{"both", "key-" + std::to_string(k)};
    std::array<std::optional<domain::Result<ports::CreateOutcome>>, 2> outcomes;
    std::barrier start(2);
    std::vector<std::thread> senders;
    senders.reserve(2);
    for (int p = 0; p < 2; ++p) {
      senders.emplace_back([&, p] {
        start.arrive_and_wait();
        outcomes.at(static_cast<std::size_t>(p))
            .emplace(create_now(*db.pools.at(static_cast<std::size_t>(p)),
                                {new_pet("Once"), key, test_now, std::chrono::hours(24)}));
      });
    }
    for (auto& sender : senders) {
      sender.join();
    }
    ASSERT_TRUE(*outcomes[0]) << (*outcomes[0]).error().message;
    ASSERT_TRUE(*outcomes[1]) << (*outcomes[1]).error().message;
    EXPECT_EQ((*outcomes[0])->pet, (*outcomes[1])->pet) << key.key;
    EXPECT_NE((*outcomes[0])->created, (*outcomes[1])->created) << key.key;
  }
  EXPECT_EQ(count_now(*db.pools[0]).value(), keys);
}

}  // namespace
}  // namespace petstore::tests
