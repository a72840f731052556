// Failover (contract section 10) through the real binary: a primary and a synchronous standby of
// the test's own (tests/support/postgres_server, Unix sockets only), one `petstore serve` with a
// multi-host --database-url (target_session_attrs=read-write). Under load with Idempotency-Keys
// the primary is lost (an immediate stop) and the standby promoted; no acknowledged pet is lost,
// a key never makes two pets, a retry gives back the stored pet, creates are served again within
// 10 s of the promotion, and /readyz goes 503 and comes back.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <boost/json/value.hpp>
#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"
#include "support/postgres_server.hpp"
#include "support/raw_http_request.hpp"

#include "serve_support.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr auto client_wait = 15s;  // longer than the service's 2 s storage deadline

RawResponse create(std::uint16_t port, const std::string& key, const std::string& idempotency) {
  return http_call(port,
                   format_request("POST", "/v1/pets",
                                  {{"Authorization", bearer(key)},
                                   {"Content-Type", "application/json"},
                                   {"Idempotency-Key", idempotency},
                                   {"Connection", "close"}},
                                  pet_json(idempotency)),
                   client_wait);
}

// KeyedLoad: client threads that create pets named after fresh Idempotency-Keys, each retried
// with the same key and body after a 503 or a lost connection until a 201 (at most 90 s a key).
class KeyedLoad {
 public:
  KeyedLoad(std::uint16_t port, std::string key, int clients) : port_(port), key_(std::move(key)) {
    for (int c = 0; c < clients; ++c) {
      threads_.emplace_back([this, c] {
        for (int n = 0; running_; ++n) {
          create_until_acknowledged("failover-" + std::to_string(c) + "-" + std::to_string(n));
        }
      });
    }
  }
  KeyedLoad(const KeyedLoad&) = delete;
  KeyedLoad& operator=(const KeyedLoad&) = delete;
  ~KeyedLoad() { stop(); }

  // stop: no new keys; the keys in flight are retried to their end.
  void stop() {
    running_ = false;
    for (auto& thread : threads_) {
      if (thread.joinable()) {
        thread.join();
      }
    }
  }

  [[nodiscard]] std::size_t acknowledged_count() {
    const std::lock_guard lock(mutex_);
    return acknowledged_.size();
  }
  // first_201_after: the time of the first 201 that came after `when`, if any.
  [[nodiscard]] std::optional<Clock::time_point> first_201_after(Clock::time_point when) {
    const std::lock_guard lock(mutex_);
    for (const auto at : answered_at_) {
      if (at > when) {
        return at;
      }
    }
    return std::nullopt;
  }
  [[nodiscard]] std::map<std::string, std::int64_t> acknowledged() {
    const std::lock_guard lock(mutex_);
    return acknowledged_;
  }
  [[nodiscard]] std::size_t retries() const { return retries_; }
  [[nodiscard]] std::vector<std::string> problems() {
    const std::lock_guard lock(mutex_);
    return problems_;
  }

 private:
  void create_until_acknowledged(const std::string& idempotency) {
    const auto deadline = Clock::now() + 90s;
    for (;;) {
      const auto answer = create(port_, key_, idempotency);
      const std::lock_guard lock(mutex_);
      if (answer.status == 201 && pet_id_of(answer.body) > 0) {
        acknowledged_[idempotency] = pet_id_of(answer.body);
        answered_at_.push_back(Clock::now());
        return;
      }
      if (answer.status != 503 && answer.status != 0) {
        problems_.push_back(idempotency + ": " + std::to_string(answer.status) + " " + answer.body);
        return;
      }
      if (Clock::now() >= deadline) {
        problems_.push_back(idempotency + ": no 201 within 90 s");
        return;
      }
      ++retries_;
      std::this_thread::sleep_for(100ms);
    }
  }

  std::uint16_t port_;
  std::string key_;
  std::atomic<bool> running_{true};
  std::atomic<std::size_t> retries_{0};
  std::mutex mutex_;
  std::map<std::string, std::int64_t> acknowledged_;  // Idempotency-Key -> id of its 201
  std::vector<Clock::time_point> answered_at_;        // in the order the 201s came
  std::vector<std::string> problems_;
  std::vector<std::thread> threads_;
};

// stored_pets: name -> every id a cursor walk lists under it; nullopt when a page failed.
std::optional<std::map<std::string, std::vector<std::int64_t>>> stored_pets(
    std::uint16_t port, const std::string& key) {
  std::map<std::string, std::vector<std::int64_t>> pets;
  std::int64_t after = 0;
  for (;;) {
    const auto page = http_call(
        port, api_request("GET", "/v1/pets?limit=100&after=" + std::to_string(after), key),
        client_wait);
    const auto parsed = parse_json(page.body);
    if (page.status != 200 || !parsed.is_array()) {
      return std::nullopt;
    }
    for (const auto& pet : parsed.as_array()) {
      const auto& object = pet.as_object();
      after = object.at("id").to_number<std::int64_t>();
      pets[std::string(object.at("name").as_string())].push_back(after);
    }
    if (parsed.as_array().size() < 100) {
      return pets;
    }
  }
}

// Resolutions: batches whose COMMIT's answer was lost, by the outcome their resolution learned.
using Resolutions = std::map<std::string, std::uint64_t>;

// resolutions_counted: petstore_storage_commit_outcomes_resolved_total{outcome} from /metrics,
// and petstore_log_lines_dropped_total (under "" when present).
Resolutions resolutions_counted(std::uint16_t port) {
  const auto metrics = http_call(port, "GET", "/metrics");
  const std::string name = "petstore_storage_commit_outcomes_resolved_total{outcome=\"";
  Resolutions counted;
  for (auto at = metrics.body.find(name); at != std::string::npos;
       at = metrics.body.find(name, at + 1)) {
    const auto closing = metrics.body.find("\"} ", at + name.size());
    const auto end = metrics.body.find('\n', closing);
    counted[metrics.body.substr(at + name.size(), closing - at - name.size())] =
        std::stoull(metrics.body.substr(closing + 3, end - closing - 3));
  }
  const std::string dropped = "\npetstore_log_lines_dropped_total ";
  if (const auto at = metrics.body.find(dropped); at != std::string::npos) {
    counted[""] = std::stoull(metrics.body.substr(at + dropped.size()));
  }
  return counted;
}

// resolutions_logged: the service's storage_commit_resolved lines (JSON), by their outcome.
Resolutions resolutions_logged(const std::string& out) {
  Resolutions logged;
  for (std::size_t at = 0, end = 0; at < out.size(); at = end + 1) {
    end = std::min(out.find('\n', at), out.size());
    const auto line = parse_json(std::string_view(out).substr(at, end - at));
    if (line.is_object() && line.as_object().contains("event") &&
        line.as_object().at("event") == "storage_commit_resolved") {
      const auto* outcome = line.as_object().if_contains("outcome");
      ++logged[outcome != nullptr && outcome->is_string() ? std::string(outcome->as_string())
                                                          : "(none)"];
    }
  }
  return logged;
}

// agree: `logged` has each outcome `counted` has, as many times (outcomes never seen aside).
bool agree(Resolutions counted, const Resolutions& logged) {
  counted.erase("");
  std::erase_if(counted, [](const auto& entry) { return entry.second == 0; });
  return counted == logged;
}

// describe: "committed N, not_committed N, unknown N".
std::string describe(const Resolutions& resolutions) {
  std::string out;
  for (const auto& [outcome, count] : resolutions) {
    if (!outcome.empty()) {
      out += (out.empty() ? "" : ", ") + outcome + " " + std::to_string(count);
    }
  }
  return out;
}

TEST(PostgresFailover, ThePrimaryLostAndTheStandbyPromotedLosesNoPetAndServesAgainWithin10s) {
  PostgresServer primary;
  const std::string database = primary.create_database();
  PostgresServer standby(PostgresServer::StandbyOf{primary});
  primary.make_synchronous();
  const std::string url = "postgresql:///" + database + "?host=" + primary.socket_dir().string() +
                          "," + standby.socket_dir().string() +
                          "&user=petstore&target_session_attrs=read-write";
  TempDir dir;
  const std::string key = make_key(dir.path() / "keys");
  ServedPetstore service(petstore(
      serve_args(dir.path() / "keys",
                 postgres_flags(url, {"--database-timeout", "2", "--storage-timeout", "2"}))));
  ASSERT_NE(service.port(), 0);
  ASSERT_TRUE(wait_for_readiness(service.port(), 200, 60s));

  KeyedLoad load(service.port(), key, 4);
  const auto started = Clock::now();
  while (load.acknowledged_count() < 40 && Clock::now() - started < 60s) {
    std::this_thread::sleep_for(50ms);
  }
  ASSERT_GE(load.acknowledged_count(), 40U) << "creates did not succeed before the loss";

  primary.lose();
  EXPECT_TRUE(wait_for_readiness(service.port(), 503, 30s)) << "/readyz stayed 200";
  std::this_thread::sleep_for(1s);  // creates meet the lost primary a while
  standby.promote();
  const auto promoted_at = Clock::now();
  std::chrono::milliseconds ready_after{};
  EXPECT_TRUE(wait_for_readiness(service.port(), 200, 30s, &ready_after))
      << "/readyz did not come back";
  std::optional<Clock::time_point> first_201;
  while (!(first_201 = load.first_201_after(promoted_at)) && Clock::now() - promoted_at < 30s) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(first_201) << "no create succeeded within 30 s of the promotion";
  const auto served_after =
      std::chrono::duration_cast<std::chrono::milliseconds>(*first_201 - promoted_at);
  EXPECT_LT(served_after, 10s) << "creates served again only after " << served_after.count();
  const std::size_t before = load.acknowledged_count();
  while (load.acknowledged_count() < before + 40 && Clock::now() - promoted_at < 60s) {
    std::this_thread::sleep_for(50ms);
  }
  load.stop();
  // Every resolution is counted once under one of the three outcomes and logged once with it.
  // Each is counted before its line is queued, so the lines are waited for a while; a line
  // dropped by a full log queue (counted too) only makes the log fall short.
  Resolutions counted = resolutions_counted(service.port());
  Resolutions logged = resolutions_logged(service.child().captured_stdout());
  for (const auto until = Clock::now() + 5s; !agree(counted, logged) && Clock::now() < until;) {
    std::this_thread::sleep_for(50ms);
    counted = resolutions_counted(service.port());
    logged = resolutions_logged(service.child().captured_stdout());
  }
  std::cout << "failover: first 201 " << served_after.count() << " ms and /readyz 200 "
            << ready_after.count() << " ms after the promotion; " << load.acknowledged_count()
            << " pets acknowledged, " << load.retries() << " retries; batches in doubt resolved "
            << describe(counted) << " (logged: " << describe(logged) << ")\n";
  for (const char* outcome : {"committed", "not_committed", "unknown"}) {
    ASSERT_TRUE(counted.contains(outcome)) << "no resolution metric for " << outcome;
    if (counted.contains("") && counted.at("") > 0) {
      EXPECT_LE(logged[outcome], counted.at(outcome)) << outcome << " logged more than counted";
    } else {
      EXPECT_EQ(logged[outcome], counted.at(outcome)) << outcome << " counted and logged apart";
    }
  }
  EXPECT_EQ(counted.size(), 3U + (counted.contains("") ? 1U : 0U)) << describe(counted);
  EXPECT_EQ(logged.size(), 3U) << "a resolution logged with another outcome: " << describe(logged);

  EXPECT_TRUE(load.problems().empty()) << load.problems().front();
  const auto acknowledged = load.acknowledged();
  const auto stored = stored_pets(service.port(), key);
  ASSERT_TRUE(stored) << "a page of the walk failed";
  for (const auto& [idempotency, id] : acknowledged) {
    const auto found = stored->find(idempotency);
    ASSERT_NE(found, stored->end())
        << "acknowledged pet " << id << " (" << idempotency << ") was lost";
    EXPECT_EQ(found->second, std::vector<std::int64_t>{id}) << idempotency << " made other pets";
  }
  for (const auto& [name, ids] : *stored) {
    EXPECT_EQ(ids.size(), 1U) << name << " was stored " << ids.size() << " times";
  }
  // A retry now, with the same key and body, gives back the stored pet.
  for (const auto& [idempotency, id] : acknowledged) {
    const auto again = create(service.port(), key, idempotency);
    EXPECT_EQ(again.status, 201U) << again;
    EXPECT_EQ(pet_id_of(again.body), id) << idempotency;
  }
}

}  // namespace
}  // namespace petstore::tests
