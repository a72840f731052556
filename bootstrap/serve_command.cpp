#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/cli/data_tools.hpp"
#include "adapters/clock/system_clock.hpp"
#include "adapters/http/api/routes.hpp"
#include "adapters/http/server/http_server.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "adapters/systemd/service_notifier.hpp"
#include "bootstrap/commands.hpp"
#include "bootstrap/observability.hpp"
#include "bootstrap/postgres_storage.hpp"
#include "bootstrap/reload_worker.hpp"
#include "bootstrap/service.hpp"
#include "bootstrap/stop_signals.hpp"

namespace petstore::bootstrap {
namespace {

// The drain's bound (contract section 7), the 503s to requests still waiting for storage
// included: they are refused this long before it, so that the whole stop keeps to it.
constexpr std::chrono::seconds drain_deadline{10};
constexpr std::chrono::milliseconds refusals_limit{500};
// At exit: a stalled stdout reader does not hold the process (contract section 9).
constexpr std::chrono::milliseconds log_drain_limit{500};

using adapters::cli::report;
using adapters::logging::Logger;

domain::Result<std::unique_ptr<ports::PetRepository>> open_storage(
    const ServeOptions& options, adapters::metrics::Metrics& metrics, Logger& logger,
    std::atomic<bool>& storage_ready, const std::stop_token& stop) {
  if (options.storage == StorageKind::memory) {
    return adapters::storage::memory::make_memory_pet_repository();
  }
  if (options.storage == StorageKind::postgres) {
    return open_postgres_storage(options.postgres, logger, metrics, storage_ready, stop);
  }
  adapters::storage::lmdb::LmdbOptions lmdb = options.lmdb;
  lmdb.on_commit = [&metrics](std::chrono::nanoseconds duration, std::size_t /*batch*/) {
    metrics.storage_committed(duration);
  };
  return adapters::storage::lmdb::make_lmdb_pet_repository(lmdb);
}

void reload_keys(adapters::auth::ReloadableKeyVerifier& keys, Logger& logger) {
  const auto reloaded = keys.reload();
  if (!reloaded) {
    logger.error("reload_failed", {{"what", "api keys"}, {"message", reloaded.error().message}});
    return;
  }
  for (const auto& warning : reloaded->warnings) {
    logger.warn("key_file_warning", {{"message", warning}});
  }
  logger.info("reloaded", {{"api_keys", static_cast<std::int64_t>(reloaded->key_count)}});
}

// stop_gracefully: /readyz turns 503 at once; serving goes on for the drain delay (a second signal
// ends it), then the listener closes and requests in flight get up to drain_deadline; those still
// waiting for storage near its end are answered 503 (docs/decisions/the-stop.md).
void stop_gracefully(adapters::http::HttpServer& server, Service& service, StopSignals& signals,
                     std::chrono::milliseconds drain_delay, Logger& logger,
                     const adapters::systemd::ServiceNotifier& manager) {
  manager.notify("STOPPING=1");
  service.set_ready(false);
  if (drain_delay.count() > 0) {
    logger.info("drain_delay", {{"message", "not ready; serving on until the delay ends"},
                                {"seconds", std::chrono::duration<double>(drain_delay).count()}});
    if (signals.wait_for_another_until(std::chrono::steady_clock::now() + drain_delay)) {
      logger.info("drain_delay_skipped", {{"message", "another signal; draining now"}});
    }
  }
  logger.info("draining", {{"message", "answering requests in flight"}});
  server.drain();
  if (server.wait_until_idle(drain_deadline - refusals_limit)) {
    return;
  }
  logger.warn("drain_bound", {{"message", "out of time: requests waiting for storage get 503"}});
  server.refuse_waiting_requests();
  (void)server.wait_until_idle(refusals_limit);
}

// refusal_of: why `options` cannot be served as given, before anything opens: the line to print
// (exit 2: settings that no restart can cure, contract section 11).
std::optional<std::string> refusal_of(const ServeOptions& options, const ListenAddress& address) {
  if (options.tls_cert.has_value() != options.tls_key.has_value()) {
    return "--tls-cert and --tls-key go together: pass both for HTTPS, or neither";
  }
  if (!options.tls_cert && !is_loopback_host(address.host) && !options.allow_plain_http) {
    return "refusing plain HTTP on " + address.host +
           ": API keys would cross the network in clear text; pass --tls-cert and "
           "--tls-key, or --allow-plain-http behind a TLS-terminating proxy";
  }
  if (options.storage != StorageKind::postgres && !options.postgres.read_url.empty()) {
    // Replicas only ever serve PostgreSQL's reads: ignoring the URL would hide a mistyped storage.
    return "--database-read-url (or PETSTORE_DATABASE_READ_URL) needs --storage postgres";
  }
  if (options.storage == StorageKind::postgres) {
    if (options.postgres.database_url.empty()) {
      return "--storage postgres needs --database-url (or PETSTORE_DATABASE_URL)";
    }
    if (auto url =
            adapters::storage::postgres::describe_database_url(options.postgres.database_url);
        !url) {
      return url.error().message;
    }
    if (auto url = adapters::storage::postgres::describe_database_url(options.postgres.read_url,
                                                                      "--database-read-url");
        !options.postgres.read_url.empty() && !url) {
      return url.error().message;
    }
  }
  return std::nullopt;
}

// open_keys: the key file's verifier, its warnings printed; nullopt after saying why not.
std::optional<adapters::auth::LoadedKeyFile> open_keys(const std::filesystem::path& file) {
  auto keys = adapters::auth::make_file_key_verifier(file);
  if (!keys) {
    std::error_code ignored;
    const bool missing = !std::filesystem::exists(file, ignored);
    report(keys.error().message +
           (missing ? "; make one with: petstore keys new --api-keys " + file.string() : ""));
    return std::nullopt;
  }
  for (const auto& warning : keys->report.warnings) {
    report("warning: " + warning);
  }
  return std::move(*keys);
}

void announce_start(Logger& logger, const ServeOptions& options,
                    const adapters::http::HttpServer& server) {
  const char* scheme = options.tls_cert ? "https://" : "http://";
  // The first line on stdout, whatever the log level: scripts wait for it to learn the port.
  logger.announce("listening",
                  std::string("listening on ") + scheme + server.local_address() + "/v1");
  logger.info("start", {{"address", server.local_address()},
                        {"version", build_version()},
                        {"storage", storage_name(options.storage)},
                        {"tls", options.tls_cert ? "on" : "off"},
                        {"http2", options.http2 ? "on" : "off"}});
}

// serve_and_stop: serves until a stop signal, then stops gracefully.
int serve_and_stop(adapters::http::HttpServer& http, Service& service, StopSignals& signals,
                   std::chrono::milliseconds drain_delay,
                   adapters::auth::ReloadableKeyVerifier& keys, Logger& logger) {
  ReloadWorker reloads([&keys, &http, &logger] {
    reload_keys(keys, logger);
    if (const auto reloaded = http.reload_tls(); !reloaded) {
      logger.error("reload_failed",
                   {{"what", "tls certificate"}, {"message", reloaded.error().message}});
    }
  });
  signals.on_reload([&reloads, &logger] {
    logger.info("reload", {{"signal", "SIGHUP"}});
    reloads.request();
  });
  // systemd (Type=notify) counts the service started only now that it listens.
  const auto manager = adapters::systemd::ServiceNotifier::from_environment();
  manager.notify("READY=1");
  signals.wait_for_stop();
  signals.on_reload({});
  stop_gracefully(http, service, signals, drain_delay, logger, manager);
  const bool reload_finished = reloads.stop();
  http.stop();
  service.close_storage();  // waits for no database: nothing waits for its answers any more
  logger.info("stop");
  if (!reload_finished) {
    // A reload is stuck reading a file and is not waited for. It uses the key verifier, the server
    // and the logger, so nothing is destroyed under it: the process ends here.
    logger.close(log_drain_limit);
    std::_Exit(0);
  }
  return 0;
}

}  // namespace

int run_serve(const ServeOptions& options) {
  const auto address = parse_listen_address(options.listen);
  if (!address) {
    report("--listen must be HOST:PORT, for example 127.0.0.1:8080 or [::1]:8080");
    return 2;
  }
  if (const auto refused = refusal_of(options, *address)) {
    report(*refused);
    return 2;
  }
  auto keys = open_keys(options.api_keys);
  if (!keys) {
    return 1;
  }
  // Before any thread starts (stop_signals.hpp).
  StopSignals signals;
  // Shared with the signal thread, which may outlive this frame's other objects.
  const std::shared_ptr<Logger> logger = Logger::to_stdout(options.log_format, options.log_level);
  signals.on_exit_now([logger] {
    logger->warn("stop_now", {{"message", "another signal, stopping now"}});
    logger->close(log_drain_limit);
    std::_Exit(0);
  });
  // What storage logs while it opens follows the listening line (README: the first line).
  logger->hold_until_announced();
  adapters::metrics::Metrics metrics({build_version(), build_commit()},
                                     adapters::http::operation_ids());
  metrics.set_log_lines_dropped([&log = *logger] { return log.lines_dropped(); });
  // PostgreSQL's connections come and go; the other storages are ready once open.
  std::atomic<bool> storage_ready{options.storage != StorageKind::postgres};
  auto pets = open_storage(options, metrics, *logger, storage_ready, signals.stop_token());
  if (!pets) {
    report(pets.error().message);
    return 1;
  }
  if (signals.stop_token().stop_requested()) {
    logger->info("stop", {{"message", "stopped before serving"}});
    return 0;
  }
  auto& reloadable_keys = *keys->verifier;
  Service service(ServiceParts{std::move(*pets), std::move(keys->verifier),
                               adapters::clock::make_system_clock()},
                  ServiceSettings{options.auth_failures_per_minute, &metrics, logger.get(),
                                  [&storage_ready] { return storage_ready.load(); },
                                  options.trusted_proxies, options.cors});
  ServiceObserver observer(metrics, *logger);
  adapters::http::HttpServerOptions http_options{address->host,  address->port, options.threads,
                                                 options.limits, std::nullopt,  &observer};
  if (options.tls_cert && options.tls_key) {
    http_options.tls = adapters::http::TlsFiles{*options.tls_cert, *options.tls_key};
  }
  http_options.http2 = options.http2;
  auto server = adapters::http::start_http_server(http_options, service.router());
  if (!server) {
    report(server.error().message);
    return 1;
  }
  service.set_ready(true);
  announce_start(*logger, options, **server);
  return serve_and_stop(**server, service, signals, options.drain_delay, reloadable_keys, *logger);
}

}  // namespace petstore::bootstrap
