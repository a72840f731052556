// The trace context of a request reaches PostgreSQL (issue 41 item 3): each get, list and create
// batch is sent with an sqlcommenter comment naming the request's traceparent (and tracestate),
// which the server accepts as part of the statement. Seen on the wire through the proxy of
// tests/support/postgres_cutting_proxy, against a real server.

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "ports/pet_repository_contract.hpp"
#include "support/awaited_repository.hpp"
#include "support/postgres_cutting_proxy.hpp"
#include "support/postgres_server.hpp"

namespace petstore::tests {
namespace {

using adapters::storage::postgres::append_batch_trace_comment;

ports::TraceContext trace_of(std::string_view traceparent, std::string tracestate = {}) {
  ports::TraceContext trace;
  std::copy_n(traceparent.begin(), trace.traceparent.size(), trace.traceparent.begin());
  trace.tracestate = std::move(tracestate);
  return trace;
}

const std::string first = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const std::string second = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00";

TEST(PostgresTraceComment, IsSqlcommentersFormWithTheStateUrlEncoded) {
  std::string sql = "SELECT 1";
  const ports::TraceContext none;
  append_batch_trace_comment(sql, {&none});
  EXPECT_EQ(sql, "SELECT 1") << "no trace, no comment";
  const auto traced = trace_of(first, "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7");
  append_batch_trace_comment(sql, {&traced});
  EXPECT_EQ(sql, "SELECT 1 /*traceparent='" + first +
                     "',tracestate='congo%3Dt61rcWkgMzE%2Crojo%3D00f067aa0ba902b7'*/");
}

TEST(PostgresTraceComment, NothingInTheStateCanEndTheCommentOrTheQuote) {
  std::string sql = "SELECT 1";
  const auto hostile = trace_of(first, "a=*/ DROP TABLE x; /*'");
  append_batch_trace_comment(sql, {&hostile});
  const std::string comment = sql.substr(std::strlen("SELECT 1 /*"));
  EXPECT_EQ(comment.find("*/"), comment.size() - 2) << sql;
  EXPECT_EQ(comment.find(' '), std::string::npos) << sql;
  EXPECT_EQ(std::count(comment.begin(), comment.end(), '\''), 4) << sql;
}

TEST(PostgresTraceComment, ABatchNamesEveryTracedCreate) {
  const auto one = trace_of(first);
  const auto two = trace_of(second);
  const ports::TraceContext none;
  std::string sql = "SELECT 1";
  append_batch_trace_comment(sql, {&none, &one, &two});
  EXPECT_EQ(sql, "SELECT 1 /*petstore_batch='" + first + "%2C" + second + "',traceparent='" +
                     first + "'*/");
  std::string untraced = "SELECT 1";
  append_batch_trace_comment(untraced, {&none, &none});
  EXPECT_EQ(untraced, "SELECT 1");
}

class PostgresTraceOnTheWire : public testing::Test {
 protected:
  PostgresTraceOnTheWire() : database_(shared_postgres_server().create_database()) {
    adapters::storage::postgres::PostgresOptions options;
    options.database_url = proxy_.url(database_);
    repository_ = adapters::storage::postgres::make_postgres_pet_repository(options).value();
  }

  PostgresCuttingProxy proxy_{shared_postgres_server()};
  std::string database_;
  std::unique_ptr<ports::PetRepository> repository_;
};

TEST_F(PostgresTraceOnTheWire, EachReadAndCreateCarriesItsRequestsTraceparent) {
  const auto create_trace = trace_of(first, "congo=t61rcWkgMzE");
  const auto created = awaited_detail::await_result<ports::CreateOutcome>("create", [&](auto done) {
    repository_->create({new_pet("Traced"), std::nullopt, test_now},
                        {std::move(done), ports::no_deadline, create_trace});
  });
  ASSERT_TRUE(created.has_value()) << created.error().message;
  const auto read_trace = trace_of(second);
  const auto got = awaited_detail::await_result<domain::Pet>("get", [&](auto done) {
    repository_->get(created->pet.id, {std::move(done), ports::no_deadline, read_trace});
  });
  ASSERT_TRUE(got.has_value()) << got.error().message;
  EXPECT_EQ(got->name.value(), "Traced");
  const auto listed = awaited_detail::await_result<ports::PetPage>("list", [&](auto done) {
    repository_->list(
        ports::PetQuery{std::nullopt, std::nullopt, domain::PageSize::from(10).value()},
        {std::move(done), ports::no_deadline, read_trace});
  });
  ASSERT_TRUE(listed.has_value()) << listed.error().message;
  EXPECT_EQ(listed->pets.size(), 1U);

  const std::string sent = proxy_.sent();
  EXPECT_NE(sent.find("/*traceparent='" + first + "',tracestate='congo%3Dt61rcWkgMzE'*/"),
            std::string::npos)
      << "the create batch";
  const auto read_comment = "/*traceparent='" + second + "'*/";
  const auto first_read = sent.find(read_comment);
  ASSERT_NE(first_read, std::string::npos) << "the get";
  EXPECT_NE(sent.find(read_comment, first_read + 1), std::string::npos) << "the list";
}

}  // namespace
}  // namespace petstore::tests
