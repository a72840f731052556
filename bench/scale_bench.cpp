// petstore_scale_bench: one run of the scale benchmark that bench/scale drives. It fills ONE
// repository (memory or LMDB) with N pets of 10-character names, one in 1000 of them `pending`,
// then times single pages and prints `key=value` lines. One backend and size per process, so
// that resident memory is measured on a fresh heap.
//
// Usage: petstore_scale_bench --backend memory|lmdb --pets N [--dir LMDB_DATA_DIR]

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"

namespace petstore::bench {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t rare_every = 1000;  // one pet in 1000 is pending
constexpr std::size_t in_flight = 16384;  // LMDB creates queued at once while filling

[[noreturn]] void die(const std::string& message) {
  std::cerr << "petstore_scale_bench: " << message << '\n';
  std::exit(1);
}

// resident_kib: VmRSS of this process, from /proc/self/status.
long resident_kib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.starts_with("VmRSS:")) {
      return std::strtol(line.c_str() + 6, nullptr, 10);
    }
  }
  return -1;
}

domain::NewPet pet_number(std::size_t n) {
  char name[32];
  std::snprintf(name, sizeof name, "pet%07zu", n);  // 10 characters
  const auto status = n % rare_every == rare_every - 1 ? domain::PetStatus::pending
                      : n % 2 == 0                     ? domain::PetStatus::available
                                                       : domain::PetStatus::sold;
  return {domain::PetName::parse(name).value(),
          domain::CategoryId{static_cast<std::int64_t>(n % 100)}, status};
}

// fill: creates `count` pets, keeping at most `in_flight` creates queued so that the LMDB writer
// always has a batch to commit (group commit) without holding a million commands at once.
void fill(ports::PetRepository& pets, std::size_t count) {
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t pending = 0;
  std::optional<std::string> failure;
  const auto now = std::chrono::system_clock::now();
  for (std::size_t n = 0; n < count; ++n) {
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return pending < in_flight; });
      ++pending;
    }
    pets.create(ports::CreatePetCommand{pet_number(n), std::nullopt, now},
                [&](const domain::Result<ports::CreateOutcome>& created) {
                  const std::lock_guard lock(mutex);
                  if (!created && !failure) {
                    failure = created.error().message;
                  }
                  --pending;
                  changed.notify_all();
                });
  }
  std::unique_lock lock(mutex);
  changed.wait(lock, [&] { return pending == 0; });
  if (failure) {
    die("create failed: " + *failure);
  }
}

struct Timing {
  double ns_per_page = 0;
  std::size_t pets_on_page = 0;
  bool has_more = false;
};

// time_page: the time one list(query) takes, averaged over a batch of calls lasting about 20 ms;
// the fastest of 21 batches, since on a shared machine the slower ones measure the neighbours.
Timing time_page(const ports::PetRepository& pets, const ports::PetQuery& query) {
  auto once = [&] {
    // Memory and LMDB complete a list before it returns (ports/pet_repository.hpp allows it).
    std::optional<domain::Result<ports::PetPage>> page;
    pets.list(query, [&page](domain::Result<ports::PetPage> result) { page = std::move(result); });
    if (!page || !*page) {
      die("list failed: " + (page ? page->error().message : std::string("no answer")));
    }
    return std::move(**page);
  };
  const auto sample = once();
  std::size_t batch = 1;
  for (;;) {  // calibrate: double the batch until it lasts 20 ms
    const auto start = Clock::now();
    for (std::size_t i = 0; i < batch; ++i) {
      (void)once();
    }
    if (Clock::now() - start >= std::chrono::milliseconds(20)) {
      break;
    }
    batch *= 2;
  }
  std::vector<double> per_page;
  for (int round = 0; round < 21; ++round) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < batch; ++i) {
      (void)once();
    }
    const std::chrono::duration<double, std::nano> took = Clock::now() - start;
    per_page.push_back(took.count() / static_cast<double>(batch));
  }
  return {*std::min_element(per_page.begin(), per_page.end()), sample.pets.size(), sample.has_more};
}

void report_page(const std::string& name, const Timing& timing) {
  std::cout << name << "_ns=" << timing.ns_per_page << '\n'
            << name << "_pets=" << timing.pets_on_page << '\n'
            << name << "_has_more=" << (timing.has_more ? 1 : 0) << '\n';
}

void run(const std::string& backend, std::size_t count, const std::filesystem::path& dir) {
  const long rss_before = resident_kib();
  std::unique_ptr<ports::PetRepository> pets;
  if (backend == "memory") {
    pets = adapters::storage::memory::make_memory_pet_repository();
  } else {
    adapters::storage::lmdb::LmdbOptions options;
    options.data_dir = dir;
    auto opened = adapters::storage::lmdb::make_lmdb_pet_repository(options);
    if (!opened) {
      die(opened.error().message);
    }
    pets = std::move(*opened);
  }
  const auto fill_start = Clock::now();
  fill(*pets, count);
  const std::chrono::duration<double> fill_seconds = Clock::now() - fill_start;
  std::cout << "backend=" << backend << "\npets=" << count << "\nfill_s=" << fill_seconds.count()
            << "\nrss_before_kib=" << rss_before << "\nrss_after_kib=" << resident_kib() << '\n';
  const auto limit_20 = domain::PageSize::from(20).value();
  const auto limit_1 = domain::PageSize::from(1).value();
  report_page("pending20", time_page(*pets, {domain::PetStatus::pending, std::nullopt, limit_20}));
  report_page("pending1", time_page(*pets, {domain::PetStatus::pending, std::nullopt, limit_1}));
  report_page("all20", time_page(*pets, {std::nullopt, std::nullopt, limit_20}));
  pets.reset();  // closes the store: data.mdb is final
  if (backend == "lmdb") {
    struct stat data {};
    if (::stat((dir / "data.mdb").c_str(), &data) != 0) {
      die("no data.mdb in " + dir.string());
    }
    std::cout << "data_mdb_bytes=" << data.st_size
              << "\ndata_mdb_disk_bytes=" << data.st_blocks * 512 << '\n';
  }
}

}  // namespace
}  // namespace petstore::bench

int main(int argc, char** argv) {
  std::string backend;
  std::size_t count = 0;
  std::filesystem::path dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--backend") {
      backend = argv[i + 1];
    } else if (flag == "--pets") {
      count = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (flag == "--dir") {
      dir = argv[i + 1];
    }
  }
  if ((backend != "memory" && backend != "lmdb") || count == 0 || count > 9'999'999 ||
      (backend == "lmdb" && dir.empty())) {
    std::cerr << "usage: petstore_scale_bench --backend memory|lmdb --pets N (1..9999999)"
                 " [--dir LMDB_DATA_DIR]\n";
    return 2;
  }
  petstore::bench::run(backend, count, dir);
  return 0;
}
