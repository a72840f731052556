// --drain-delay (contract section 11): on SIGTERM /readyz answers 503 at once while the service
// goes on accepting connections and serving every request for the delay, so a balancer polling
// /readyz takes it out before its listener closes; then the stop of section 7. A second signal
// skips what is left of the delay.

#include <chrono>
#include <csignal>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

class CliDrainDelayTest : public KeyedCliTest {
 protected:
  void serve_with_delay(const std::string& delay) {
    served_ =
        std::make_unique<ServedPetstore>(petstore(serve_args(keys_, {"--drain-delay", delay})));
    ASSERT_NE(served_->port(), 0) << served_->child().captured_stderr();
  }

  std::unique_ptr<ServedPetstore> served_;
};

TEST_F(CliDrainDelayTest, ServesOnWhileReadyzSays503ThenStops) {
  ASSERT_NO_FATAL_FAILURE(serve_with_delay("2s"));
  auto kept = RawConnection::connect(loopback(served_->port()));
  ASSERT_TRUE(kept.send(api_request("GET", "/v1/pets", key_, {}, true)));
  RawResponse before;
  ASSERT_EQ(kept.try_read_response(before), ReadOutcome::complete);

  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(served_->child().send_signal(SIGTERM));
  std::this_thread::sleep_for(200ms);
  EXPECT_EQ(http_call(served_->port(), "GET", "/readyz").status, 503U);
  EXPECT_EQ(http_call(served_->port(), "GET", "/healthz").status, 200U);
  EXPECT_EQ(http_call(served_->port(), "POST", "/v1/pets", key_, pet_json("Late")).status, 201U);
  ASSERT_TRUE(kept.send(api_request("GET", "/v1/pets", key_, {}, true)));
  RawResponse during;
  ASSERT_EQ(kept.try_read_response(during), ReadOutcome::complete);
  EXPECT_EQ(during.status, 200U);
  EXPECT_NE(during.header("Connection"), "close") << "the delay is not the drain yet";
  EXPECT_TRUE(served_->child().running());

  EXPECT_TRUE(served_->child().wait_for_exit(8s).exited_with(0))
      << served_->child().captured_stderr();
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1900ms);
}

TEST_F(CliDrainDelayTest, ASecondSignalSkipsTheRestOfTheDelay) {
  ASSERT_NO_FATAL_FAILURE(serve_with_delay("60"));
  ASSERT_TRUE(served_->child().send_signal(SIGTERM));
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(http_call(served_->port(), "GET", "/readyz").status, 503U);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(served_->stop(SIGINT, 5s).exited_with(0)) << served_->child().captured_stderr();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_NE(served_->child().captured_stdout().find("drain_delay_skipped"), std::string::npos);
}

}  // namespace
}  // namespace petstore::tests
