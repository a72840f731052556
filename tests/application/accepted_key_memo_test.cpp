// The per-connection memo of an accepted key, alone and inside Authenticate: a remembered key
// skips the verifier only while the key set that accepted it is still the one in use.

#include "application/accepted_key_memo.hpp"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "application/authenticate.hpp"
#include "support/fake_clock.hpp"

namespace petstore::application {
namespace {

// CountingKeyVerifier: accepts the keys in `accepted` as Principal{"p-" + key}, counts verify
// calls, and moves its key_set_version with every change, as a reloading verifier does.
class CountingKeyVerifier final : public ports::KeyVerifier {
 public:
  explicit CountingKeyVerifier(std::set<std::string, std::less<>> accepted)
      : accepted_(std::move(accepted)) {}

  [[nodiscard]] domain::Result<ports::Principal> verify(std::string_view key) const override {
    ++calls;
    if (accepted_.contains(key)) {
      return ports::Principal{"p-" + std::string(key)};
    }
    return domain::make_error(domain::ErrorCode::unauthenticated, "token", "not accepted");
  }
  [[nodiscard]] std::uint64_t key_set_version() const noexcept override { return version_; }

  void revoke(const std::string& key) {
    accepted_.erase(key);
    ++version_;
  }

  mutable int calls = 0;

 private:
  std::set<std::string, std::less<>> accepted_;
  std::uint64_t version_ = 7;
};

TEST(AcceptedKeyMemo, RecallsOnlyTheSameKeyUnderTheSameVersion) {
  AcceptedKeyMemo memo;
  EXPECT_EQ(memo.recall("key-one", 1), nullptr) << "an empty memo knows nothing";
  memo.remember("key-one", 1, ports::Principal{"one"});
  const ports::Principal* known = memo.recall("key-one", 1);
  ASSERT_NE(known, nullptr);
  EXPECT_EQ(known->id, "one");
  EXPECT_EQ(memo.recall("key-one", 2), nullptr) << "another key set";
  EXPECT_EQ(memo.recall("key-onf", 1), nullptr) << "last byte differs";
  EXPECT_EQ(memo.recall("Key-one", 1), nullptr) << "first byte differs";
  EXPECT_EQ(memo.recall("key-on", 1), nullptr) << "a prefix";
  EXPECT_EQ(memo.recall("key-one-more", 1), nullptr) << "longer";
  EXPECT_EQ(memo.recall("", 1), nullptr);
}

TEST(AcceptedKeyMemo, ANewKeyReplacesTheOldOne) {
  AcceptedKeyMemo memo;
  memo.remember("key-one", 1, ports::Principal{"one"});
  memo.remember("key-two", 1, ports::Principal{"two"});
  EXPECT_EQ(memo.recall("key-one", 1), nullptr);
  ASSERT_NE(memo.recall("key-two", 1), nullptr);
  EXPECT_EQ(memo.recall("key-two", 1)->id, "two");
}

TEST(AcceptedKeyMemo, KeysLongerThanTheLimitAreNotRemembered) {
  AcceptedKeyMemo memo;
  memo.remember("key-one", 1, ports::Principal{"one"});
  const std::string longest(AcceptedKeyMemo::max_key_bytes, 'k');
  const std::string too_long(AcceptedKeyMemo::max_key_bytes + 1, 'k');
  memo.remember(too_long, 1, ports::Principal{"long"});
  EXPECT_EQ(memo.recall(too_long, 1), nullptr);
  EXPECT_EQ(memo.recall("key-one", 1), nullptr) << "forgotten, not kept beside a newer key";
  memo.remember(longest, 1, ports::Principal{"longest"});
  EXPECT_NE(memo.recall(longest, 1), nullptr);
}

class AuthenticateWithMemoTest : public testing::Test {
 protected:
  tests::FakeClock clock_;
  CountingKeyVerifier keys_{{"alpha", "beta"}};
  FailedAuthThrottle throttle_{clock_, 100};
  Authenticate authenticate_{keys_, throttle_};
  AcceptedKeyMemo memo_;
};

TEST_F(AuthenticateWithMemoTest, ASecondRequestWithTheSameKeyIsNotVerifiedAgain) {
  for (int request = 0; request < 3; ++request) {
    const auto principal = authenticate_(Credential{"alpha", false, "10.0.0.1"}, &memo_);
    ASSERT_TRUE(principal.has_value());
    EXPECT_EQ(principal->id, "p-alpha");
  }
  EXPECT_EQ(keys_.calls, 1);
}

TEST_F(AuthenticateWithMemoTest, WithoutAMemoEveryRequestIsVerified) {
  for (int request = 0; request < 3; ++request) {
    ASSERT_TRUE(authenticate_(Credential{"alpha", false, "10.0.0.1"}).has_value());
  }
  EXPECT_EQ(keys_.calls, 3);
}

TEST_F(AuthenticateWithMemoTest, ARevokedKeyIsRefusedOnTheNextRequest) {
  ASSERT_TRUE(authenticate_(Credential{"alpha", false, "10.0.0.1"}, &memo_).has_value());
  keys_.revoke("alpha");
  const auto refused = authenticate_(Credential{"alpha", false, "10.0.0.1"}, &memo_);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, domain::ErrorCode::unauthenticated);
  EXPECT_EQ(keys_.calls, 2);
}

TEST_F(AuthenticateWithMemoTest, AnotherKeyOnTheSameConnectionIsVerifiedOnItsOwn) {
  ASSERT_TRUE(authenticate_(Credential{"alpha", false, "10.0.0.1"}, &memo_).has_value());
  const auto wrong = authenticate_(Credential{"gamma", false, "10.0.0.1"}, &memo_);
  ASSERT_FALSE(wrong.has_value()) << "an unknown key must not pass as the remembered one";
  EXPECT_EQ(wrong.error().field, "token");
  const auto beta = authenticate_(Credential{"beta", false, "10.0.0.1"}, &memo_);
  ASSERT_TRUE(beta.has_value());
  EXPECT_EQ(beta->id, "p-beta");
  EXPECT_EQ(keys_.calls, 3);
}

TEST_F(AuthenticateWithMemoTest, NoKeyAfterAnAcceptedOneIsStillUnauthenticated) {
  ASSERT_TRUE(authenticate_(Credential{"alpha", false, "10.0.0.1"}, &memo_).has_value());
  EXPECT_FALSE(authenticate_(Credential{std::nullopt, false, "10.0.0.1"}, &memo_).has_value());
  EXPECT_FALSE(authenticate_(Credential{std::nullopt, true, "10.0.0.1"}, &memo_).has_value());
}

}  // namespace
}  // namespace petstore::application
