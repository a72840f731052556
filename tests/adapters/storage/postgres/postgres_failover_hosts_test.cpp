// Failover past a first host that neither answers nor refuses (contract section 10; issue 39):
// the multi-host --database-url's first host is frozen with SIGSTOP (a hung server: connections
// wait in its backlog), silent (a proxy that forwards nothing), closing or resetting (a proxy in
// front of a dead node). Each host gets its own attempt with its own deadline, so the next host
// is reached: while serving, creates are acknowledged within 10 s of the standby's promotion and
// every pet acknowledged before stays; at start, the service comes up on the second host.

#include <chrono>
#include <csignal>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/json_bodies.hpp"
#include "support/postgres_cutting_proxy.hpp"
#include "support/postgres_server.hpp"
#include "support/raw_http_request.hpp"

#include "serve_support.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

enum class FirstHost { frozen, silent, closes, resets };

std::string name_of(FirstHost how) {
  switch (how) {
    case FirstHost::frozen:
      return "frozen";
    case FirstHost::silent:
      return "silent";
    case FirstHost::closes:
      return "closes";
    case FirstHost::resets:
      return "resets";
  }
  return "?";
}

std::string url_of(const std::string& database, const std::filesystem::path& first,
                   const std::filesystem::path& second) {
  return "postgresql:///" + database + "?host=" + first.string() + "," + second.string() +
         "&user=petstore&target_session_attrs=read-write";
}

ChildOptions serve_on(const std::filesystem::path& keys, const std::string& url) {
  return petstore(
      serve_args(keys, postgres_flags(url, {"--database-timeout", "2", "--storage-timeout", "2",
                                            "--log-format", "json"})));
}

// create_once: one create; its id, or nullopt when it was not a 201.
std::optional<std::int64_t> create_once(std::uint16_t port, const std::string& key,
                                        const std::string& name) {
  const auto answer = http_call(port, api_request("POST", "/v1/pets", key, pet_json(name)), 15s);
  if (answer.status != 201) {
    return std::nullopt;
  }
  return pet_id_of(answer.body);
}

// first_201_within: creates until one is acknowledged; how long that took, or nullopt after
// `limit`.
std::optional<std::chrono::milliseconds> first_201_within(std::uint16_t port,
                                                          const std::string& key,
                                                          Clock::duration limit) {
  const auto started = Clock::now();
  for (int n = 0; Clock::now() - started < limit; ++n) {
    if (create_once(port, key, "after-" + std::to_string(n))) {
      return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    }
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

// FrontHost: what stands first in the URL, failing as `how` says once fail() is called.
class FrontHost {
 public:
  FrontHost(FirstHost how, PostgresServer& primary) : how_(how), primary_(primary) {
    if (how != FirstHost::frozen) {
      proxy_.emplace(primary);
    }
  }
  [[nodiscard]] std::filesystem::path socket_dir() const {
    return proxy_ ? proxy_->socket_dir() : primary_.socket_dir();
  }
  void fail() {
    switch (how_) {
      case FirstHost::frozen:
        primary_.freeze();
        break;
      case FirstHost::silent:
        proxy_->stall(true);
        break;
      case FirstHost::closes:
        proxy_->refuse(PostgresCuttingProxy::Refusal::close);
        break;
      case FirstHost::resets:
        proxy_->refuse(PostgresCuttingProxy::Refusal::reset);
        break;
    }
  }

 private:
  FirstHost how_;
  PostgresServer& primary_;
  std::optional<PostgresCuttingProxy> proxy_;
};

class PostgresFailoverHosts : public testing::TestWithParam<FirstHost> {};

TEST_P(PostgresFailoverHosts, WhileServingCreatesComeBackWithin10sOfThePromotion) {
  PostgresServer primary;
  const std::string database = primary.create_database();
  PostgresServer standby(PostgresServer::StandbyOf{primary});
  primary.make_synchronous();
  FrontHost front(GetParam(), primary);
  TempDir dir;
  const std::string key = make_key(dir.path() / "keys");
  ServedPetstore service(
      serve_on(dir.path() / "keys", url_of(database, front.socket_dir(), standby.socket_dir())));
  ASSERT_NE(service.port(), 0);
  ASSERT_TRUE(wait_for_readiness(service.port(), 200, 30s));
  std::vector<std::int64_t> before;
  for (int i = 0; i < 5; ++i) {
    const auto id = create_once(service.port(), key, "before-" + std::to_string(i));
    ASSERT_TRUE(id) << "a create failed before the loss";
    before.push_back(*id);
  }

  front.fail();
  standby.promote();
  const auto served = first_201_within(service.port(), key, 30s);
  ASSERT_TRUE(served) << name_of(GetParam()) << ": no create acknowledged within 30 s of the "
                      << "promotion:\n"
                      << service.child().captured_stdout();
  EXPECT_LT(*served, 10s) << name_of(GetParam()) << ": the first 201 came " << served->count()
                          << " ms after the promotion";
  for (const auto id : before) {
    EXPECT_EQ(http_call(service.port(), "GET", "/v1/pets/" + std::to_string(id), key).status, 200U)
        << "pet " << id << ", acknowledged before the loss, is gone";
  }
  EXPECT_TRUE(service.stop(SIGTERM).exited_with(0)) << service.child().captured_stderr();
}

TEST_P(PostgresFailoverHosts, AtStartTheServiceComesUpOnTheNextHost) {
  PostgresServer primary;
  const std::string database = primary.create_database();
  std::optional<PostgresServer> dead;  // a server of its own to freeze, when the host is frozen
  std::optional<FrontHost> front;
  if (GetParam() == FirstHost::frozen) {
    dead.emplace();
    front.emplace(GetParam(), *dead);
  } else {
    front.emplace(GetParam(), primary);
  }
  front->fail();
  TempDir dir;
  const std::string key = make_key(dir.path() / "keys");
  const auto started = Clock::now();
  ServedPetstore service(
      serve_on(dir.path() / "keys", url_of(database, front->socket_dir(), primary.socket_dir())));
  ASSERT_NE(service.port(), 0) << service.child().captured_stdout();
  const auto served = first_201_within(service.port(), key, 30s);
  ASSERT_TRUE(served) << name_of(GetParam()) << ": no create acknowledged within 30 s of the "
                      << "start:\n"
                      << service.child().captured_stdout();
  const auto since_start = Clock::now() - started;
  EXPECT_LT(since_start, 10s)
      << name_of(GetParam()) << ": the first 201 came "
      << std::chrono::duration_cast<std::chrono::milliseconds>(since_start).count()
      << " ms after the start";
  EXPECT_TRUE(service.stop(SIGTERM).exited_with(0)) << service.child().captured_stderr();
}

INSTANTIATE_TEST_SUITE_P(FirstHosts, PostgresFailoverHosts,
                         testing::Values(FirstHost::frozen, FirstHost::silent, FirstHost::closes,
                                         FirstHost::resets),
                         [](const testing::TestParamInfo<FirstHost>& param) {
                           return name_of(param.param);
                         });

}  // namespace
}  // namespace petstore::tests
