// CORS against the real binary over raw sockets (issue 29): with --cors-origins, a listed origin's
// preflight is answered 204 without a key, with the route's methods and the headers a page may
// send; every response to that origin, a 401 included, lets the page read it and its Link and
// Location; an unlisted origin gets no CORS field, and so does a request with two Origin fields;
// without the flag OPTIONS is 405 as before. A bad origin in the flag, its variable or the config
// file exits 2 with one line.

#include <fstream>
#include <signal.h>
#include <string>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/raw_http_request.hpp"

namespace petstore::tests {
namespace {

constexpr const char* page_origin = "http://127.0.0.1:3000";

class CliCorsTest : public KeyedCliTest {
 protected:
  static RawResponse preflight(std::uint16_t port, const std::string& origin,
                               const std::string& path, const std::string& method) {
    return http_call(port, format_request("OPTIONS", path,
                                          {{"Origin", origin},
                                           {"Access-Control-Request-Method", method},
                                           {"Access-Control-Request-Headers",
                                            "authorization,content-type,idempotency-key"},
                                           {"Connection", "close"}}));
  }

  RawResponse from(std::uint16_t port, const std::string& origin, const std::string& method,
                   const std::string& path, bool with_key, const std::string& body = {}) const {
    Headers headers{{"Origin", origin}, {"Connection", "close"}};
    if (with_key) {
      headers.emplace_back("Authorization", bearer(key_));
    }
    if (!body.empty()) {
      headers.emplace_back("Content-Type", "application/json");
    }
    return http_call(port, format_request(method, path, headers, body));
  }
};

// no_cors_fields: whether `response` carries no Access-Control-* field.
testing::AssertionResult no_cors_fields(const RawResponse& response) {
  for (const auto& [name, value] : response.headers) {
    if (name.rfind("Access-Control-", 0) == 0) {
      return testing::AssertionFailure() << name << ": " << value << " in\n" << response;
    }
  }
  return testing::AssertionSuccess();
}

void expect_readable_by(const RawResponse& response, const std::string& origin) {
  EXPECT_EQ(response.header("Access-Control-Allow-Origin"), origin) << response;
  EXPECT_EQ(response.header("Vary"), "Origin") << response;
  const auto exposed = response.header("Access-Control-Expose-Headers").value_or("");
  for (const char* name : {"Link", "Location", "Retry-After", "X-Request-Id", "traceresponse"}) {
    EXPECT_NE(exposed.find(name), std::string::npos) << name << " in " << exposed;
  }
}

TEST_F(CliCorsTest, AListedOriginsPreflightIsAnsweredWithoutAKey) {
  ServedPetstore served(petstore(
      serve_args(keys_, {"--cors-origins", "https://shop.example, http://127.0.0.1:3000"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const RawResponse pets = preflight(served.port(), page_origin, "/v1/pets", "POST");
  EXPECT_EQ(pets.status, 204U) << pets;
  EXPECT_EQ(pets.header("Access-Control-Allow-Origin"), page_origin);
  EXPECT_EQ(pets.header("Access-Control-Allow-Methods"), "GET, HEAD, POST");
  EXPECT_EQ(pets.header("Access-Control-Allow-Headers"),
            "Authorization, Content-Type, Idempotency-Key, traceparent, tracestate");
  EXPECT_EQ(pets.header("Access-Control-Max-Age"), "600");
  EXPECT_EQ(pets.header("Vary"), "Origin");
  EXPECT_EQ(pets.header("Content-Length"), std::nullopt) << "a 204 has no content";
  const RawResponse pet = preflight(served.port(), "https://shop.example", "/v1/pets/7", "GET");
  EXPECT_EQ(pet.status, 204U) << pet;
  EXPECT_EQ(pet.header("Access-Control-Allow-Methods"), "GET, HEAD") << "the route's own methods";
  EXPECT_EQ(pet.header("Access-Control-Allow-Origin"), "https://shop.example");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

// A preflight carries no key by design: it is answered before authentication, so it never counts
// as a failed one. With one failure a minute allowed, five preflights leave a keyless request
// its 401, not the throttle's 429.
TEST_F(CliCorsTest, PreflightsDoNotCountAsFailedAuthentications) {
  ServedPetstore served(petstore(
      serve_args(keys_, {"--cors-origins", page_origin, "--auth-failures-per-minute", "1"})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  for (int sent = 0; sent < 5; ++sent) {
    ASSERT_EQ(preflight(served.port(), page_origin, "/v1/pets", "POST").status, 204U) << sent;
  }
  EXPECT_EQ(from(served.port(), page_origin, "GET", "/v1/pets", false).status, 401U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliCorsTest, EveryResponseToAListedOriginIsReadableErrorsIncluded) {
  ServedPetstore served(petstore(serve_args(keys_, {"--cors-origins", page_origin})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const RawResponse created =
      from(served.port(), page_origin, "POST", "/v1/pets", true, pet_json("Rex"));
  EXPECT_EQ(created.status, 201U) << created;
  expect_readable_by(created, page_origin);
  const RawResponse listed = from(served.port(), page_origin, "GET", "/v1/pets?limit=1", true);
  EXPECT_EQ(listed.status, 200U) << listed;
  expect_readable_by(listed, page_origin);
  const RawResponse unauthorized = from(served.port(), page_origin, "GET", "/v1/pets", false);
  EXPECT_EQ(unauthorized.status, 401U) << unauthorized;
  expect_readable_by(unauthorized, page_origin);
  const RawResponse health = from(served.port(), page_origin, "GET", "/healthz", false);
  EXPECT_EQ(health.status, 200U);
  expect_readable_by(health, page_origin);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliCorsTest, AnUnlistedOriginGetsNoCorsField) {
  ServedPetstore served(petstore(serve_args(keys_, {"--cors-origins", page_origin})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  for (const char* other : {"http://127.0.0.1:3001", "https://127.0.0.1:3000", "null"}) {
    SCOPED_TRACE(other);
    const RawResponse refused = preflight(served.port(), other, "/v1/pets", "POST");
    EXPECT_EQ(refused.status, 401U) << "no preflight pass: a key is asked for, as for any request";
    EXPECT_TRUE(no_cors_fields(refused));
    const RawResponse keyed = from(served.port(), other, "OPTIONS", "/v1/pets", true);
    EXPECT_EQ(keyed.status, 405U) << keyed;
    EXPECT_EQ(keyed.header("Allow"), "GET, HEAD, POST");
    EXPECT_TRUE(no_cors_fields(keyed));
    const RawResponse listed = from(served.port(), other, "GET", "/v1/pets", true);
    EXPECT_EQ(listed.status, 200U);
    EXPECT_TRUE(no_cors_fields(listed));
    // Not a CORS field: what a cache needs to keep each origin's answer apart.
    EXPECT_EQ(listed.header("Vary"), "Origin");
  }
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

// A browser sends one Origin (RFC 6454 section 7.3): two are no origin, even both listed. The
// first used to decide, so this preflight was a 204 and the GET readable by the page.
TEST_F(CliCorsTest, TwoOriginFieldsAreNoOrigin) {
  ServedPetstore served(petstore(
      serve_args(keys_, {"--cors-origins", std::string("https://shop.example,") + page_origin})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const RawResponse preflight =
      http_call(served.port(), format_request("OPTIONS", "/v1/pets",
                                              {{"Origin", page_origin},
                                               {"Origin", "https://shop.example"},
                                               {"Access-Control-Request-Method", "POST"},
                                               {"Connection", "close"}}));
  EXPECT_EQ(preflight.status, 401U) << "no preflight pass: " << preflight;
  EXPECT_TRUE(no_cors_fields(preflight));
  const RawResponse listed =
      http_call(served.port(), format_request("GET", "/v1/pets",
                                              {{"Origin", page_origin},
                                               {"Origin", page_origin},
                                               {"Authorization", bearer(key_)},
                                               {"Connection", "close"}}));
  EXPECT_EQ(listed.status, 200U) << listed;
  EXPECT_TRUE(no_cors_fields(listed));
  EXPECT_EQ(listed.header("Vary"), "Origin");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliCorsTest, WithoutTheFlagOptionsIsStillAMethodNotAllowed) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  const RawResponse refused = preflight(served.port(), page_origin, "/v1/pets", "POST");
  EXPECT_EQ(refused.status, 401U) << refused;
  EXPECT_TRUE(no_cors_fields(refused));
  const RawResponse keyed = from(served.port(), page_origin, "OPTIONS", "/v1/pets", true);
  EXPECT_EQ(keyed.status, 405U) << keyed;
  EXPECT_EQ(keyed.header("Allow"), "GET, HEAD, POST");
  EXPECT_TRUE(no_cors_fields(keyed));
  EXPECT_EQ(keyed.count("Vary"), 0U);
  const RawResponse health = preflight(served.port(), page_origin, "/healthz", "GET");
  EXPECT_EQ(health.status, 405U) << health;
  EXPECT_EQ(health.header("Allow"), "GET, HEAD");
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliCorsTest, TheVariableAndTheConfigFileListOriginsToo) {
  {
    ServedPetstore served(petstore(serve_args(keys_), {{"PETSTORE_CORS_ORIGINS", page_origin}}));
    ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
    EXPECT_EQ(preflight(served.port(), page_origin, "/v1/pets", "GET").status, 204U);
    EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
  }
  const auto config = dir_.path() / "petstore.toml";
  std::ofstream(config) << "cors-origins = [\n  \"https://shop.example\",\n  \"" << page_origin
                        << "\",\n]\n";
  ServedPetstore served(petstore(serve_args(keys_, {"--config", config.string()})));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  EXPECT_EQ(preflight(served.port(), page_origin, "/v1/pets", "GET").status, 204U);
  EXPECT_EQ(preflight(served.port(), "https://shop.example", "/v1/pets", "GET").status, 204U);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

TEST_F(CliCorsTest, ABadOriginExitsTwoWithOneLine) {
  const auto expect_refused = [](const Completed& run, const std::string& mention) {
    EXPECT_TRUE(run.status.exited_with(2)) << "code " << run.status.code << ": " << run.err;
    EXPECT_EQ(count_lines(run.err), 1U) << run.err;
    EXPECT_NE(run.err.find(mention), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("listening"), std::string::npos) << run.out;
  };
  expect_refused(run_petstore(serve_args(keys_, {"--cors-origins", "http://127.0.0.1:3000/"})),
                 "--cors-origins: 'http://127.0.0.1:3000/' is not an origin");
  expect_refused(run_petstore(serve_args(keys_, {"--cors-origins", "*"})), "'*' is not taken");
  expect_refused(run_petstore(serve_args(keys_), {{"PETSTORE_CORS_ORIGINS", "127.0.0.1:3000"}}),
                 "'127.0.0.1:3000' is not an origin (scheme://host[:port]): it has no scheme");
  const auto config = dir_.path() / "bad.toml";
  std::ofstream(config) << "cors-origins = [\"https://shop.example\", \"ftp://files.example\"]\n";
  expect_refused(run_petstore(serve_args(keys_, {"--config", config.string()})),
                 "'ftp://files.example' is not an origin");
}

}  // namespace
}  // namespace petstore::tests
