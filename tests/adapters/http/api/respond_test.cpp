// Respond (adapters/http/api/http_message.hpp): the reply of one request. Called, its target gets
// the response once; dropped uncalled (an answer lost in storage or the router), it answers 500
// internal_error with the /v1 headers and a fault for the request's log line, so no request hangs.

#include <optional>
#include <utility>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "adapters/http/api/http_message.hpp"

namespace petstore::tests {
namespace {

using adapters::http::HttpResponse;
using adapters::http::Respond;

Respond listening(std::optional<HttpResponse>& heard, int& calls) {
  return [&heard, &calls](HttpResponse response) {
    ++calls;
    heard = std::move(response);
  };
}

TEST(Respond, ACalledReplyGivesItsResponseOnce) {
  std::optional<HttpResponse> heard;
  int calls = 0;
  {
    Respond respond = listening(heard, calls);
    HttpResponse response;
    response.status = 201;
    respond(std::move(response));
    EXPECT_FALSE(static_cast<bool>(respond));
  }  // called already: its end answers nothing more
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(heard->status, 201U);
}

TEST(Respond, DroppedUncalledItAnswers500WithTheV1HeadersAndAFault) {
  std::optional<HttpResponse> heard;
  int calls = 0;
  { const Respond respond = listening(heard, calls); }
  ASSERT_EQ(calls, 1);
  EXPECT_EQ(heard->status, 500U);
  const auto body = boost::json::parse(heard->body).as_object();
  EXPECT_EQ(body.at("code").as_string(), "internal_error");
  EXPECT_EQ(body.at("status").as_int64(), 500);
  EXPECT_EQ(heard->header("Cache-Control"), "no-store");
  EXPECT_FALSE(heard->fault.empty());
}

TEST(Respond, AMovedFromReplyAnswersNothingAndTheMovedOneStillAnswers) {
  std::optional<HttpResponse> heard;
  int calls = 0;
  std::optional<Respond> moved;
  {
    Respond respond = listening(heard, calls);
    moved.emplace(std::move(respond));
  }
  EXPECT_EQ(calls, 0);
  moved.reset();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(heard->status, 500U);
}

}  // namespace
}  // namespace petstore::tests
