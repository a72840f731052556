#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <pthread.h>
#include <signal.h>

#include "adapters/auth/file_key_verifier.hpp"
#include "adapters/clock/system_clock.hpp"
#include "adapters/http/http_server.hpp"
#include "adapters/logging/logger.hpp"
#include "adapters/metrics/metrics.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "bootstrap/build_info.hpp"
#include "bootstrap/commands.hpp"
#include "bootstrap/observability.hpp"
#include "bootstrap/reload_worker.hpp"
#include "bootstrap/service.hpp"

namespace petstore::bootstrap {
namespace {

constexpr std::chrono::seconds drain_deadline{10};

void fail(const std::string& line) { std::cerr << "petstore: " << line << '\n'; }

sigset_t stop_and_reload_signals() {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGHUP);
  return signals;
}

using adapters::logging::Logger;

domain::Result<std::unique_ptr<ports::PetRepository>> open_storage(
    const ServeOptions& options, adapters::metrics::Metrics& metrics) {
  if (options.storage == StorageKind::memory) {
    return adapters::make_memory_pet_repository();
  }
  adapters::LmdbOptions lmdb = options.lmdb;
  lmdb.on_commit = [&metrics](std::chrono::nanoseconds duration, std::size_t /*batch*/) {
    metrics.storage_committed(duration);
  };
  return adapters::make_lmdb_pet_repository(lmdb);
}

void reload_certificate(adapters::http::HttpServer& server, Logger& logger) {
  if (const auto reloaded = server.reload_tls(); !reloaded) {
    logger.error("reload_failed",
                 {{"what", "tls certificate"}, {"message", reloaded.error().message}});
  }
}

void reload_keys(adapters::auth::ReloadableKeyVerifier& keys, Logger& logger) {
  const auto report = keys.reload();
  if (!report) {
    logger.error("reload_failed", {{"what", "api keys"}, {"message", report.error().message}});
    return;
  }
  for (const auto& warning : report->warnings) {
    logger.warn("key_file_warning", {{"message", warning}});
  }
  logger.info("reloaded", {{"api_keys", static_cast<std::int64_t>(report->key_count)}});
}

// Waits for signals: SIGHUP asks `reloads` for a reload of the keys and the TLS certificate (run
// on its thread: this loop never reads a file); the first SIGINT/SIGTERM drains at once, whatever
// a reload is doing; the second (or the deadline) stops at once.
void serve_until_stopped(adapters::http::HttpServer& server, Service& service,
                         ReloadWorker& reloads, Logger& logger) {
  const sigset_t signals = stop_and_reload_signals();
  std::optional<std::chrono::steady_clock::time_point> deadline;
  const timespec tick{0, 50'000'000};
  for (;;) {
    const int signal_number = sigtimedwait(&signals, nullptr, &tick);
    if (signal_number == SIGHUP && !deadline) {
      logger.info("reload", {{"signal", "SIGHUP"}});
      reloads.request();
    } else if (signal_number == SIGINT || signal_number == SIGTERM) {
      if (deadline) {
        logger.warn("stop_now", {{"message", "second signal, stopping now"}});
        return;
      }
      logger.info("draining", {{"message", "answering requests in flight"}});
      service.set_ready(false);
      server.drain();
      deadline = std::chrono::steady_clock::now() + drain_deadline;
    }
    if (deadline && (server.wait_until_idle(std::chrono::milliseconds(0)) ||
                     std::chrono::steady_clock::now() >= *deadline)) {
      return;
    }
  }
}

}  // namespace

int run_serve(const ServeOptions& options) {
  const auto address = parse_listen_address(options.listen);
  if (!address) {
    fail("--listen must be HOST:PORT, for example 127.0.0.1:8080 or [::1]:8080");
    return 2;
  }
  if (options.tls_cert.has_value() != options.tls_key.has_value()) {
    fail("--tls-cert and --tls-key go together: pass both for HTTPS, or neither");
    return 2;
  }
  const bool tls = options.tls_cert.has_value();
  if (!tls && !is_loopback_host(address->host) && !options.allow_plain_http) {
    fail("refusing plain HTTP on " + address->host +
         ": API keys would cross the network in clear text; pass --tls-cert and --tls-key, "
         "or --allow-plain-http behind a TLS-terminating proxy");
    return 1;
  }
  auto keys = adapters::auth::make_file_key_verifier(options.api_keys);
  if (!keys) {
    std::error_code ignored;
    const bool missing = !std::filesystem::exists(options.api_keys, ignored);
    fail(keys.error().message +
         (missing ? "; make one with: petstore keys new --api-keys " + options.api_keys.string()
                  : ""));
    return 1;
  }
  for (const auto& warning : keys->report.warnings) {
    fail("warning: " + warning);
  }
  // Blocked before any thread starts, so that every thread inherits the mask and only
  // serve_until_stopped receives them.
  const sigset_t signals = stop_and_reload_signals();
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  const auto logger = Logger::to_stdout(options.log_format, options.log_level);
  adapters::metrics::Metrics metrics({build_version(), build_commit()});
  auto pets = open_storage(options, metrics);
  if (!pets) {
    fail(pets.error().message);
    return 1;
  }
  auto& reloadable_keys = *keys->verifier;
  Service service(
      ServiceParts{std::move(*pets), std::move(keys->verifier), adapters::make_system_clock()},
      ServiceSettings{options.auth_failures_per_minute, &metrics, logger.get()});
  ServiceObserver observer(metrics, *logger);
  adapters::http::HttpServerOptions http_options{address->host,  address->port, options.threads,
                                                 options.limits, std::nullopt,  &observer};
  if (tls) {
    http_options.tls = adapters::http::TlsFiles{*options.tls_cert, *options.tls_key};
  }
  auto server = adapters::http::start_http_server(http_options, service.router());
  if (!server) {
    fail(server.error().message);
    return 1;
  }
  service.set_ready(true);
  std::cout << "listening on " << (tls ? "https://" : "http://") << (*server)->local_address()
            << "/v1" << std::endl;
  const std::string address_text = (*server)->local_address();
  logger->info("start", {{"address", address_text},
                         {"version", build_version()},
                         {"storage", options.storage == StorageKind::memory ? "memory" : "lmdb"},
                         {"tls", tls ? "on" : "off"}});
  adapters::http::HttpServer& http = **server;
  ReloadWorker reloads([&reloadable_keys, &http, &log = *logger] {
    reload_keys(reloadable_keys, log);
    reload_certificate(http, log);
  });
  serve_until_stopped(http, service, reloads, *logger);
  const bool reload_finished = reloads.stop();
  http.stop();
  service.close_storage();
  logger->info("stop");
  if (!reload_finished) {
    // A reload is still reading a file (a stuck network file system, say) and is not waited for.
    // It uses the key verifier, the server and the logger, so nothing is destroyed under it: the
    // process ends here, its storage closed and every log line already flushed.
    std::cout.flush();
    std::_Exit(0);
  }
  return 0;
}

}  // namespace petstore::bootstrap
