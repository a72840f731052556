// `petstore serve --tls-cert --tls-key` through the real binary: it listens on https://, SIGHUP
// swaps in a new certificate for new connections, a bad new certificate keeps the old one and is
// logged, and TLS lifts the loopback-only rule for plain HTTP.

#include <signal.h>
#include <thread>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/test_certificate.hpp"
#include "support/tls_client.hpp"

namespace petstore::tests {
namespace {

using namespace std::chrono_literals;

class CliTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_self_signed_certificate("first.petstore.test", certificate_, key_);
    ASSERT_FALSE(make_key(keys_).empty());
  }

  [[nodiscard]] std::vector<std::string> tls_args(std::vector<std::string> extra = {}) const {
    extra.insert(extra.end(), {"--tls-cert", certificate_.string(), "--tls-key", key_.string()});
    return serve_args(keys_, std::move(extra));
  }

  TempDir dir_;
  std::filesystem::path keys_ = dir_.path() / "keys";
  std::filesystem::path certificate_ = dir_.path() / "cert.pem";
  std::filesystem::path key_ = dir_.path() / "key.pem";
};

std::string common_name_at(std::uint16_t port) {
  return tls_exchange("127.0.0.1:" + std::to_string(port),
                      "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
      .peer_common_name;
}

bool eventually_common_name(std::uint16_t port, const std::string& expected) {
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (std::chrono::steady_clock::now() < deadline) {
    if (common_name_at(port) == expected) {
      return true;
    }
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

TEST_F(CliTlsTest, ListensOnHttpsAndReloadsTheCertificateOnSighup) {
  ServedPetstore served(petstore(tls_args()));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(served.listening_url().rfind("https://127.0.0.1:", 0), 0U) << served.listening_line();
  EXPECT_EQ(common_name_at(served.port()), "first.petstore.test");

  write_self_signed_certificate("second.petstore.test", certificate_, key_);
  served.child().send_signal(SIGHUP);
  EXPECT_TRUE(eventually_common_name(served.port(), "second.petstore.test"));

  std::filesystem::resize_file(certificate_, 10);
  served.child().send_signal(SIGHUP);
  // The failed reload is logged (on stdout or stderr, by the log settings) and changes nothing.
  const auto logged = [&served] {
    const std::string output = served.child().captured_stdout() + served.child().captured_stderr();
    return output.find("reload_failed") != std::string::npos ||
           output.find("keeping the TLS certificate") != std::string::npos;
  };
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (!logged() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_TRUE(logged()) << served.child().captured_stdout();
  EXPECT_EQ(common_name_at(served.port()), "second.petstore.test");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0)) << served.child().captured_stderr();
}

TEST_F(CliTlsTest, TlsMayListenBeyondLoopback) {
  ServedPetstore served(petstore(tls_args({"--listen", "0.0.0.0:0"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(common_name_at(served.port()), "first.petstore.test");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0)) << served.child().captured_stderr();
}

TEST_F(CliTlsTest, ACertificateWithoutItsKeyIsBadUsage) {
  const auto run = run_petstore(serve_args(keys_, {"--tls-cert", certificate_.string()}));
  EXPECT_TRUE(run.status.exited_with(2)) << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
}

TEST_F(CliTlsTest, UnusableCertificateFilesExitOneWithOneLine) {
  std::filesystem::resize_file(certificate_, 10);
  const auto run = run_petstore(tls_args());
  EXPECT_TRUE(run.status.exited_with(1)) << run.err;
  EXPECT_EQ(count_lines(run.err), 1U) << run.err;
  EXPECT_NE(run.err.find("cert.pem"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace petstore::tests
