#include "adapters/storage/postgres/postgres_target.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <libpq-fe.h>
#include <memory>
#include <utility>

namespace petstore::adapters::storage::postgres {
namespace {

struct OptionsDeleter {
  void operator()(PQconninfoOption* options) const { PQconninfoFree(options); }
};

}  // namespace

domain::Result<ParsedUrl> parse_url(const std::string& url) {
  char* message = nullptr;
  const std::unique_ptr<PQconninfoOption, OptionsDeleter> options(
      PQconninfoParse(url.c_str(), &message));
  // libpq's message may quote the part it could not parse, which may be the password.
  PQfreemem(message);
  if (!options) {
    return domain::invalid_argument(
        "database_url", "--database-url is not a connection string or URI that libpq can parse");
  }
  std::string user;
  std::string host;
  std::string port;
  std::string dbname;
  ParsedUrl parsed;
  for (const auto* option = options.get(); option->keyword != nullptr; ++option) {
    const std::string keyword = option->keyword;
    const std::string value = option->val != nullptr ? option->val : "";
    if (keyword == "user") {
      user = value;
    } else if (keyword == "host" || (keyword == "hostaddr" && host.empty())) {
      host = value;
    } else if (keyword == "port") {
      port = value;
    } else if (keyword == "dbname") {
      dbname = value;
    } else if (keyword == "password") {
      parsed.password = value;
    }
  }
  parsed.description = (user.empty() ? "" : user + "@") + (host.empty() ? "(default host)" : host) +
                       (port.empty() ? "" : ":" + port) + "/" + dbname;
  return parsed;
}

ConnectTarget target_for(const PostgresOptions& options, std::string password) {
  const auto seconds = std::max<std::int64_t>(
      2, std::chrono::ceil<std::chrono::seconds>(options.call_timeout).count());
  // Keywords after "dbname" override the URL's; connect_timeout before it yields to the URL.
  return ConnectTarget{
      {"connect_timeout", "dbname", "client_encoding", "fallback_application_name"},
      {std::to_string(seconds), options.database_url, "UTF8", "petstore"},
      std::move(password),
      options.call_timeout};
}

}  // namespace petstore::adapters::storage::postgres
