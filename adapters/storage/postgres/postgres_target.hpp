#pragma once
// The database URL as the adapter uses it: parsed by libpq (never echoed, since it may hold the
// password), described for logs without the password, and turned into a ConnectTarget. Shared by
// the repository and the archive. A multi-host read URL is split into one target per host, so
// that each replica is a pool of its own.

#include <string>
#include <string_view>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

// OneHost: one host of a (possibly multi-host) URL, as libpq keywords that override the URL's.
struct OneHost {
  std::vector<std::string> keywords;  // "host", and "port" / "hostaddr" when the URL has them
  std::vector<std::string> values;
  std::string description;  // "user@host:port/dbname"
};

struct ParsedUrl {
  std::string description;     // "user@host:port/dbname" (every host, comma-separated)
  std::string password;        // empty when the URL has none
  std::vector<OneHost> hosts;  // one per host; empty when the URL names none (libpq's default)
};

// parse_url: invalid_argument when libpq cannot parse `url` (the message names `flag` and does
// not repeat the URL).
[[nodiscard]] domain::Result<ParsedUrl> parse_url(const std::string& url,
                                                  std::string_view flag = "--database-url");

// target_for: how to connect to `url` (by default options.database_url), keeping `password` out
// of messages; `host` (from parse_url) narrows a multi-host URL to one of its hosts.
[[nodiscard]] ConnectTarget target_for(const PostgresOptions& options, std::string password,
                                       const std::string* url = nullptr,
                                       const OneHost* host = nullptr);

}  // namespace petstore::adapters::storage::postgres
