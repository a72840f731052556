// The rules HTTP/2 shares with HTTP/1.1 beyond the router, over real h2c connections: the throttle
// of failed authentications counts each stream of a connection, behind a trusted proxy by the
// forwarded client (X-Forwarded-For); --max-connections closes a connection over the cap before
// it is read, whatever it would have spoken; a connection that rests is closed after the idle
// timeout; and a drain sends GOAWAY, answers the streams in flight, then closes.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <nghttp2/nghttp2.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "support/fake_key_verifier.hpp"
#include "support/h2_client.hpp"
#include "support/json_bodies.hpp"
#include "support/server_under_test.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

H2Request list_pets(std::string_view key, std::string_view forwarded_for = {}) {
  H2Fields fields{{"authorization", bearer(key)}};
  if (!forwarded_for.empty()) {
    fields.emplace_back("x-forwarded-for", std::string(forwarded_for));
  }
  return H2Request{"GET", "/v1/pets", std::move(fields), {}};
}

// Streams are not connections: the sixth bad key of a minute is throttled though all six share
// one connection, and the 429 has the Error body and Retry-After, as over HTTP/1.1.
TEST(Http2ConnectionRules, TheSixthBadKeyOnOneConnectionIs429) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 5;
  ServerUnderTest server(setup);
  H2Client client = H2Client::connect(server.address());
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(client.send(list_pets("not-a-key")).status, 401U) << "attempt " << attempt;
  }
  const H2Response throttled = client.send(list_pets("not-a-key"));
  EXPECT_EQ(throttled.status, 429U);
  EXPECT_TRUE(is_error_body(throttled.body, 429, "too_many_requests")) << throttled.body;
  EXPECT_EQ(throttled.field("retry-after"), "12");  // five a minute: a token every 12 s
  EXPECT_EQ(client.send(list_pets(test_key_a)).status, 200U) << "a good key is never throttled";
}

// Behind a trusted proxy, one connection carries many clients: each forwarded client has its own
// budget, and a forged first entry changes nothing.
TEST(Http2ConnectionRules, BehindATrustedProxyEachForwardedClientHasItsOwnBudget) {
  ServerSetup setup;
  setup.settings.auth_failures_per_minute = 5;
  setup.settings.trusted_proxies = *adapters::http::TrustedProxies::parse("127.0.0.1/32");
  ServerUnderTest server(setup);
  H2Client proxy = H2Client::connect(server.address());
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(proxy.send(list_pets("not-a-key", "203.0.113.9")).status, 401U);
  }
  EXPECT_EQ(proxy.send(list_pets("not-a-key", "203.0.113.9")).status, 429U);
  EXPECT_EQ(proxy.send(list_pets("not-a-key", "198.51.100.1, 203.0.113.9")).status, 429U);
  EXPECT_EQ(proxy.send(list_pets("not-a-key", "203.0.113.10")).status, 401U)
      << "another client behind the same proxy has its own budget";
}

TEST(Http2ConnectionRules, AConnectionOverTheCapIsClosedBeforeItIsRead) {
  adapters::http::HttpLimits limits;
  limits.max_connections = 1;
  ServerUnderTest server(limits);
  H2Client first = H2Client::connect(server.address());
  EXPECT_EQ(first.send(list_pets(test_key_a)).status, 200U);
  RawConnection over = server.connect();
  (void)over.send(std::string(h2_preface) + h2_frame(h2::settings, 0, 0, {}));
  const auto received = over.read_until_closed(5s);
  ASSERT_TRUE(received.has_value()) << "the connection over the cap is still open";
  EXPECT_EQ(*received, "") << "not one frame for a connection over the cap";
  EXPECT_EQ(first.send(list_pets(test_key_a)).status, 200U) << "the first still serves";
}

// A connection that has been served and then sends nothing is closed after the idle timeout, as
// an HTTP/1.1 keep-alive connection is.
TEST(Http2ConnectionRules, AServedConnectionThatRestsIsClosedAfterTheIdleTimeout) {
  adapters::http::HttpLimits limits;
  limits.idle_timeout = 300ms;
  ServerUnderTest server(limits);
  H2Client client = H2Client::connect(server.address());
  EXPECT_EQ(client.send(list_pets(test_key_a)).status, 200U);
  const auto rested = std::chrono::steady_clock::now();
  EXPECT_TRUE(client.run_until_closed(5s)) << "still open 5 s after its last request";
  EXPECT_GE(std::chrono::steady_clock::now() - rested, 250ms) << "closed before the idle timeout";
}

// GatedCreates: memory storage whose creates wait until `open` (reads pass at once).
class GatedCreates final : public ports::PetRepository {
 public:
  void create(ports::CreatePetCommand command, CreateDone done) override {
    std::unique_lock lock(mutex_);
    held_.emplace_back(std::move(command), std::move(done));
    changed_.notify_all();
  }
  void get(domain::PetId id, GetDone done) const override { inner_->get(id, std::move(done)); }
  void list(ports::PetQuery query, ListDone done) const override {
    inner_->list(query, std::move(done));
  }
  void count(CountDone done) const override { inner_->count(std::move(done)); }

  bool wait_until_holding(std::size_t creates, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return held_.size() >= creates; });
  }
  // open: the creates held so far go to storage and are answered.
  void open() {
    std::vector<std::pair<ports::CreatePetCommand, CreateDone>> held;
    {
      const std::lock_guard lock(mutex_);
      held.swap(held_);
    }
    for (auto& [command, done] : held) {
      inner_->create(std::move(command), std::move(done));
    }
  }

 private:
  std::unique_ptr<ports::PetRepository> inner_ =
      adapters::storage::memory::make_memory_pet_repository();
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::pair<ports::CreatePetCommand, CreateDone>> held_;
};

// Contract section 7 over HTTP/2: the drain sends GOAWAY(NO_ERROR) (RFC 9113 section 6.8), the
// streams already taken are still answered, and the connection closes after them.
TEST(Http2ConnectionRules, ADrainAnswersTheStreamsInFlightThenCloses) {
  GatedCreates* storage = nullptr;
  ServerSetup setup;
  setup.make_pets = [&storage] {
    auto made = std::make_unique<GatedCreates>();
    storage = made.get();
    return made;
  };
  ServerUnderTest server(setup);
  H2Client client = H2Client::connect(server.address());
  const H2Fields fields{{"authorization", bearer(test_key_a)},
                        {"content-type", "application/json"}};
  const std::vector<H2Request> creates(
      3, H2Request{"POST", "/v1/pets", fields, R"({"name":"Rex","categoryId":7})"});
  std::vector<H2Response> answers;
  std::thread sender([&] { answers = client.send_all(creates); });
  const bool held = storage->wait_until_holding(creates.size(), 10s);
  server.server().drain();
  storage->open();
  sender.join();
  ASSERT_TRUE(held) << "the creates never reached storage";
  ASSERT_EQ(answers.size(), creates.size());
  for (const H2Response& answer : answers) {
    EXPECT_EQ(answer.status, 201U) << answer.body;
  }
  EXPECT_TRUE(client.run_until_closed(5s));
  EXPECT_EQ(client.goaway(), NGHTTP2_NO_ERROR);
  EXPECT_TRUE(server.server().wait_until_idle(5s));
}

}  // namespace
}  // namespace petstore::tests
