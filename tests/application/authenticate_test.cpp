#include "application/authenticate.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/fake_clock.hpp"
#include "support/fake_key_verifier.hpp"

namespace petstore::application {
namespace {

class AuthenticateTest : public testing::Test {
 protected:
  tests::FakeClock clock_;
  std::unique_ptr<ports::KeyVerifier> keys_ = tests::make_fake_key_verifier();
  FailedAuthThrottle throttle_{clock_, 3};
  Authenticate authenticate_{*keys_, throttle_};
};

TEST_F(AuthenticateTest, AcceptsAKnownKey) {
  const auto principal = authenticate_(Credential{tests::test_key_a, false, "127.0.0.1"});
  ASSERT_TRUE(principal.has_value());
  EXPECT_EQ(principal->id, "key-a");
}

TEST_F(AuthenticateTest, NoKeyIsUnauthenticatedWithoutAField) {
  const auto principal = authenticate_(Credential{std::nullopt, false, "127.0.0.1"});
  ASSERT_FALSE(principal.has_value());
  EXPECT_EQ(principal.error().code, domain::ErrorCode::unauthenticated);
  EXPECT_TRUE(principal.error().field.empty());
}

TEST_F(AuthenticateTest, UnknownAndMalformedKeysAreUnauthenticatedNamingTheToken) {
  for (const Credential& credential :
       {Credential{"wrong", false, "127.0.0.1"}, Credential{std::nullopt, true, "127.0.0.1"}}) {
    const auto principal = authenticate_(credential);
    ASSERT_FALSE(principal.has_value());
    EXPECT_EQ(principal.error().code, domain::ErrorCode::unauthenticated);
    EXPECT_EQ(principal.error().field, "token");
  }
}

TEST_F(AuthenticateTest, ThrottlesRepeatedFailuresButNeverAGoodKey) {
  for (int failure = 0; failure < 3; ++failure) {
    ASSERT_EQ(authenticate_(Credential{"wrong", false, "10.1.1.1"}).error().code,
              domain::ErrorCode::unauthenticated);
  }
  const auto throttled = authenticate_(Credential{"wrong", false, "10.1.1.1"});
  ASSERT_FALSE(throttled.has_value());
  EXPECT_EQ(throttled.error().code, domain::ErrorCode::resource_exhausted);
  EXPECT_EQ(throttled.error().retry_after_seconds, 20);
  EXPECT_TRUE(authenticate_(Credential{tests::test_key_b, false, "10.1.1.1"}).has_value());
  EXPECT_EQ(authenticate_(Credential{"wrong", false, "10.1.1.2"}).error().code,
            domain::ErrorCode::unauthenticated);
}

TEST_F(AuthenticateTest, ItsErrorsNameNoHttpHeader) {
  // The adapter words the errors for its protocol; the use case knows no Authorization header.
  std::vector<domain::Error> errors{
      authenticate_(Credential{std::nullopt, false, "10.2.2.2"}).error()};
  for (int failure = 0; failure < 3; ++failure) {
    errors.push_back(authenticate_(Credential{"wrong", false, "10.2.2.2"}).error());
  }
  ASSERT_EQ(errors.back().code, domain::ErrorCode::resource_exhausted);
  for (const domain::Error& error : errors) {
    EXPECT_EQ(error.message.find("Authorization"), std::string::npos) << error.message;
    EXPECT_NE(error.field, "Authorization");
  }
}

TEST_F(AuthenticateTest, AReadOnlyKeyIsAcceptedAndMayNotWrite) {
  const auto principal = authenticate_(Credential{tests::test_key_read_only, false, "127.0.0.1"});
  ASSERT_TRUE(principal.has_value());
  EXPECT_EQ(principal->label, "dashboards");
  const auto write = authorize_write(*principal);
  ASSERT_FALSE(write.has_value());
  EXPECT_EQ(write.error().code, domain::ErrorCode::permission_denied);
  EXPECT_TRUE(
      authorize_write(authenticate_(Credential{tests::test_key_a, false, "127.0.0.1"}).value())
          .has_value());
}

}  // namespace
}  // namespace petstore::application
