// Several real `petstore serve` processes on one PostgreSQL database (contract section 8), each
// test on a server of its own (tests/support/postgres_server): concurrent creates through every
// instance get distinct ids that every instance serves at once, cursor walks list each pet once and
// never see an id appear below one already seen; one Idempotency-Key sent to two instances at once
// creates one pet; the database stopped and started under load, and one instance killed with
// SIGKILL, lose no acknowledged pet and store none that no client asked for. Waits are bounded;
// nothing asserts a timing.

#include <algorithm>
#include <atomic>
#include <barrier>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"
#include "support/postgres_server.hpp"
#include "support/raw_http_request.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// id_of: the "id" member of a Pet body, if any.
std::optional<std::int64_t> id_of(const std::string& body) {
  const auto at = body.find("\"id\":");
  if (at == std::string::npos) {
    return std::nullopt;
  }
  std::int64_t id = 0;
  const char* begin = body.data() + at + 5;
  const auto [end, error] = std::from_chars(begin, body.data() + body.size(), id);
  return error == std::errc{} && end != begin ? std::optional(id) : std::nullopt;
}

// ids_of: every "id" in a page body, in order.
std::vector<std::int64_t> ids_of(const std::string& body) {
  std::vector<std::int64_t> ids;
  for (std::size_t at = body.find("\"id\":"); at != std::string::npos;
       at = body.find("\"id\":", at + 5)) {
    if (const auto id = id_of(body.substr(at))) {
      ids.push_back(*id);
    }
  }
  return ids;
}

// Instances: a database on the test's own server and `count` services on it.
class Instances {
 public:
  // `timeout`: --database-timeout and --storage-timeout in seconds. Long where only correctness
  // is checked (under load on a few cores, instrumented instances may take seconds to commit: a
  // run with the 5 s default once answered 11 creates in 240 with 503); short where the database
  // goes away, so that calls caught in the loss answer 503 within a client's wait.
  explicit Instances(std::size_t count, std::string timeout = "60")
      : url_(server_.url(server_.create_database())),
        timeout_(std::move(timeout)),
        client_wait_(std::chrono::seconds(std::stoi(timeout_)) + 10s) {
    key_ = make_key(dir_.path() / "keys");
    for (std::size_t i = 0; i < count; ++i) {
      add();
    }
  }

  // add: one more service on the database, waited for until its /readyz says its pool is up
  // (at most 60 s); its port, 0 when it did not start.
  std::uint16_t add() {
    services_.push_back(std::make_unique<ServedPetstore>(petstore(serve_args(
        dir_.path() / "keys", {"--storage", "postgres", "--database-url", url_, "--threads", "2",
                               "--database-timeout", timeout_, "--storage-timeout", timeout_}))));
    const std::uint16_t port = services_.back()->port();
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (port != 0 && http_call(port, "GET", "/readyz").status != 200 &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(50ms);
    }
    return port;
  }

  [[nodiscard]] std::size_t size() const { return services_.size(); }
  [[nodiscard]] std::uint16_t port(std::size_t i) const { return services_.at(i)->port(); }
  [[nodiscard]] ServedPetstore& service(std::size_t i) { return *services_.at(i); }
  [[nodiscard]] PostgresServer& server() { return server_; }
  [[nodiscard]] const std::string& url() const { return url_; }
  [[nodiscard]] const std::string& key() const { return key_; }

  [[nodiscard]] RawResponse create(std::size_t i, const std::string& name,
                                   const std::string& idempotency_key = {}) const {
    Headers headers{{"Authorization", bearer(key_)},
                    {"Content-Type", "application/json"},
                    {"Connection", "close"}};
    if (!idempotency_key.empty()) {
      headers.emplace_back("Idempotency-Key", idempotency_key);
    }
    return call(i, format_request("POST", "/v1/pets", headers, pet_json(name)));
  }

  [[nodiscard]] RawResponse get(std::size_t i, std::int64_t id) const {
    return call(i, api_request("GET", "/v1/pets/" + std::to_string(id), key_));
  }

  // walk: every id a cursor walk (after=) through instance `i` lists, in order; nullopt when a
  // page failed.
  [[nodiscard]] std::optional<std::vector<std::int64_t>> walk(std::size_t i) const {
    std::vector<std::int64_t> ids;
    std::int64_t after = 0;
    for (;;) {
      const auto page =
          call(i, api_request("GET", "/v1/pets?limit=50&after=" + std::to_string(after), key_));
      if (page.status != 200) {
        return std::nullopt;
      }
      const auto found = ids_of(page.body);
      ids.insert(ids.end(), found.begin(), found.end());
      if (found.size() < 50) {
        return ids;
      }
      after = found.back();
    }
  }

 private:
  // call: `request` to instance `i`, waited for longer than the instance may take to answer it.
  [[nodiscard]] RawResponse call(std::size_t i, const std::string& request) const {
    return http_call(port(i), request, client_wait_);
  }

  PostgresServer server_;
  std::string url_;
  std::string timeout_;
  std::chrono::milliseconds client_wait_;
  TempDir dir_;
  std::string key_;
  std::vector<std::unique_ptr<ServedPetstore>> services_;
};

// Acknowledged: the ids of every 201 seen, from any thread.
class Acknowledged {
 public:
  void add(std::int64_t id) {
    const std::lock_guard lock(mutex_);
    ids_.push_back(id);
  }
  [[nodiscard]] std::vector<std::int64_t> ids() const {
    const std::lock_guard lock(mutex_);
    return ids_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::int64_t> ids_;
};

// expect_all_readable: every id is served by instance `i`, and a walk through it lists exactly
// `ids` (when `exactly`) or at least them, each once.
void expect_all_readable(const Instances& instances, std::size_t i, std::vector<std::int64_t> ids,
                         bool exactly) {
  for (const auto id : ids) {
    EXPECT_EQ(instances.get(i, id).status, 200U) << "pet " << id << " through instance " << i;
  }
  const auto walked = instances.walk(i);
  ASSERT_TRUE(walked) << "a page through instance " << i << " failed";
  EXPECT_TRUE(std::is_sorted(walked->begin(), walked->end()));
  EXPECT_EQ(std::adjacent_find(walked->begin(), walked->end()), walked->end())
      << "a walk listed a pet twice";
  std::sort(ids.begin(), ids.end());
  if (exactly) {
    EXPECT_EQ(*walked, ids) << "through instance " << i;
  } else {
    EXPECT_TRUE(std::includes(walked->begin(), walked->end(), ids.begin(), ids.end()))
        << "an acknowledged pet is missing from a walk through instance " << i;
  }
}

// eventually: polls `done` every 50 ms for at most `timeout`.
template <typename Done>
bool eventually(Done done, std::chrono::milliseconds timeout = 30s) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

class ManyInstances : public testing::TestWithParam<std::size_t> {};

TEST_P(ManyInstances, ConcurrentCreatesGetDistinctIdsInCommitOrderVisibleThroughEveryInstance) {
  Instances instances(GetParam());
  for (std::size_t i = 0; i < instances.size(); ++i) {
    ASSERT_NE(instances.port(i), 0) << "instance " << i << " did not start";
  }
  constexpr int clients = 12;
  constexpr int creates_each = 20;
  Acknowledged acknowledged;
  std::atomic<int> failures{0};
  std::atomic<bool> writing{true};
  std::atomic<int> order_violations{0};
  std::atomic<int> walks{0};
  // Readers: each walks through one instance again and again while the creates run. A pet that
  // appears in a walk must have an id above every id an earlier walk saw (commit order).
  std::vector<std::thread> readers;
  readers.reserve(instances.size());
  for (std::size_t r = 0; r < instances.size(); ++r) {
    readers.emplace_back([&, r] {
      std::set<std::int64_t> seen;
      while (writing) {
        const auto walked = instances.walk(r);
        if (!walked) {
          ++failures;
          ADD_FAILURE() << "a page through instance " << r << " failed";
          return;
        }
        const std::int64_t highest = seen.empty() ? 0 : *seen.rbegin();
        for (const auto id : *walked) {
          if (!seen.contains(id) && id < highest) {
            ++order_violations;
          }
        }
        seen.insert(walked->begin(), walked->end());
        ++walks;
      }
    });
  }
  std::vector<std::thread> writers;
  writers.reserve(clients);
  for (int c = 0; c < clients; ++c) {
    writers.emplace_back([&, c] {
      for (int n = 0; n < creates_each; ++n) {
        const std::size_t through = static_cast<std::size_t>(c + n) % instances.size();
        const auto created = instances.create(through, "pet " + std::to_string(c * 1000 + n));
        const auto id = id_of(created.body);
        if (created.status != 201 || !id) {
          ++failures;
          ADD_FAILURE() << "create through instance " << through << ": " << created;
          continue;
        }
        acknowledged.add(*id);
        // Visible at once through another instance.
        const std::size_t other = (through + 1) % instances.size();
        if (const auto got = instances.get(other, *id); got.status != 200) {
          ++failures;
          ADD_FAILURE() << "pet " << *id << " through instance " << other << ": " << got;
        }
      }
    });
  }
  for (auto& writer : writers) {
    writer.join();
  }
  writing = false;
  for (auto& reader : readers) {
    reader.join();
  }
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(order_violations.load(), 0) << "a walk saw a new id below one seen before";
  EXPECT_GT(walks.load(), 0);
  auto ids = acknowledged.ids();
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(clients * creates_each));
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << "an id was given twice";
  for (std::size_t i = 0; i < instances.size(); ++i) {
    expect_all_readable(instances, i, ids, true);
  }
}

std::string instances_name(const testing::TestParamInfo<std::size_t>& param_info) {
  return std::to_string(param_info.param) + "_instances";
}

INSTANTIATE_TEST_SUITE_P(PostgresInstances, ManyInstances, testing::Values(2U, 4U), instances_name);

TEST(PostgresInstances, OneIdempotencyKeySentToTwoInstancesAtOnceCreatesOnePet) {
  Instances instances(2);
  ASSERT_NE(instances.port(0), 0);
  ASSERT_NE(instances.port(1), 0);
  constexpr int rounds = 20;
  for (int round = 0; round < rounds; ++round) {
    const std::string key = "same-key-" + std::to_string(round);
    const std::string name = "twin " + std::to_string(round);
    std::barrier start(2);
    RawResponse answers[2];
    std::thread first([&] {
      start.arrive_and_wait();
      answers[0] = instances.create(0, name, key);
    });
    std::thread second([&] {
      start.arrive_and_wait();
      answers[1] = instances.create(1, name, key);
    });
    first.join();
    second.join();
    EXPECT_EQ(answers[0].status, 201U) << answers[0];
    EXPECT_EQ(answers[1].status, 201U) << answers[1];
    EXPECT_EQ(id_of(answers[0].body), id_of(answers[1].body)) << "round " << round;
  }
  const auto walked = instances.walk(1);
  ASSERT_TRUE(walked);
  EXPECT_EQ(walked->size(), static_cast<std::size_t>(rounds));
  // Each instance's petstore_pets_stored comes to count the pets both created (each scrape asks
  // the database, and shows what the scrape before was told).
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(eventually(
        [&] {
          return http_call(instances.port(i), "GET", "/metrics")
                     .body.find("\npetstore_pets_stored " + std::to_string(rounds) + "\n") !=
                 std::string::npos;
        },
        40s))
        << "instance " << i;
  }
}

// Load: client threads that create through the given instances until stopped, keeping every
// acknowledged id and counting the answers by status.
class Load {
 public:
  Load(const Instances& instances, const std::vector<std::size_t>& through, int clients = 6)
      : instances_(instances) {
    for (int c = 0; c < clients; ++c) {
      threads_.emplace_back([this, through, c] {
        for (int n = 0; running_; ++n) {
          const std::size_t i = through[static_cast<std::size_t>(c + n) % through.size()];
          const std::string name = "load " + std::to_string(c) + "." + std::to_string(n);
          const auto created = instances_.create(i, name);
          const std::lock_guard lock(mutex_);
          ++statuses_[created.status];
          const auto id = id_of(created.body);
          if (created.status == 201 && id) {
            acknowledged_.add(*id);
          } else {
            unacknowledged_names_.insert(name);
          }
          if (created.status == 503) {
            unavailable_bodies_.insert(created.body.find("\"unavailable\"") != std::string::npos);
          }
        }
      });
    }
  }
  Load(const Load&) = delete;
  Load& operator=(const Load&) = delete;
  ~Load() { stop(); }

  void stop() {
    running_ = false;
    for (auto& thread : threads_) {
      if (thread.joinable()) {
        thread.join();
      }
    }
  }

  [[nodiscard]] std::size_t count(unsigned status) {
    const std::lock_guard lock(mutex_);
    return statuses_[status];
  }
  [[nodiscard]] std::map<unsigned, std::size_t> statuses() {
    const std::lock_guard lock(mutex_);
    return statuses_;
  }
  [[nodiscard]] std::set<bool> unavailable_bodies() {
    const std::lock_guard lock(mutex_);
    return unavailable_bodies_;
  }
  [[nodiscard]] std::vector<std::int64_t> acknowledged() const { return acknowledged_.ids(); }
  // unacknowledged_names: the names of the creates answered anything but a 201 with an id.
  [[nodiscard]] std::set<std::string> unacknowledged_names() {
    const std::lock_guard lock(mutex_);
    return unacknowledged_names_;
  }

 private:
  const Instances& instances_;
  std::atomic<bool> running_{true};
  std::mutex mutex_;
  std::map<unsigned, std::size_t> statuses_;
  std::set<bool> unavailable_bodies_;
  std::set<std::string> unacknowledged_names_;
  Acknowledged acknowledged_;
  std::vector<std::thread> threads_;
};

// expect_none_lost_or_invented: through instance `i`, every pet the load acknowledged is served
// and walked, and any other pet a walk lists is a create the load got no 201 for, stored once.
// Such a create is allowed: one whose COMMIT was in flight when the database or an instance went
// away may have committed (docs/decisions/postgres-down-and-back.md).
void expect_none_lost_or_invented(const Instances& instances, std::size_t i, Load& load) {
  const auto acknowledged = load.acknowledged();
  expect_all_readable(instances, i, acknowledged, false);
  const auto walked = instances.walk(i);
  ASSERT_TRUE(walked) << "a page through instance " << i << " failed";
  const std::set<std::int64_t> known(acknowledged.begin(), acknowledged.end());
  const auto unacknowledged = load.unacknowledged_names();
  std::set<std::string> stored_unacknowledged;
  for (const auto id : *walked) {
    if (known.contains(id)) {
      continue;
    }
    const auto got = instances.get(i, id);
    ASSERT_EQ(got.status, 200U) << "pet " << id << " through instance " << i << ": " << got;
    const auto pet = parse_json(got.body);
    const auto* name = pet.is_object() ? pet.as_object().if_contains("name") : nullptr;
    ASSERT_TRUE(name != nullptr && name->is_string()) << "pet " << id << " has no name";
    const std::string text(name->as_string());
    EXPECT_TRUE(unacknowledged.contains(text))
        << "pet " << id << " (" << text << ") is neither acknowledged nor a create that failed";
    EXPECT_TRUE(stored_unacknowledged.insert(text).second) << text << " was stored twice";
  }
}

TEST(PostgresInstances, TheDatabaseStoppedAndStartedUnderLoadLosesNoAcknowledgedPet) {
  Instances instances(2, "2");
  ASSERT_NE(instances.port(0), 0);
  ASSERT_NE(instances.port(1), 0);
  Load load(instances, {0, 1});
  ASSERT_TRUE(eventually([&] { return load.count(201) >= 50; })) << "no creates succeeded";

  instances.server().stop();
  const std::size_t before_503 = load.count(503);
  EXPECT_TRUE(eventually([&] { return load.count(503) >= before_503 + 10; }))
      << "creates did not answer 503 while the database was down";
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(eventually([&] {
      return http_call(instances.port(i), "GET", "/readyz").status == 503;
    })) << "/readyz of instance "
        << i << " stayed ready";
    EXPECT_EQ(instances.get(i, 1).status, 503U);
  }

  instances.server().start();
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(eventually([&] {
      return http_call(instances.port(i), "GET", "/readyz").status == 200;
    })) << "instance "
        << i << " did not become ready again";
  }
  const std::size_t before_201 = load.count(201);
  EXPECT_TRUE(eventually([&] { return load.count(201) >= before_201 + 50; }))
      << "creates did not succeed again";
  load.stop();

  for (const auto& [status, count] : load.statuses()) {
    EXPECT_TRUE(status == 201 || status == 503) << count << " answers of status " << status;
  }
  EXPECT_EQ(load.unavailable_bodies(), std::set<bool>{true}) << "a 503 was not `unavailable`";
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(instances.service(i).child().running()) << "instance " << i << " exited";
    expect_none_lost_or_invented(instances, i, load);
  }
}

TEST(PostgresInstances, KillingOneInstanceUnderLoadLosesNoAcknowledgedPet) {
  Instances instances(2, "2");
  ASSERT_NE(instances.port(0), 0);
  ASSERT_NE(instances.port(1), 0);
  Load load(instances, {0, 1});
  ASSERT_TRUE(eventually([&] { return load.count(201) >= 100; })) << "no creates succeeded";
  ASSERT_TRUE(instances.service(0).child().send_signal(SIGKILL));
  (void)instances.service(0).child().wait_for_exit(10s);
  const std::size_t before = load.count(201);
  EXPECT_TRUE(eventually([&] { return load.count(201) >= before + 50; }))
      << "the other instance stopped creating";
  load.stop();
  // Every 201 any client saw, from the killed instance too, is served by the survivor; a create
  // the killed instance never answered may or may not exist, so the walk may list more.
  expect_none_lost_or_invented(instances, 1, load);
}

}  // namespace
}  // namespace petstore::tests
