// Respond: a copyable callable like std::function, whose small targets (the server's responder:
// one shared_ptr) live inside it; copies share nothing but what the target's copy shares; a
// moved-from Respond is empty; targets too large for it live on the heap and behave the same.

#include "adapters/http/api/respond.hpp"

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "adapters/http/api/http_message.hpp"

namespace petstore::tests {
namespace {

using adapters::http::HttpResponse;
using adapters::http::Respond;

HttpResponse with_status(unsigned status) {
  HttpResponse response;
  response.status = status;
  return response;
}

TEST(Respond, ATargetOfOneSharedPointerLivesInside) {
  const auto token = std::make_shared<int>(0);
  auto target = [token](const HttpResponse&) {};
  EXPECT_TRUE(Respond::fits_inline<decltype(target)>());
  auto large = [token, padding = std::array<char, 64>{}](const HttpResponse&) { (void)padding; };
  EXPECT_FALSE(Respond::fits_inline<decltype(large)>());
}

TEST(Respond, CopiesCallTheirOwnCopyOfTheTargetAndDestroyIt) {
  for (const bool large : {false, true}) {
    SCOPED_TRACE(large);
    const auto seen = std::make_shared<std::vector<unsigned>>();
    {
      Respond first;
      if (large) {
        first = [seen, padding = std::array<char, 64>{}](const HttpResponse& response) {
          seen->push_back(response.status + static_cast<unsigned>(padding[0]));
        };
      } else {
        first = [seen](const HttpResponse& response) { seen->push_back(response.status); };
      }
      EXPECT_EQ(seen.use_count(), 2);
      const Respond second = first;  // NOLINT(performance-unnecessary-copy-initialization)
      EXPECT_EQ(seen.use_count(), 3);
      first(with_status(201));
      second(with_status(503));
      Respond moved = std::move(first);
      EXPECT_FALSE(static_cast<bool>(first));  // NOLINT(bugprone-use-after-move): checked empty
      EXPECT_EQ(seen.use_count(), 3);
      moved(with_status(200));
    }
    EXPECT_EQ(seen.use_count(), 1);
    EXPECT_EQ(*seen, (std::vector<unsigned>{201, 503, 200}));
  }
}

TEST(Respond, AnEmptyRespondIsFalse) {
  const Respond empty;
  EXPECT_FALSE(static_cast<bool>(empty));
}

}  // namespace
}  // namespace petstore::tests
