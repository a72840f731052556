// Reads on a replica that trails the primary, on servers of the test's own. A read whose answer is
// bounded by a pet the replica holds (a page with the row after it, a pet found) is served by
// the replica without asking the primary for a position, however far behind it is. Any other
// waits there for the replica's replay (petstore.replay_reaches, schema version 5) rather than
// leaving the read to the primary at once: a replica whose replay is paused for a moment, then
// resumed, serves it, holding the pet acknowledged before it; one paused past the wait leaves it
// to the primary, still fresh.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <libpq-fe.h>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "adapters/storage/postgres/postgres_replica_reads.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_hooks.hpp"
#include "support/postgres_probe.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using adapters::storage::postgres::ConnPtr;
using adapters::storage::postgres::ReplicaReads;

// Served: where each read went ("replica", or the primary's reason).
class Served {
 public:
  std::shared_ptr<PostgresHooks> hooks() {
    auto hooks = std::make_shared<PostgresHooks>();
    hooks->on_read_served = [this](bool replica, std::string_view reason) {
      const std::lock_guard lock(mutex_);
      places_.emplace_back(replica ? "replica" : reason);
    };
    hooks->on_position_queried = [this] { ++positions_; };
    return hooks;
  }
  // positions: the position queries sent to the primary so far.
  [[nodiscard]] int positions() const { return positions_.load(); }
  std::vector<std::string> take() {
    const std::lock_guard lock(mutex_);
    return std::exchange(places_, {});
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> places_;
  std::atomic<int> positions_{0};
};

class PostgresReplicaWait : public testing::Test {
 protected:
  PostgresReplicaWait()
      : database_(primary_.create_database()),
        migrated_(open(primary_.url(database_), "", nullptr)),
        standby_(PostgresServer::StandbyOf{primary_}),
        pets_(open(primary_.url(database_), standby_.url(database_), served_.hooks())) {}

  static std::unique_ptr<ports::PetRepository> open(const std::string& url,
                                                    const std::string& read_url,
                                                    std::shared_ptr<PostgresHooks> hooks) {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = url;
    options.read_url = read_url;
    // One connection a pool: a second one coming up late (a loaded machine) would change the
    // replica pool's connections and so cancel its trust between trusted() and the reads.
    options.pool_size = 1;
    if (hooks) {
      options.observer = std::move(hooks);
    }
    return adapters::storage::postgres::make_postgres_pet_repository(options).value();
  }

  // trusted: reads until the replica, proved and caught up, serves one.
  void trusted() {
    while (served_.take() != std::vector<std::string>{"replica"}) {
      (void)list_now(*pets_, {std::nullopt, std::nullopt, page_size(1)}).value();
      std::this_thread::sleep_for(10ms);
    }
  }

  // trusted_now: with two pets or more (a first page of one is then whole on a replica that holds
  // the second), reads it until the replica serves it without a position query: trusted now. A
  // read that proves the replica may be served and still leave it untrusted, should its pool's
  // connections change meanwhile.
  void trusted_now() {
    for (;;) {
      const int positions = served_.positions();
      (void)list_now(*pets_, {std::nullopt, std::nullopt, page_size(1)}).value();
      if (served_.take() == std::vector<std::string>{"replica"} &&
          served_.positions() == positions) {
        return;
      }
      std::this_thread::sleep_for(10ms);
    }
  }

  // listed_after_a_pause: a pet acknowledged while the standby's replay is paused, then a list
  // that starts at once while the replay stays paused for `paused`; whether the list holds it.
  bool listed_after_a_pause(std::chrono::milliseconds paused, const std::string& name) {
    const ConnPtr standby(PQconnectdb(standby_.url(database_).c_str()));
    (void)first_value(standby.get(), "SELECT pg_wal_replay_pause()");
    const auto pet = create_pet(*pets_, new_pet(name)).value();
    (void)served_.take();
    std::thread resume([&] {
      std::this_thread::sleep_for(paused);
      (void)first_value(standby.get(), "SELECT pg_wal_replay_resume()");
    });
    const auto page = list_now(*pets_, {std::nullopt, std::nullopt, page_size(100)}).value();
    resume.join();
    return std::any_of(page.pets.begin(), page.pets.end(),
                       [&](const domain::Pet& listed) { return listed == pet; });
  }

  PostgresServer primary_;
  std::string database_;
  std::unique_ptr<ports::PetRepository> migrated_;  // the schema, before the standby copies it
  PostgresServer standby_;
  Served served_;
  std::unique_ptr<ports::PetRepository> pets_;
};

// The trust a position query gives lasts ReplicaReads::history_life: an attempt that took longer
// on a loaded machine (a create pays a WAL flush) proves nothing either way and is repeated.
TEST_F(PostgresReplicaWait, AnAnswerBoundedByAPetTheReplicaHoldsNeedsNoPosition) {
  const auto first = create_pet(*pets_, new_pet("First")).value();
  const auto second = create_pet(*pets_, new_pet("Second")).value();
  const ConnPtr standby(PQconnectdb(standby_.url(database_).c_str()));
  domain::PetId held = second.id;  // the newest pet the paused replica holds
  domain::PetId lacked = second.id;
  bool timely = false;
  for (int attempt = 0; attempt < 5 && !timely; ++attempt) {
    (void)first_value(standby.get(), "SELECT pg_wal_replay_resume()");
    trusted_now();
    const auto trusted_at = std::chrono::steady_clock::now();
    (void)first_value(standby.get(), "SELECT pg_wal_replay_pause()");
    held = lacked;
    lacked = create_pet(*pets_, new_pet("Lacked")).value().id;  // acknowledged; not replayed
    const int positions = served_.positions();
    const auto page = list_now(*pets_, {std::nullopt, std::nullopt, page_size(1)}).value();
    const auto got = get_now(*pets_, second.id).value();
    const auto served = served_.take();
    const int asked = served_.positions() - positions;
    if (std::chrono::steady_clock::now() - trusted_at >= ReplicaReads::history_life) {
      continue;
    }
    timely = true;
    EXPECT_EQ(page.pets, std::vector<domain::Pet>{first});
    EXPECT_TRUE(page.has_more);
    EXPECT_EQ(got, second);
    EXPECT_EQ(served, (std::vector<std::string>{"replica", "replica"}));
    EXPECT_EQ(asked, 0) << "a whole answer asked the primary for a position";
  }
  ASSERT_TRUE(timely) << "no attempt finished within the trust's life";
  // The page after the newest pet the replica holds is not whole there: it asks, and the primary
  // answers.
  const int positions = served_.positions();
  const auto tail = list_now(*pets_, {std::nullopt, held, page_size(1)}).value();
  ASSERT_EQ(tail.pets.size(), 1U);
  EXPECT_EQ(tail.pets[0].id, lacked);
  EXPECT_EQ(served_.take(), std::vector<std::string>{"replica_lagging"});
  EXPECT_GT(served_.positions(), positions);
  (void)first_value(standby.get(), "SELECT pg_wal_replay_resume()");
}

TEST_F(PostgresReplicaWait, AReplicaAMomentBehindServesTheReadOnceItCaughtUp) {
  (void)create_pet(*pets_, new_pet("Warm-up")).value();
  trusted();
  EXPECT_TRUE(listed_after_a_pause(ReplicaReads::max_catch_up / 3, "Behind a moment"));
  EXPECT_EQ(served_.take(), std::vector<std::string>{"replica"});
}

TEST_F(PostgresReplicaWait, AReplicaBehindPastTheWaitLeavesAFreshReadToThePrimary) {
  (void)create_pet(*pets_, new_pet("Warm-up")).value();
  trusted();
  EXPECT_TRUE(listed_after_a_pause(ReplicaReads::max_catch_up * 4, "Behind long"));
  EXPECT_EQ(served_.take(), std::vector<std::string>{"replica_lagging"});
}

}  // namespace
}  // namespace petstore::tests
