#pragma once
// The database URL, parsed by libpq and never echoed (it may hold the password), turned into
// ConnectTargets for the repository and the archive.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/error.hpp"

namespace petstore::adapters::storage::postgres {

struct ParsedUrl {
  std::string description;        // "user@host:port/dbname" (every host, comma-separated)
  std::string password;           // empty when the URL has none
  std::vector<TargetHost> hosts;  // one per host; empty when the URL names none (libpq's default)
  // The URL's connect_timeout in seconds, as libpq reads it (below 2 counts as 2); 0 when the URL
  // sets none, or 0, which libpq takes as "wait for ever" and the adapter never does.
  long connect_timeout_seconds = 0;
};

// parse_url: invalid_argument when libpq cannot parse `url` (the message names `flag` and does
// not repeat the URL).
[[nodiscard]] domain::Result<ParsedUrl> parse_url(const std::string& url,
                                                  std::string_view flag = "--database-url");

// default_host_timeout: one host's connect attempt's, when the URL sets no connect_timeout.
inline constexpr std::chrono::milliseconds default_host_timeout{2000};

// target_for: how to connect to `url` (by default options.database_url), every host of it tried
// in turn, keeping its password out of messages.
[[nodiscard]] ConnectTarget target_for(const PostgresOptions& options, ParsedUrl parsed,
                                       const std::string* url = nullptr);

// replica_target_for: how to connect to one host of the read URL (each replica is a pool of its
// own), whatever its target_session_attrs says: each connection checks whether the host replays
// the primary's history (postgres_replica_proof.hpp), so that a primary there is no failure.
[[nodiscard]] ConnectTarget replica_target_for(const PostgresOptions& options,
                                               const ParsedUrl& parsed, const TargetHost& host);

}  // namespace petstore::adapters::storage::postgres
