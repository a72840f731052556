#pragma once
// The database URL as the adapter uses it: parsed by libpq (never echoed, since it may hold the
// password), described for logs without the password, and turned into a ConnectTarget. Shared by
// the repository and the archive.

#include <string>

#include "adapters/storage/postgres/postgres_connection.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

struct ParsedUrl {
  std::string description;  // "user@host:port/dbname"
  std::string password;     // empty when the URL has none
};

// parse_url: invalid_argument when libpq cannot parse `url` (the message does not repeat it).
[[nodiscard]] domain::Result<ParsedUrl> parse_url(const std::string& url);

// target_for: how to connect to `options.database_url`, keeping `password` out of messages.
[[nodiscard]] ConnectTarget target_for(const PostgresOptions& options, std::string password);

}  // namespace petstore::adapters::storage::postgres
