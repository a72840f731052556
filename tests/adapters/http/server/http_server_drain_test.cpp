// HttpServer::drain and wait_until_idle (the graceful stop of contract section 7): idle
// connections close at once, a request in flight is still answered (with Connection: close),
// no new connection is served, and the server then reports itself idle. When the drain runs out
// of time, refuse_waiting_requests answers what still waits for storage 503, and closes.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

// HeldStorage: storage that answers no create, get or list while the test lasts: each request
// that reaches it waits until the server stops waiting. Its destruction drops the completions,
// which answers them unavailable (ports/completion.hpp). Counts pass through.
class HeldStorage final : public ports::PetRepository {
 public:
  HeldStorage() = default;
  HeldStorage(const HeldStorage&) = delete;
  HeldStorage& operator=(const HeldStorage&) = delete;
  ~HeldStorage() override {
    const std::lock_guard lock(mutex_);
    creates_.clear();
    gets_.clear();
    lists_.clear();
  }

  void create(ports::CreatePetCommand /*command*/, CreateDone done) override {
    hold(creates_, std::move(done));
  }
  void get(domain::PetId /*id*/, GetDone done) const override { hold(gets_, std::move(done)); }
  void list(ports::PetQuery /*query*/, ListDone done) const override {
    hold(lists_, std::move(done));
  }
  void count(CountDone done) const override { inner_->count(std::move(done)); }

  // wait_until_holding: true once `calls` calls wait here, false when `timeout` passes first.
  bool wait_until_holding(std::size_t calls, std::chrono::milliseconds timeout) const {
    std::unique_lock lock(mutex_);
    return held_.wait_for(lock, timeout,
                          [&] { return creates_.size() + gets_.size() + lists_.size() >= calls; });
  }

 private:
  template <class Done>
  void hold(std::vector<Done>& held, Done done) const {
    const std::lock_guard lock(mutex_);
    held.push_back(std::move(done));
    held_.notify_all();
  }

  std::unique_ptr<ports::PetRepository> inner_ =
      adapters::storage::memory::make_memory_pet_repository();
  mutable std::mutex mutex_;
  mutable std::condition_variable held_;
  mutable std::vector<CreateDone> creates_;
  mutable std::vector<GetDone> gets_;
  mutable std::vector<ListDone> lists_;
};

// held_storage: a server on HeldStorage (`storage` points at it) whose storage timeout outlasts
// any test, so that only the server's refusal can answer a request that waits.
ServerSetup held_storage(HeldStorage*& storage) {
  ServerSetup setup;
  setup.limits.storage_timeout = 600s;
  setup.make_pets = [&storage] {
    auto made = std::make_unique<HeldStorage>();
    storage = made.get();
    return made;
  };
  return setup;
}

// expect_refused_for_stop: `response` is the 503 of a stopping server, the connection's last.
void expect_refused_for_stop(const RawResponse& response) {
  EXPECT_EQ(response.status, 503U) << response;
  EXPECT_TRUE(is_error_body(response.body, 503, "unavailable", "the service is stopping"));
  EXPECT_EQ(response.header("Retry-After"), "1");  // contract section 11: every 503
  EXPECT_EQ(response.header("Connection"), "close");
}

TEST(HttpServerDrain, ClosesIdleConnectionsAndAnswersTheRequestInFlight) {
  ServerUnderTest server;
  RawConnection idle = server.connect();
  ASSERT_EQ(idle.round_trip(format_request("GET", "/healthz")).status, 200U);

  // The interim 100 Continue proves that the server has read the head and waits for the body:
  // the request is in flight, deterministically.
  RawConnection busy = server.connect();
  const std::string body = R"({"name":"Rex","categoryId":7})";
  std::string head = format_request("POST", "/v1/pets",
                                    {{"Authorization", bearer(test_key_a)},
                                     {"Content-Type", "application/json"},
                                     {"Expect", "100-continue"}},
                                    body);
  head.resize(head.size() - body.size());
  ASSERT_TRUE(busy.send(head));
  ASSERT_EQ(busy.read_response(5s).status, 100U);

  server.server().drain();

  EXPECT_EQ(idle.read_until_closed(5s), "") << "an idle connection stays open while draining";
  ASSERT_TRUE(busy.send(body));
  const RawResponse created = busy.read_response(5s);
  EXPECT_EQ(created.status, 201U);
  EXPECT_TRUE(is_pet_body(created.body, "Rex", 7, "available"));
  EXPECT_EQ(created.header("Connection"), "close");
  EXPECT_EQ(busy.read_until_closed(5s), "");
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

TEST(HttpServerDrain, NewConnectionsAreNotServedOnceDraining) {
  ServerUnderTest server;
  server.server().drain();
  ASSERT_TRUE(server.server().wait_until_idle(5s));
  auto late = RawConnection::try_connect(server.address());
  if (late) {  // accepted by the kernel before the listener closed: it must be closed unanswered
    late->send(format_request("GET", "/healthz"));
    EXPECT_TRUE(late->read_until_closed(5s));
  }
}

TEST(HttpServerDrain, WaitUntilIdleTimesOutWhileAConnectionIsOpen) {
  ServerUnderTest server;
  RawConnection connection = server.connect();
  ASSERT_EQ(connection.round_trip(format_request("GET", "/healthz")).status, 200U);
  EXPECT_FALSE(server.server().wait_until_idle(200ms));
}

// Before refuse_waiting_requests, such a request kept the drain waiting until the server's stop
// cut its connection without a word.
TEST(HttpServerDrain, ARequestWaitingForStorageWhenTheDrainRunsOutIsRefused503) {
  HeldStorage* storage = nullptr;
  ServerUnderTest server(held_storage(storage));
  RawConnection waiting = server.connect();
  ASSERT_TRUE(
      waiting.send(format_request("GET", "/v1/pets", {{"Authorization", bearer(test_key_a)}})));
  ASSERT_TRUE(storage->wait_until_holding(1, 5s));

  server.server().drain();
  EXPECT_FALSE(server.server().wait_until_idle(200ms)) << "the request in flight holds the drain";
  server.server().refuse_waiting_requests();

  expect_refused_for_stop(waiting.read_response(5s));
  EXPECT_EQ(waiting.read_until_closed(5s), "");
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

// A request whose body was still arriving when the server stopped waiting is refused as soon as
// it would wait for storage, not after the storage timeout.
TEST(HttpServerDrain, ARequestThatWouldWaitAfterTheRefusalIsRefusedAtOnce) {
  HeldStorage* storage = nullptr;
  ServerUnderTest server(held_storage(storage));
  RawConnection late = server.connect();
  const std::string body = R"({"name":"Rex","categoryId":7})";
  std::string head = format_request("POST", "/v1/pets",
                                    {{"Authorization", bearer(test_key_a)},
                                     {"Content-Type", "application/json"},
                                     {"Expect", "100-continue"}},
                                    body);
  head.resize(head.size() - body.size());
  ASSERT_TRUE(late.send(head));
  ASSERT_EQ(late.read_response(5s).status, 100U);  // read, and waiting for its body

  server.server().drain();
  server.server().refuse_waiting_requests();
  ASSERT_TRUE(late.send(body));

  expect_refused_for_stop(late.read_response(5s));
  EXPECT_EQ(late.read_until_closed(5s), "");
  EXPECT_TRUE(storage->wait_until_holding(1, 0ms)) << "the create did reach storage";
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

}  // namespace
}  // namespace petstore::tests
