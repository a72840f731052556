#pragma once
// libpq, once for the adapter: owning pointers for what libpq allocates, the keywords a
// connection is made with (ConnectTarget), statements sent with text parameters, and libpq's
// messages with the URL's password masked. Every file of the adapter that calls libpq takes
// these from here rather than writing its own.

#include <chrono>
#include <cstddef>
#include <libpq-fe.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace petstore::adapters::storage::postgres {

struct ConnDeleter {
  void operator()(PGconn* conn) const { PQfinish(conn); }
};
struct ResultDeleter {
  void operator()(PGresult* result) const { PQclear(result); }
};
struct ConninfoDeleter {
  void operator()(PQconninfoOption* options) const { PQconninfoFree(options); }
};
using ConnPtr = std::unique_ptr<PGconn, ConnDeleter>;
using ResultPtr = std::unique_ptr<PGresult, ResultDeleter>;
using ConninfoPtr = std::unique_ptr<PQconninfoOption, ConninfoDeleter>;

// ConnectTarget: how to reach the database: libpq keywords and values (the URL expanded from
// "dbname"; postgres_target.hpp builds them), the password to keep out of every message, and
// how long an attempt may take.
struct ConnectTarget {
  std::vector<std::string> keywords;
  std::vector<std::string> values;
  std::string password;
  std::chrono::milliseconds timeout{5000};

  // ConnectParams: keywords and values as libpq's *Params connect calls take them, each list
  // ended by a null; valid while the target lives.
  struct ConnectParams {
    std::vector<const char*> keywords;
    std::vector<const char*> values;
  };
  [[nodiscard]] ConnectParams params() const {
    ConnectParams params;
    for (std::size_t i = 0; i < keywords.size(); ++i) {
      params.keywords.push_back(keywords[i].c_str());
      params.values.push_back(values[i].c_str());
    }
    params.keywords.push_back(nullptr);
    params.values.push_back(nullptr);
    return params;
  }
};

// start_connect: PQconnectStartParams with the target's keywords (the URL expanded): a
// connection to drive with PQconnectPoll, or null when libpq is out of memory.
[[nodiscard]] ConnPtr start_connect(const ConnectTarget& target);

// send_query: PQsendQueryParams of `sql` with `params` in text form (nullopt is NULL); false
// when libpq refused to send it (see PQerrorMessage).
[[nodiscard]] bool send_query(PGconn* conn, const char* sql,
                              const std::vector<std::optional<std::string>>& params);

// redacted: libpq's `text` without its trailing newlines and spaces, each occurrence of
// `password` (when not empty) replaced by "***".
[[nodiscard]] std::string redacted(std::string_view text, const std::string& password);

// one_line: redacted, with the newlines inside the text turned into spaces as well.
[[nodiscard]] std::string one_line(std::string_view text, const std::string& password);

}  // namespace petstore::adapters::storage::postgres
