#pragma once
// What each command is told (contract section 7), parsed but not yet acted on: `serve` on its
// command line or in its environment; the data tools `export`, `import` and `backup` on the
// command line only, so that the store they act on is never picked up from a forgotten
// PETSTORE_DATA_DIR.

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/http/api/client_address.hpp"
#include "adapters/http/api/cors_policy.hpp"
#include "adapters/http/server/http_server.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"

namespace petstore::bootstrap {

// StorageKind: where pets are kept (--storage). The command line's word becomes the kind once
// (add_word_flag); everything after compares kinds, never words.
enum class StorageKind { memory, lmdb, postgres };

[[nodiscard]] constexpr std::string_view storage_name(StorageKind kind) {
  switch (kind) {
    case StorageKind::memory:
      return "memory";
    case StorageKind::postgres:
      return "postgres";
    case StorageKind::lmdb:
      break;
  }
  return "lmdb";
}

struct ServeOptions {
  std::string listen = "127.0.0.1:8080";
  StorageKind storage = StorageKind::lmdb;
  std::filesystem::path data_dir = "./data";
  std::filesystem::path api_keys;
  unsigned threads = 1;
  std::optional<std::filesystem::path> tls_cert;
  std::optional<std::filesystem::path> tls_key;
  bool allow_plain_http = false;
  bool http2 = true;  // --http2 on|off: HTTP/2 beside HTTP/1.1 (h2 by ALPN, h2c prior knowledge)
  double auth_failures_per_minute = 60;
  adapters::http::TrustedProxies trusted_proxies;  // none: the TCP peer is the client
  adapters::http::CorsPolicy cors;                 // none: no page of another origin may call
  adapters::http::HttpLimits limits;
  // On SIGTERM/SIGINT: /readyz answers 503 and serving goes on this long before the drain.
  std::chrono::milliseconds drain_delay{0};
  adapters::storage::lmdb::LmdbOptions lmdb;
  adapters::storage::postgres::PostgresOptions postgres;
  adapters::logging::LogFormat log_format = adapters::logging::LogFormat::json;
  adapters::logging::LogLevel log_level = adapters::logging::LogLevel::info;
};

// KeysOptions: what `keys new`, `keys list` and `keys revoke` are given.
struct KeysOptions {
  std::filesystem::path api_keys;
  std::string label;       // new
  bool read_only = false;  // new
  std::string which;       // revoke: a label or a digest prefix
};

// StoreOptions: the store a data tool acts on.
struct StoreOptions {
  StorageKind storage = StorageKind::lmdb;
  std::filesystem::path data_dir;  // lmdb
  std::string database_url{};      // postgres: a libpq connection string or URI
};

struct ExportOptions {
  StoreOptions store;
  std::optional<std::filesystem::path> out;  // standard output when absent or "-"
};

struct ImportOptions {
  StoreOptions store;
  std::optional<std::filesystem::path> in;  // standard input when absent or "-"
};

struct BackupOptions {
  StoreOptions store;
  std::filesystem::path out;
};

// ListenAddress: HOST:PORT split; IPv6 hosts come without their brackets.
struct ListenAddress {
  std::string host;
  std::uint16_t port = 0;
};

// parse_listen_address: "127.0.0.1:8080", "[::1]:0", "localhost:8080"; nullopt when malformed.
[[nodiscard]] std::optional<ListenAddress> parse_listen_address(const std::string& text);

// is_loopback_host: true for localhost, 127.0.0.0/8 and ::1, where plain HTTP is safe.
[[nodiscard]] bool is_loopback_host(const std::string& host);

}  // namespace petstore::bootstrap
