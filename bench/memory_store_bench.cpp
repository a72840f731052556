// The memory store on T threads at once, without HTTP: creates, 20-pet page reads, and both
// together (half the threads each), so that what serializes the store shows as a rate that stops
// growing with T. Prints "name=value" lines (operations a second, all threads together) for
// bench/memory-store to tabulate. Usage: petstore_memory_store_bench T [SECONDS]
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "adapters/storage/memory/memory_pet_repository.hpp"

namespace petstore::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::int64_t seeded = 10'000;

[[noreturn]] void die(const std::string& message) {
  std::cerr << "petstore_memory_store_bench: " << message << '\n';
  std::exit(1);
}

domain::NewPet pet_number(std::int64_t n) {
  char name[32];
  std::snprintf(name, sizeof name, "pet-%06lld", static_cast<long long>(n % 1'000'000));
  return {domain::PetName::parse(name).value(), domain::CategoryId{1},
          n % 2 == 0 ? domain::PetStatus::available : domain::PetStatus::sold};
}

// create_one: bench/run's R2 create, in memory (which answers before create returns).
void create_one(ports::PetRepository& pets, std::int64_t n) {
  pets.create(
      ports::CreatePetCommand{pet_number(n), std::nullopt, std::chrono::system_clock::now()},
      [](const domain::Result<ports::CreateOutcome>& created) {
        if (!created) {
          die("create failed: " + created.error().message);
        }
      });
}

// read_one: R1's page of 20, after a cursor that moves over the seeded pets.
void read_one(const ports::PetRepository& pets, std::int64_t n) {
  const ports::PetQuery query{std::nullopt, domain::PetId{n % (seeded - 20)},
                              domain::PageSize{}};  // 20, as R1 asks
  pets.list(query, [](const domain::Result<ports::PetPage>& page) {
    if (!page || page->pets.size() != 20) {
      die("a page read failed");
    }
  });
}

// rate: operations a second of `threads` threads, thread t running work(t, i) for i = 0, 1, ...
// for `seconds`, all started together.
double rate(unsigned threads, double seconds,
            const std::function<void(unsigned, std::int64_t)>& work) {
  std::atomic<bool> go{false};
  std::atomic<bool> stop{false};
  std::vector<std::int64_t> done(threads, 0);
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      while (!go.load()) {
      }
      std::int64_t i = 0;
      for (; !stop.load(std::memory_order_relaxed); ++i) {
        work(t, i);
      }
      done[t] = i;
    });
  }
  const auto started = Clock::now();
  go = true;
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto& worker : workers) {
    worker.join();
  }
  const std::chrono::duration<double> took = Clock::now() - started;
  std::int64_t total = 0;
  for (const auto count : done) {
    total += count;
  }
  return static_cast<double>(total) / took.count();
}

std::unique_ptr<ports::PetRepository> seeded_store() {
  auto pets = adapters::storage::memory::make_memory_pet_repository();
  for (std::int64_t n = 0; n < seeded; ++n) {
    create_one(*pets, n);
  }
  return pets;
}

}  // namespace
}  // namespace petstore::bench

int main(int argc, char** argv) {
  using namespace petstore::bench;
  if (argc < 2) {
    die("usage: petstore_memory_store_bench THREADS [SECONDS]");
  }
  const auto threads = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  const double seconds = argc > 2 ? std::strtod(argv[2], nullptr) : 2.0;
  if (threads == 0) {
    die("THREADS must be at least 1");
  }
  {
    const auto pets = seeded_store();
    std::cout << "creates=" << rate(threads, seconds, [&](unsigned, std::int64_t i) {
      create_one(*pets, i);
    }) << '\n';
  }
  {
    const auto pets = seeded_store();
    std::cout << "reads=" << rate(threads, seconds, [&](unsigned t, std::int64_t i) {
      read_one(*pets, (i * 7919) + t);
    }) << '\n';
  }
  {
    // Even threads create, odd ones read (with an odd count, one more creates; one thread
    // alternates).
    const auto pets = seeded_store();
    std::cout << "mixed=" << rate(threads, seconds, [&](unsigned t, std::int64_t i) {
      if (threads == 1 ? i % 2 == 0 : t % 2 == 0) {
        create_one(*pets, i);
      } else {
        read_one(*pets, (i * 7919) + t);
      }
    }) << '\n';
  }
}
