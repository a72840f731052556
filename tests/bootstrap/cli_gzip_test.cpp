// gzip against the real binary over raw sockets (issue 29): a page of 100 pets asked for with
// Accept-Encoding: gzip comes gzipped and inflates to the page sent to a client without it; HEAD
// gives GET's fields; gzip;q=0 keeps the page as it is, still with Vary; a single pet, well under
// 1 KiB, is sent as it always was. Repeated Accept-Encoding fields are read as one list.

#include <signal.h>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bootstrap/cli_fixture.hpp"
#include "support/gunzip.hpp"
#include "support/raw_http_request.hpp"

namespace petstore::tests {
namespace {

class CliGzipTest : public KeyedCliTest {
 protected:
  RawResponse get(std::uint16_t port, const std::string& method, const std::string& path,
                  const std::string& accept_encoding) const {
    return get_with_fields(port, path,
                           accept_encoding.empty() ? std::vector<std::string>{}
                                                   : std::vector<std::string>{accept_encoding},
                           method);
  }

  // get_with_fields: one Accept-Encoding field for each of `accept_encodings`, in order.
  RawResponse get_with_fields(std::uint16_t port, const std::string& path,
                              const std::vector<std::string>& accept_encodings,
                              const std::string& method = "GET") const {
    Headers headers{{"Authorization", bearer(key_)}, {"Connection", "close"}};
    for (const auto& accept_encoding : accept_encodings) {
      headers.emplace_back("Accept-Encoding", accept_encoding);
    }
    return http_call(port, format_request(method, path, headers));
  }

  // add_pets: `count` pets, enough of them making a page over 1 KiB.
  void add_pets(std::uint16_t port, int count) const {
    RawConnection connection = RawConnection::connect("127.0.0.1:" + std::to_string(port));
    for (int pet = 0; pet < count; ++pet) {
      const RawResponse created = connection.round_trip(
          api_request("POST", "/v1/pets", key_, pet_json("Rex " + std::to_string(pet), pet), true));
      ASSERT_EQ(created.status, 201U) << created;
    }
  }
};

TEST_F(CliGzipTest, APageOfAHundredPetsGoesOutGzipped) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  add_pets(served.port(), 100);
  ASSERT_FALSE(HasFatalFailure());
  const std::string page = "/v1/pets?limit=100";
  const RawResponse plain = get(served.port(), "GET", page, "");
  ASSERT_EQ(plain.status, 200U) << plain;
  EXPECT_EQ(plain.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(plain.header("Vary"), "Accept-Encoding") << "the page would have gone out gzipped";

  const RawResponse gzipped = get(served.port(), "GET", page, "br;q=1.0, gzip;q=0.8, *;q=0.1");
  ASSERT_EQ(gzipped.status, 200U) << gzipped;
  EXPECT_EQ(gzipped.header("Content-Encoding"), "gzip");
  EXPECT_EQ(gzipped.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(gzipped.header("Content-Type"), "application/json");
  EXPECT_EQ(gunzip(gzipped.body), plain.body);
  EXPECT_LT(gzipped.body.size() * 3, plain.body.size()) << gzipped.body.size();

  RawConnection head_connection =
      RawConnection::connect("127.0.0.1:" + std::to_string(served.port()));
  ASSERT_TRUE(head_connection.send(format_request(
      "HEAD", page,
      {{"Authorization", bearer(key_)}, {"Accept-Encoding", "gzip"}, {"Connection", "close"}})));
  const auto head = head_connection.read_until_closed(std::chrono::seconds(10));
  ASSERT_TRUE(head);
  EXPECT_TRUE(head->ends_with("\r\n\r\n")) << "no body: " << *head;
  EXPECT_NE(head->find("\r\nContent-Encoding: gzip\r\n"), std::string::npos) << *head;
  EXPECT_NE(head->find("\r\nVary: Accept-Encoding\r\n"), std::string::npos) << *head;
  EXPECT_NE(head->find("\r\nContent-Length: " + std::to_string(gzipped.body.size()) + "\r\n"),
            std::string::npos)
      << "GET's length: " << *head;

  const RawResponse refused = get(served.port(), "GET", page, "gzip;q=0, identity");
  EXPECT_EQ(refused.header("Content-Encoding"), std::nullopt);
  EXPECT_EQ(refused.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(refused.body, plain.body);

  const RawResponse one = get(served.port(), "GET", "/v1/pets?limit=1", "gzip");
  EXPECT_EQ(one.status, 200U);
  EXPECT_EQ(one.header("Content-Encoding"), std::nullopt) << "under 1 KiB: as it is";
  EXPECT_EQ(one.count("Vary"), 0U);
  EXPECT_TRUE(one.body.starts_with(R"([{"id":1,)")) << one.body;
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

// RFC 9110 section 5.3: repeated list fields are one list. Only the first field used to count,
// so "identity" then "gzip" got the page as it is and "gzip;q=0.5" then "identity" got it
// gzipped. A coding named in two fields counts at its highest weight (accept_encoding.hpp).
TEST_F(CliGzipTest, RepeatedAcceptEncodingFieldsAreReadAsOneList) {
  ServedPetstore served(petstore(serve_args(keys_)));
  ASSERT_NE(served.port(), 0) << served.child().captured_stderr();
  add_pets(served.port(), 40);
  ASSERT_FALSE(HasFatalFailure());
  const std::string page = "/v1/pets?limit=40";
  const RawResponse plain = get(served.port(), "GET", page, "");
  ASSERT_EQ(plain.status, 200U) << plain;
  ASSERT_GT(plain.body.size(), 1024U) << "a page that would go out gzipped";

  const RawResponse later_gzip = get_with_fields(served.port(), page, {"identity", "gzip"});
  ASSERT_EQ(later_gzip.status, 200U) << later_gzip;
  EXPECT_EQ(later_gzip.header("Content-Encoding"), "gzip") << later_gzip;
  EXPECT_EQ(gunzip(later_gzip.body), plain.body);

  const RawResponse twice = get_with_fields(served.port(), page, {"gzip", "gzip;q=0"});
  EXPECT_EQ(twice.header("Content-Encoding"), "gzip") << "its highest weight counts";

  const RawResponse later_identity =
      get_with_fields(served.port(), page, {"gzip;q=0.5", "identity"});
  EXPECT_EQ(later_identity.header("Content-Encoding"), std::nullopt) << later_identity;
  EXPECT_EQ(later_identity.header("Vary"), "Accept-Encoding");
  EXPECT_EQ(later_identity.body, plain.body);
  EXPECT_TRUE(served.stop(SIGTERM).exited_with(0));
}

}  // namespace
}  // namespace petstore::tests
