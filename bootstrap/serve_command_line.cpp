#include "bootstrap/serve_command_line.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <thread>
#include <utility>

#include <CLI/CLI.hpp>

namespace petstore::bootstrap {
namespace {

std::chrono::milliseconds from_seconds(double seconds) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000.0));
}

// Sizes in bytes, or with a unit: 64KiB (1024), 64kB (1000), 1GiB, ...
CLI::Validator size_units() { return CLI::AsSizeValue(true); }

// Durations in seconds, or with a unit: 500ms, 10s, 2min.
CLI::Validator duration_units() {
  auto units =
      CLI::AsNumberWithUnit(std::map<std::string, double>{{"ms", 0.001}, {"s", 1}, {"min", 60}});
  units.description("DURATION [s, ms, min]");
  return units;
}

// Every number a flag takes is finite: CLI11 reads "nan" and "inf" as doubles, and a NaN passes
// CLI::Range (docs/decisions/finite-numbers-only.md). Checked after the units are applied, so
// "infms" is caught as well; it names no type in --help.
CLI::Validator finite_number() {
  return CLI::Validator(
      [](const std::string& value) -> std::string {
        char* end = nullptr;
        const double number = std::strtod(value.c_str(), &end);
        const bool whole = !value.empty() && end == value.c_str() + value.size();
        return whole && !std::isfinite(number) ? value + " is not a finite number" : "";
      },
      "");
}

// ranged: `option`, also read from `variable`, checked finite and in range, its default shown.
template <class Number>
CLI::Option* ranged(CLI::Option* option, const std::string& variable, Number lowest,
                    Number highest) {
  return option->envname(variable)
      ->check(finite_number())
      ->check(CLI::Range(lowest, highest))
      ->capture_default_str();
}

// with_units: ranged, with `units` applied first.
template <class Number>
CLI::Option* with_units(CLI::Option* option, const std::string& variable,
                        const CLI::Validator& units, Number lowest, Number highest) {
  return ranged(option->transform(units), variable, lowest, highest);
}

// parsed_into: a check that reads the value as the option will be read (`Parsed::parse`), so a
// bad one is named with its flag at parse time (exit 2); what it read is kept in `into`.
template <class Parsed>
CLI::Validator parsed_into(Parsed& into, const std::string& shape) {
  return CLI::Validator(
      [&into](const std::string& value) -> std::string {
        auto parsed = Parsed::parse(value);
        if (!parsed) {
          return parsed.error().message;
        }
        into = std::move(*parsed);
        return "";
      },
      shape);
}

// The listening socket, TLS, keys and who may call.
void add_server_flags(CLI::App& serve, ServeOptions& options, ServeFlags& flags) {
  // Read by apply_config_file before parsing; declared so that --help lists it and parsing
  // accepts it.
  serve
      .add_option("--config",
                  "TOML file of these flags (same names, no --); flags and "
                  "environment variables win over it")
      ->envname("PETSTORE_CONFIG");
  serve.add_option("--listen", options.listen, "HOST:PORT to listen on (port 0: any free port)")
      ->envname("PETSTORE_LISTEN")
      ->capture_default_str();
  serve.add_option("--api-keys", options.api_keys, "Key file (make one: petstore keys new)")
      ->envname("PETSTORE_API_KEYS")
      ->required();
  ranged(serve.add_option("--threads", options.threads, "Threads serving HTTP (default: cores)"),
         "PETSTORE_THREADS", 1U, 1024U);
  serve.add_option("--tls-cert", options.tls_cert, "TLS certificate chain (PEM)")
      ->envname("PETSTORE_TLS_CERT");
  serve.add_option("--tls-key", options.tls_key, "TLS private key (PEM)")
      ->envname("PETSTORE_TLS_KEY");
  serve
      .add_option("--http2", options.http2,
                  "HTTP/2 beside HTTP/1.1: h2 by ALPN over TLS, h2c with prior knowledge: on, off")
      ->envname("PETSTORE_HTTP2")
      ->transform(
          CLI::CheckedTransformer(std::map<std::string, bool>{{"on", true}, {"off", false}}))
      ->default_str("on");
  serve
      .add_flag("--allow-plain-http", options.allow_plain_http,
                "Serve plain HTTP on a non-loopback address (behind a TLS proxy)")
      ->envname("PETSTORE_ALLOW_PLAIN_HTTP");
  ranged(serve.add_option("--auth-failures-per-minute", options.auth_failures_per_minute,
                          "Failed authentications allowed per client address and minute, then 429"),
         "PETSTORE_AUTH_FAILURES_PER_MINUTE", 1.0, 1'000'000.0);
  serve
      .add_option("--trusted-proxies", flags.trusted_proxies,
                  "Proxies (CIDR,...) whose X-Forwarded-For names the client")
      ->envname("PETSTORE_TRUSTED_PROXIES")
      ->check(parsed_into(options.trusted_proxies, "CIDR,..."));
  serve
      .add_option("--cors-origins", flags.cors_origins,
                  "Origins (scheme://host[:port],...) whose browser pages may call the API (CORS)")
      ->envname("PETSTORE_CORS_ORIGINS")
      ->check(parsed_into(options.cors, "ORIGIN,..."));
}

void add_storage_flags(CLI::App& serve, ServeOptions& options, ServeFlags& flags) {
  add_word_flag(serve, "--storage", options.storage,
                {{"memory", StorageKind::memory},
                 {"lmdb", StorageKind::lmdb},
                 {"postgres", StorageKind::postgres}},
                "Where pets are kept: memory, lmdb or postgres")
      ->envname("PETSTORE_STORAGE");
  serve.add_option("--data-dir", options.data_dir, "LMDB data directory (created when missing)")
      ->envname("PETSTORE_DATA_DIR")
      ->capture_default_str();
  options.postgres.pool_size = 0;  // not given: twice --threads, once those are known
  serve
      .add_option("--database-url", options.postgres.database_url,
                  "PostgreSQL connection string or URI (--storage postgres)")
      ->envname("PETSTORE_DATABASE_URL");
  serve
      .add_option("--database-read-url", options.postgres.read_url,
                  "PostgreSQL replicas (one or several hosts) that gets and lists may read")
      ->envname("PETSTORE_DATABASE_READ_URL");
  serve
      .add_option("--database-pool-size", options.postgres.pool_size,
                  "Connections to PostgreSQL (default: twice --threads)")
      ->envname("PETSTORE_DATABASE_POOL_SIZE")
      ->check(finite_number())
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
  flags.database_timeout_given =
      with_units(serve.add_option("--database-timeout", flags.database_timeout,
                                  "Alias of --storage-timeout (its older name, for PostgreSQL)"),
                 "PETSTORE_DATABASE_TIMEOUT", duration_units(), 0.01, 3600.0);
  with_units(
      serve.add_option("--lmdb-map-size", options.lmdb.initial_map_size, "LMDB map size at start"),
      "PETSTORE_LMDB_MAP_SIZE", size_units(), std::size_t{1} << 20U, std::size_t{1} << 40U);
  with_units(
      serve.add_option("--lmdb-map-growth", options.lmdb.map_growth_step, "LMDB map growth step"),
      "PETSTORE_LMDB_MAP_GROWTH", size_units(), std::size_t{1} << 20U, std::size_t{1} << 40U);
}

// How much a request may send and how long it may take.
void add_limit_flags(CLI::App& serve, adapters::http::HttpLimits& limits, ServeFlags& flags) {
  with_units(
      serve.add_option("--max-body-bytes", limits.body_bytes, "Largest request body accepted"),
      "PETSTORE_MAX_BODY_BYTES", size_units(), std::size_t{1}, std::size_t{1} << 30U);
  with_units(
      serve.add_option("--max-header-bytes", limits.header_bytes, "Largest request head accepted"),
      "PETSTORE_MAX_HEADER_BYTES", size_units(), std::size_t{512}, std::size_t{1} << 20U);
  with_units(serve.add_option("--header-timeout", flags.header_timeout,
                              "Time allowed for a request's headers"),
             "PETSTORE_HEADER_TIMEOUT", duration_units(), 0.01, 3600.0);
  with_units(serve.add_option("--body-timeout", flags.body_timeout,
                              "Time allowed for a body after its headers"),
             "PETSTORE_BODY_TIMEOUT", duration_units(), 0.01, 3600.0);
  with_units(
      serve.add_option("--idle-timeout", flags.idle_timeout, "Time an idle keep-alive stays open"),
      "PETSTORE_IDLE_TIMEOUT", duration_units(), 0.01, 86400.0);
  flags.storage_timeout_given = with_units(
      serve.add_option("--storage-timeout", flags.storage_timeout,
                       "Time a request waits for storage before 503 (each database call included)"),
      "PETSTORE_STORAGE_TIMEOUT", duration_units(), 0.01, 3600.0);
  with_units(
      serve.add_option("--drain-delay", flags.drain_delay,
                       "On SIGTERM, time /readyz says 503 while serving goes on, before the drain"),
      "PETSTORE_DRAIN_DELAY", duration_units(), 0.0, 3600.0);
  ranged(serve.add_option("--max-connections", limits.max_connections,
                          "Most connections open at once"),
         "PETSTORE_MAX_CONNECTIONS", std::size_t{1}, std::size_t{1'000'000});
}

void add_log_flags(CLI::App& serve, ServeOptions& options) {
  using adapters::logging::LogFormat;
  using adapters::logging::LogLevel;
  add_word_flag(serve, "--log-format", options.log_format,
                {{"json", LogFormat::json}, {"text", LogFormat::text}},
                "Log lines on stdout: json or text")
      ->envname("PETSTORE_LOG_FORMAT");
  add_word_flag(serve, "--log-level", options.log_level,
                {{"debug", LogLevel::debug},
                 {"info", LogLevel::info},
                 {"warn", LogLevel::warn},
                 {"error", LogLevel::error}},
                "Least level logged: debug, info, warn, error")
      ->envname("PETSTORE_LOG_LEVEL");
}

}  // namespace

void add_serve_flags(CLI::App& serve, ServeOptions& options, ServeFlags& flags) {
  options.threads = std::max(1U, std::thread::hardware_concurrency());
  add_server_flags(serve, options, flags);
  add_storage_flags(serve, options, flags);
  add_limit_flags(serve, options.limits, flags);
  add_log_flags(serve, options);
}

bool ServeFlags::timeouts_disagree() const {
  return storage_timeout_given->count() > 0 && database_timeout_given->count() > 0 &&
         storage_timeout != database_timeout;
}

void apply_serve_flags(const ServeFlags& flags, ServeOptions& options) {
  if (options.postgres.pool_size == 0) {
    options.postgres.pool_size = std::size_t{2} * options.threads;
  }
  // One clock for a storage call, from the request to the database: --storage-timeout, or its
  // alias when only the alias was given (run refused the two disagreeing).
  const bool alias_only =
      flags.storage_timeout_given->count() == 0 && flags.database_timeout_given->count() > 0;
  const double storage_timeout = alias_only ? flags.database_timeout : flags.storage_timeout;
  options.postgres.call_timeout = from_seconds(storage_timeout);
  options.limits.header_timeout = from_seconds(flags.header_timeout);
  options.limits.body_timeout = from_seconds(flags.body_timeout);
  options.limits.idle_timeout = from_seconds(flags.idle_timeout);
  options.limits.storage_timeout = from_seconds(storage_timeout);
  options.drain_delay = from_seconds(flags.drain_delay);
  options.lmdb.data_dir = options.data_dir;
}

}  // namespace petstore::bootstrap
