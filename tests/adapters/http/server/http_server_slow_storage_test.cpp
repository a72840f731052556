// Storage that is slow, silent or loses a completion, seen over real sockets: with one server
// thread, a read that storage holds for 2 s delays only the request that waits for it (probes,
// metrics and other connections are answered meanwhile); past the storage timeout the request is
// answered 503 (with Retry-After) and the late answer is dropped; a completion that storage drops
// uncalled answers unavailable (ports/completion.hpp): a 503; the header timeout does not cut a
// slow answer short.
// Nothing here times a response: order of arrival says what waited for what.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

enum class ReadFate { delayed, dropped };

// StalledReads: memory storage whose reads complete on its own thread after `delay`, or whose
// read completions are dropped uncalled. Creates and counts pass straight through. Destroying it
// completes what is still waiting, as the port requires.
class StalledReads final : public ports::PetRepository {
 public:
  StalledReads(ReadFate fate, std::chrono::milliseconds delay)
      : fate_(fate), delay_(delay), worker_([this] { run(); }) {}
  StalledReads(const StalledReads&) = delete;
  StalledReads& operator=(const StalledReads&) = delete;
  ~StalledReads() override {
    {
      const std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }

  void create(ports::CreatePetCommand command, CreateDone done) override {
    inner_->create(std::move(command), std::move(done));
  }
  void get(domain::PetId id, GetDone done) const override {
    // Shared, so that the task is copyable; its one call moves the completion on.
    later([this, id, done = std::make_shared<GetDone>(std::move(done))] {
      inner_->get(id, std::move(*done));
    });
  }
  void list(ports::PetQuery query, ListDone done) const override {
    later([this, query, done = std::make_shared<ListDone>(std::move(done))] {
      inner_->list(query, std::move(*done));
    });
  }
  void count(CountDone done) const override { inner_->count(std::move(done)); }

 private:
  void later(std::function<void()> call) const {
    if (fate_ == ReadFate::dropped) {
      return;  // `call`, and the completion inside it, is destroyed uncalled
    }
    const std::lock_guard lock(mutex_);
    due_.emplace_back(std::chrono::steady_clock::now() + delay_, std::move(call));
    changed_.notify_all();
  }

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (due_.empty()) {
        if (stopping_) {
          return;
        }
        changed_.wait(lock);
        continue;
      }
      if (!stopping_ && std::chrono::steady_clock::now() < due_.front().first) {
        changed_.wait_until(lock, due_.front().first);
        continue;
      }
      auto call = std::move(due_.front().second);
      due_.pop_front();
      lock.unlock();
      call();
      lock.lock();
    }
  }

  const ReadFate fate_;
  const std::chrono::milliseconds delay_;
  std::unique_ptr<ports::PetRepository> inner_ =
      adapters::storage::memory::make_memory_pet_repository();
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  mutable std::deque<std::pair<std::chrono::steady_clock::time_point, std::function<void()>>> due_;
  bool stopping_ = false;
  std::thread worker_;  // last: it starts once everything it uses exists
};

ServerSetup stalled(ReadFate fate, std::chrono::milliseconds delay,
                    std::chrono::milliseconds storage_timeout) {
  ServerSetup setup;
  setup.threads = 1;
  setup.limits.storage_timeout = storage_timeout;
  setup.make_pets = [fate, delay] { return std::make_unique<StalledReads>(fate, delay); };
  return setup;
}

const Headers key_a{{"Authorization", bearer(test_key_a)}};

TEST(HttpServerSlowStorage, ASlowReadDelaysOnlyTheRequestThatWaitsForIt) {
  ServerUnderTest server(stalled(ReadFate::delayed, 2s, 30s));
  RawConnection waiting = server.connect();
  ASSERT_TRUE(waiting.send(format_request("GET", "/v1/pets", key_a)));
  RawConnection other = server.connect();
  EXPECT_EQ(other.round_trip(format_request("GET", "/healthz"), 1500ms).status, 200U);
  EXPECT_EQ(other.round_trip(format_request("GET", "/readyz"), 1500ms).status, 200U);
  EXPECT_EQ(server.connect().round_trip(format_request("GET", "/healthz"), 1500ms).status, 200U);
  const auto created = other.round_trip(
      format_request("POST", "/v1/pets",
                     {{"Authorization", bearer(test_key_a)}, {"Content-Type", "application/json"}},
                     R"({"name":"Rex","categoryId":7})"),
      1500ms);
  EXPECT_EQ(created.status, 201U);  // creates do not wait for the stalled reads
  // Only now does the stalled list come back, with the pet created meanwhile.
  const RawResponse page = waiting.read_response(10s);
  EXPECT_EQ(page.status, 200U);
  EXPECT_EQ(page.body, R"([{"id":1,"name":"Rex","categoryId":7,"status":"available"}])");
}

// The deadlines of a request's reading (here a 300 ms header timeout) end once it has been read:
// the storage wait is held to the storage timeout alone.
TEST(HttpServerSlowStorage, AnAnswerSlowerThanTheHeaderTimeoutStillComes) {
  ServerSetup setup = stalled(ReadFate::delayed, 800ms, 30s);
  setup.limits.header_timeout = 300ms;
  setup.limits.body_timeout = 300ms;
  ServerUnderTest server(setup);
  RawConnection connection = server.connect();
  const RawResponse page = connection.round_trip(format_request("GET", "/v1/pets", key_a), 5s);
  EXPECT_EQ(page.status, 200U);
  EXPECT_EQ(page.body, "[]");
}

TEST(HttpServerSlowStorage, PastTheStorageTimeoutTheAnswerIs503AndTheLateOneIsDropped) {
  ServerUnderTest server(stalled(ReadFate::delayed, 1s, 200ms));
  RawConnection connection = server.connect();
  const RawResponse late = connection.round_trip(format_request("GET", "/v1/pets/1", key_a), 5s);
  EXPECT_EQ(late.status, 503U);
  EXPECT_TRUE(is_error_body(late.body, 503, "unavailable"));
  EXPECT_EQ(late.header("Cache-Control"), "no-store");
  EXPECT_EQ(late.header("Retry-After"), "1");  // contract section 11: every 503
  EXPECT_EQ(late.count("Retry-After"), 1U);
  // The connection goes on; the read's own answer, when it comes, goes nowhere.
  std::this_thread::sleep_for(1200ms);
  EXPECT_EQ(connection.round_trip(format_request("GET", "/healthz"), 5s).status, 200U);
  EXPECT_EQ(connection.round_trip(format_request("GET", "/v1/pets", key_a), 5s).status, 503U);
}

TEST(HttpServerSlowStorage, ACompletionDroppedUncalledIsAnswered503) {
  ServerUnderTest server(stalled(ReadFate::dropped, 0ms, 30s));
  RawConnection connection = server.connect();
  const RawResponse lost = connection.round_trip(format_request("GET", "/v1/pets", key_a), 5s);
  EXPECT_EQ(lost.status, 503U);
  EXPECT_TRUE(is_error_body(lost.body, 503, "unavailable"));
  EXPECT_EQ(connection.round_trip(format_request("GET", "/healthz"), 5s).status, 200U);
}

}  // namespace
}  // namespace petstore::tests
