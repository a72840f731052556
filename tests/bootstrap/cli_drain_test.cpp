// SIGINT and SIGTERM stop `petstore serve` gracefully (contract section 7): it stops accepting,
// answers what is in flight, exits 0 within 10 s; a second signal stops it at once. Under load,
// every request sent whole gets a whole response or a connection closed before any byte of one:
// never a truncated response. A request still waiting for storage when the drain runs out is
// answered 503 with Connection: close.

#include <atomic>
#include <filesystem>
#include <signal.h>
#include <thread>

#include <gtest/gtest.h>
#include <lmdb.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

struct LoadTally {
  std::atomic<int> created{0};        // 201 responses
  std::atomic<int> closed_unread{0};  // request sent, connection closed before any response byte
  std::atomic<int> truncated{0};      // connection closed inside a response: the bug to catch
  std::atomic<int> unexpected{0};     // another status, a malformed response or a timeout
};

// post_until_refused: keep-alive POSTs, reconnecting after each close, until connecting fails
// (the server stopped accepting) or `stop` is set.
void post_until_refused(std::uint16_t port, const std::string& key, LoadTally& tally,
                        const std::atomic<bool>& stop) {
  const std::string request = api_request("POST", "/v1/pets", key, pet_json("Load"), true);
  while (!stop) {
    auto connection = RawConnection::try_connect(loopback(port));
    if (!connection) {
      return;
    }
    bool open = true;
    while (open && !stop) {
      if (!connection->send(request)) {
        break;  // not sent whole: the server owes this request nothing
      }
      RawResponse response;
      switch (connection->try_read_response(response, 12s)) {
        case ReadOutcome::complete:
          (response.status == 201 ? tally.created : tally.unexpected)++;
          open = response.header("Connection") != "close";
          break;
        case ReadOutcome::closed_early:
          tally.closed_unread++;
          open = false;
          break;
        case ReadOutcome::truncated:
          tally.truncated++;
          open = false;
          break;
        case ReadOutcome::timed_out:
        case ReadOutcome::malformed:
          tally.unexpected++;
          return;
      }
    }
  }
}

class CliDrainTest : public KeyedCliTest {
 protected:
  void SetUp() override {
    KeyedCliTest::SetUp();
    if (HasFatalFailure()) {
      return;
    }
    served_ = std::make_unique<ServedPetstore>(petstore(serve_args(keys_, {"--threads", "2"})));
    ASSERT_NE(served_->port(), 0) << served_->child().captured_stderr();
  }

  // start_slow_post: a POST whose headers the server has read (it answered 100 Continue) and
  // whose body has not come yet: a request in flight for as long as the test wants.
  void start_slow_post(RawConnection& connection) const {
    const std::string body = pet_json("Slow");
    ASSERT_TRUE(connection.send(
        "POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key_ +
        "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n"));
    RawResponse interim;
    ASSERT_EQ(connection.try_read_response(interim, 5s), ReadOutcome::complete);
    ASSERT_EQ(interim.status, 100U);
  }

  std::unique_ptr<ServedPetstore> served_;
};

TEST_F(CliDrainTest, SigtermUnderLoadAnswersOrClosesEveryRequestAndExits0) {
  LoadTally tally;
  std::atomic<bool> stop{false};
  constexpr int client_count = 4;
  std::vector<std::thread> clients;
  clients.reserve(client_count);
  for (int i = 0; i < client_count; ++i) {
    clients.emplace_back(post_until_refused, served_->port(), key_, std::ref(tally),
                         std::cref(stop));
  }
  const auto warm_up = std::chrono::steady_clock::now() + 3s;
  while (tally.created < 100 && std::chrono::steady_clock::now() < warm_up) {
    std::this_thread::sleep_for(10ms);
  }
  const ExitStatus status = served_->stop(SIGTERM, 10s);
  stop = true;
  for (auto& client : clients) {
    client.join();
  }
  EXPECT_TRUE(status.exited_with(0)) << "code " << status.code << ", signal " << status.signal
                                     << ", timed out " << status.timed_out << "\n"
                                     << served_->child().captured_stderr();
  RecordProperty("created", tally.created.load());
  RecordProperty("closed_unread", tally.closed_unread.load());
  EXPECT_GT(tally.created.load(), 0);
  EXPECT_EQ(tally.truncated.load(), 0);
  EXPECT_EQ(tally.unexpected.load(), 0);
}

TEST_F(CliDrainTest, SigintClosesIdleConnectionsAndExits0Promptly) {
  auto idle = RawConnection::connect(loopback(served_->port()));
  ASSERT_TRUE(idle.send(api_request("GET", "/v1/pets", key_, {}, true)));
  RawResponse listed;
  ASSERT_EQ(idle.try_read_response(listed), ReadOutcome::complete);
  EXPECT_EQ(listed.status, 200U);

  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served_->stop(SIGINT, 5s).exited_with(0)) << served_->child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << "an idle connection held the drain";
  RawResponse none;
  EXPECT_EQ(idle.try_read_response(none, 2s), ReadOutcome::closed_early);
}

TEST_F(CliDrainTest, RequestInFlightIsAnsweredBeforeExit) {
  auto slow = RawConnection::connect(loopback(served_->port()));
  ASSERT_NO_FATAL_FAILURE(start_slow_post(slow));
  ASSERT_TRUE(served_->child().send_signal(SIGTERM));
  std::this_thread::sleep_for(300ms);
  EXPECT_TRUE(served_->child().running()) << "exited with a request in flight";
  EXPECT_FALSE(RawConnection::try_connect(loopback(served_->port())))
      << "still accepting while draining";

  ASSERT_TRUE(slow.send(pet_json("Slow")));
  RawResponse created;
  ASSERT_EQ(slow.try_read_response(created, 5s), ReadOutcome::complete);
  EXPECT_EQ(created.status, 201U) << created;
  EXPECT_EQ(created.header("Connection"), "close");
  EXPECT_TRUE(served_->child().wait_for_exit(5s).exited_with(0))
      << served_->child().captured_stderr();
}

TEST_F(CliDrainTest, SecondSigtermDuringDrainStopsAtOnce) {
  auto slow = RawConnection::connect(loopback(served_->port()));
  ASSERT_NO_FATAL_FAILURE(start_slow_post(slow));
  ASSERT_TRUE(served_->child().send_signal(SIGTERM));
  std::this_thread::sleep_for(300ms);
  ASSERT_TRUE(served_->child().running()) << "exited with a request in flight";

  const auto start = std::chrono::steady_clock::now();
  const ExitStatus status = served_->stop(SIGTERM, 5s);
  EXPECT_TRUE(status.exited_with(0))
      << "code " << status.code << ", signal " << status.signal << "\n"
      << served_->child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  RawResponse none;
  EXPECT_NE(slow.try_read_response(none, 2s), ReadOutcome::truncated);
}

// The contract bounds the drain: a request that never completes holds the exit back 10 s at most.
TEST_F(CliDrainTest, DrainGivesUpOnAStalledRequestAfterTenSeconds) {
  auto stalled = RawConnection::connect(loopback(served_->port()));
  ASSERT_NO_FATAL_FAILURE(start_slow_post(stalled));
  const auto start = std::chrono::steady_clock::now();
  const ExitStatus status = served_->stop(SIGTERM, 14s);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(status.exited_with(0))
      << "code " << status.code << ", signal " << status.signal << "\n"
      << served_->child().captured_stderr();
  EXPECT_GE(elapsed, 9s) << "gave up on a request in flight too early";
  EXPECT_LT(elapsed, 12s);
  RawResponse none;
  EXPECT_NE(stalled.try_read_response(none, 2s), ReadOutcome::truncated);
}

// LmdbWriteLock: this process holding the write lock of the LMDB store in `dir`, as a data tool
// writing to a live store does: the server's creates wait for it, in storage, for as long as the
// test wants.
class LmdbWriteLock {
 public:
  explicit LmdbWriteLock(const std::filesystem::path& dir) {
    if (::mdb_env_create(&env_) == MDB_SUCCESS &&
        ::mdb_env_open(env_, dir.c_str(), MDB_NOTLS, 0600) == MDB_SUCCESS &&
        ::mdb_txn_begin(env_, nullptr, 0, &txn_) != MDB_SUCCESS) {
      txn_ = nullptr;
    }
  }
  LmdbWriteLock(const LmdbWriteLock&) = delete;
  LmdbWriteLock& operator=(const LmdbWriteLock&) = delete;
  ~LmdbWriteLock() {
    release();
    if (env_ != nullptr) {
      ::mdb_env_close(env_);
    }
  }

  [[nodiscard]] bool held() const { return txn_ != nullptr; }
  void release() {
    if (txn_ != nullptr) {
      ::mdb_txn_abort(txn_);
      txn_ = nullptr;
    }
  }

 private:
  MDB_env* env_ = nullptr;
  MDB_txn* txn_ = nullptr;
};

class CliDrainBoundTest : public KeyedCliTest {};

// The contract bounds the drain at 10 s, and a 503 is how the service says it is draining: a
// create that storage has not answered by then gets one (with Retry-After, like every 503) and
// its connection closes; the process then exits 0 as before. It used to lose its connection.
TEST_F(CliDrainBoundTest, ARequestWaitingForStorageAtTheDrainBoundIsAnswered503) {
  const auto data = dir_.path() / "data";
  ServedPetstore served(petstore(serve_args(
      keys_, {"--storage", "lmdb", "--data-dir", data.string(), "--storage-timeout", "60"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  LmdbWriteLock lock(data);
  ASSERT_TRUE(lock.held());

  // The interim 100 proves the head was read: from then on the drain waits for this request.
  auto waiting = RawConnection::connect(loopback(served.port()));
  const std::string body = pet_json("Held");
  ASSERT_TRUE(waiting.send(
      "POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key_ +
      "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: " +
      std::to_string(body.size()) + "\r\n\r\n"));
  RawResponse interim;
  ASSERT_EQ(waiting.try_read_response(interim, 5s), ReadOutcome::complete);
  ASSERT_EQ(interim.status, 100U);
  ASSERT_TRUE(waiting.send(body));

  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(served.child().send_signal(SIGTERM));
  RawResponse refused;
  ASSERT_EQ(waiting.try_read_response(refused, 14s), ReadOutcome::complete)
      << served.child().captured_stderr();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(refused.status, 503U) << refused;
  EXPECT_TRUE(is_error_body(refused.body, 503, "unavailable", "the service is stopping"));
  EXPECT_EQ(refused.header("Retry-After"), "1");
  EXPECT_EQ(refused.header("Connection"), "close");
  EXPECT_GE(elapsed, 9s) << "refused before the drain ran out";
  EXPECT_LT(elapsed, 11s);
  RawResponse none;
  EXPECT_EQ(waiting.try_read_response(none, 2s), ReadOutcome::closed_early);

  lock.release();  // the store's writer, which the stop waits for, goes on
  const ExitStatus status = served.child().wait_for_exit(10s);
  EXPECT_TRUE(status.exited_with(0))
      << "code " << status.code << ", signal " << status.signal << "\n"
      << served.child().captured_stderr();
}

}  // namespace
}  // namespace petstore::tests
