// The PostgreSQL driver decision of issue 14, measured: durable creates through the adapter
// (libpq's asynchronous API, pipeline mode, its own poll threads) against the same creates through
// libpqxx, the other candidate, on a pool of threads that each block in their calls. Both run the
// same SQL on the same schema (the adapter's: petstore.create_pet under the counter-row lock, the
// idempotency prune, one commit a batch), group commit by the same rule (one writer at a time, as
// the counter row serialises writers anyway; it takes every create queued, up to 256), and the same
// closed loop: CLIENTS clients, each sending its next create when the last one completed. What
// differs is the driver: the adapter sends a batch's statements in one write and reads their
// results as they come; libpqxx 6.4 (bookworm) waits for each statement's answer before sending the
// next. Prints one line: driver, clients, creates/s, and the process's CPU per create.
// Usage: petstore_postgres_driver_bench DATABASE_URL libpq|libpqxx CLIENTS SECONDS
// bench/postgres runs it against its own server, on a fresh database for each run.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>
#include <string_view>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include "adapters/storage/postgres/postgres_pet_repository.hpp"
#include "domain/pet.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// Loop: the closed loop both drivers run, counting completed creates until told to stop.
struct Loop {
  std::atomic<std::uint64_t> completed{0};
  std::atomic<std::uint64_t> failed{0};
  std::atomic<bool> stopping{false};
  std::atomic<int> in_flight{0};
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) + static_cast<double>(time.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

petstore::domain::NewPet bench_pet() {
  return petstore::domain::NewPet{*petstore::domain::PetName::parse("Rex"),
                                  petstore::domain::CategoryId{1},
                                  petstore::domain::PetStatus::available};
}

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// --- libpq: the adapter, through the port -----------------------------------------------------

void send_adapter_create(petstore::ports::PetRepository& pets, Loop& loop) {
  petstore::ports::CreatePetCommand command{
      bench_pet(), std::nullopt, std::chrono::system_clock::now(), std::chrono::hours(24)};
  pets.create(std::move(command), [&pets, &loop](auto outcome) {
    (outcome ? loop.completed : loop.failed).fetch_add(1, std::memory_order_relaxed);
    if (loop.stopping.load(std::memory_order_relaxed)) {
      loop.in_flight.fetch_sub(1);
      return;
    }
    send_adapter_create(pets, loop);
  });
}

std::unique_ptr<petstore::ports::PetRepository> start_adapter(const std::string& url, Loop& loop,
                                                              int clients) {
  petstore::adapters::storage::postgres::PostgresOptions options;
  options.database_url = url;
  options.pool_size = 2;  // serve's default with --threads 1
  options.call_timeout = std::chrono::seconds(30);
  auto pets = petstore::adapters::storage::postgres::make_postgres_pet_repository(options);
  if (!pets) {
    std::cerr << "postgres_driver_bench: " << pets.error().message << '\n';
    std::exit(1);
  }
  loop.in_flight = clients;
  for (int client = 0; client < clients; ++client) {
    send_adapter_create(**pets, loop);
  }
  return std::move(*pets);
}

// --- libpqxx: one writer thread that blocks in each call ---------------------------------------

constexpr std::size_t max_batch = 256;
constexpr std::int64_t retention_ns = std::int64_t{24} * 3600 * 1000 * 1000 * 1000;

class PqxxWriter {
 public:
  PqxxWriter(const std::string& url, Loop& loop, int clients)
      : connection_(url), loop_(loop), queued_(static_cast<std::size_t>(clients)) {
    connection_.prepare("lock", "SELECT 1 FROM petstore.id_counter FOR UPDATE");
    connection_.prepare("create",
                        "SELECT r_id, r_name, r_category_id, r_status, r_created FROM "
                        "petstore.create_pet($1, $2, $3, NULL, NULL, $4, $5)");
    connection_.prepare("prune",
                        "DELETE FROM petstore.idempotency_keys WHERE (scope, key) IN (SELECT "
                        "scope, key FROM petstore.idempotency_keys WHERE created_at_ns < $1 "
                        "ORDER BY created_at_ns LIMIT $2)");
    loop_.in_flight = clients;
    thread_ = std::thread([this] { run(); });
  }
  PqxxWriter(const PqxxWriter&) = delete;
  PqxxWriter& operator=(const PqxxWriter&) = delete;
  ~PqxxWriter() { thread_.join(); }

 private:
  void run() {
    while (loop_.in_flight.load() > 0) {
      const std::size_t batch = std::min(queued_, max_batch);
      queued_ -= batch;
      const auto now = now_ns();
      const petstore::domain::NewPet pet = bench_pet();
      bool committed = true;
      try {
        pqxx::work transaction(connection_);
        transaction.exec_prepared("lock");
        for (std::size_t i = 0; i < batch; ++i) {
          const pqxx::result row =
              transaction.exec_prepared("create", pet.name.value(), pet.category_id.value,
                                        "available", now, now - retention_ns);
          if (row.size() != 1) {
            committed = false;
          }
        }
        transaction.exec_prepared("prune", now - retention_ns,
                                  static_cast<std::int64_t>(batch) + 16);
        transaction.commit();
      } catch (const std::exception& error) {
        std::cerr << "postgres_driver_bench: " << error.what() << '\n';
        committed = false;
      }
      (committed ? loop_.completed : loop_.failed).fetch_add(batch, std::memory_order_relaxed);
      if (loop_.stopping.load()) {
        loop_.in_flight.fetch_sub(static_cast<int>(batch));
      } else {
        queued_ += batch;  // each client sends its next create at once
      }
    }
  }

  pqxx::connection connection_;
  Loop& loop_;
  std::size_t queued_;  // creates sent by clients, not yet in a batch (the writer's alone)
  std::thread thread_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: petstore_postgres_driver_bench DATABASE_URL libpq|libpqxx CLIENTS "
                 "SECONDS\n";
    return 2;
  }
  const std::string url = argv[1];
  const std::string_view driver = argv[2];
  const int clients = std::atoi(argv[3]);
  const int seconds = std::atoi(argv[4]);
  if ((driver != "libpq" && driver != "libpqxx") || clients < 1 || seconds < 1) {
    std::cerr << "postgres_driver_bench: bad arguments\n";
    return 2;
  }
  Loop loop;
  std::unique_ptr<petstore::ports::PetRepository> adapter;
  std::unique_ptr<PqxxWriter> writer;
  // Warm up one second, then measure.
  const auto start_cpu_after_warmup = [&] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    return std::make_pair(loop.completed.load(), cpu_seconds());
  };
  if (driver == "libpq") {
    adapter = start_adapter(url, loop, clients);
  } else {
    start_adapter(url, loop, 0).reset();  // the schema, as the adapter makes it
    writer = std::make_unique<PqxxWriter>(url, loop, clients);
  }
  const auto [completed_before, cpu_before] = start_cpu_after_warmup();
  const auto started = Clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  const auto completed = loop.completed.load() - completed_before;
  const double cpu = cpu_seconds() - cpu_before;
  const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
  loop.stopping = true;
  while (loop.in_flight.load() > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  writer.reset();
  adapter.reset();
  if (loop.failed.load() > 0 || completed == 0) {
    std::cerr << "postgres_driver_bench: " << loop.failed.load() << " creates failed\n";
    return 1;
  }
  std::printf("driver=%s clients=%d creates_per_second=%.0f cpu_us_per_create=%.1f\n",
              std::string(driver).c_str(), clients, static_cast<double>(completed) / elapsed,
              cpu * 1e6 / static_cast<double>(completed));
  return 0;
}
