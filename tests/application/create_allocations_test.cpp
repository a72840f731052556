// A create's answer makes no heap allocation for its layering: through the HTTP reply (Respond)
// and CreatePet, a create costs exactly the allocations of the repository's own create, on
// memory and on LMDB, keyed or not. Counted by replacing the global operator new, which is why
// this test is a binary of its own.

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <future>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "adapters/http/api/http_message.hpp"
#include "adapters/storage/lmdb/lmdb_pet_repository.hpp"
#include "adapters/storage/memory/memory_pet_repository.hpp"
#include "application/create_pet.hpp"
#include "support/fake_clock.hpp"
#include "support/temp_dir.hpp"

// GCC sees free() meet the block of an operator new it inlined, not knowing both are this file's.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* block = std::malloc(size == 0 ? 1 : size)) {  // NOLINT(*-no-malloc,*-owning-memory)
    return block;
  }
  throw std::bad_alloc();
}
void operator delete(void* block) noexcept {
  std::free(block);
}  // NOLINT(*-no-malloc,*-owning-memory)
void operator delete(void* block, std::size_t /*size*/) noexcept {
  std::free(block);  // NOLINT(*-no-malloc,*-owning-memory)
}

namespace petstore::tests {
namespace {

using adapters::http::HttpResponse;
using adapters::http::Respond;
using PetResult = domain::Result<domain::Pet>;
using Outcome = domain::Result<ports::CreateOutcome>;

constexpr int creates = 64;

// A short name and key: std::string keeps them inline, so the pet and the command allocate
// nothing themselves and every allocation counted is the repository's or the layering's.
domain::NewPet small_pet() {
  return {domain::PetName::parse("Rex").value(), domain::CategoryId{7}};
}
std::optional<std::string> key_of(int index, bool keyed) {
  return keyed ? std::optional<std::string>("k" + std::to_string(index)) : std::nullopt;
}

// Answered: what a reply heard, and a promise for a repository that answers on its own thread.
struct Answered {
  unsigned status = 0;
  std::promise<void> heard;
};

// continuation: what the endpoint gives CreatePet: the reply, and `Extra` bytes more (to show
// that the count sees a layer that does not fit inline).
void answer(Respond& respond, const PetResult& pet) {
  HttpResponse response;
  response.status = pet ? 201 : 500;
  respond(std::move(response));
}
template <std::size_t Extra>
auto continuation(Respond respond) {
  if constexpr (Extra == 0) {
    return [respond = std::move(respond)](const PetResult& pet) mutable { answer(respond, pet); };
  } else {
    return [respond = std::move(respond), ballast = std::array<char, Extra>{}](
               const PetResult& pet) mutable { answer(respond, pet); };
  }
}

// through_the_use_case: allocations of `count` creates made as the HTTP endpoint makes them: a
// Respond holding a shared pointer (as the server's does) inside the continuation given to
// CreatePet, with `extra` bytes more in that continuation.
template <std::size_t Extra>
long through_the_use_case(ports::PetRepository& pets, bool keyed) {
  FakeClock clock;
  const application::CreatePet create(pets, clock);
  const ports::Principal principal{"key-a"};
  long counted = 0;
  for (int index = 0; index < creates; ++index) {
    auto answered = std::make_shared<Answered>();
    auto heard = answered->heard.get_future();
    const long before = allocations.load();
    Respond respond = [answered](const HttpResponse& response) {
      answered->status = response.status;
      answered->heard.set_value();
    };
    create(principal, small_pet(), key_of(index, keyed), continuation<Extra>(std::move(respond)));
    heard.wait();
    counted += allocations.load() - before;
    EXPECT_EQ(answered->status, 201U);
  }
  return counted;
}

// directly: allocations of `count` creates made on the repository itself, with the command the
// use case makes and a continuation that holds only what the answer needs.
long directly(ports::PetRepository& pets, bool keyed) {
  long counted = 0;
  for (int index = 0; index < creates; ++index) {
    std::promise<bool> created;
    auto heard = created.get_future();
    const long before = allocations.load();
    std::optional<ports::IdempotencyKey> key;
    if (auto text = key_of(index, keyed)) {
      key = ports::IdempotencyKey{"key-a", std::move(*text)};
    }
    pets.create(
        {small_pet(), std::move(key), FakeClock().now(), application::idempotency_retention},
        [&created](const Outcome& outcome) { created.set_value(outcome.has_value()); });
    heard.wait();
    counted += allocations.load() - before;
    EXPECT_TRUE(heard.get());
  }
  return counted;
}

std::unique_ptr<ports::PetRepository> memory() {
  return adapters::storage::memory::make_memory_pet_repository();
}

std::unique_ptr<ports::PetRepository> lmdb(const TempDir& dir) {
  adapters::storage::lmdb::LmdbOptions options;
  options.data_dir = dir.path();
  return adapters::storage::lmdb::make_lmdb_pet_repository(options).value();
}

TEST(CreateAllocations, OnMemoryTheLayersAllocateNothing) {
  for (const bool keyed : {false, true}) {
    const long own = directly(*memory(), keyed);
    EXPECT_EQ(through_the_use_case<0>(*memory(), keyed), own) << "keyed " << keyed;
  }
}

TEST(CreateAllocations, OnLmdbTheLayersAllocateNothing) {
  for (const bool keyed : {false, true}) {
    const TempDir first;
    const TempDir second;
    const long own = directly(*lmdb(first), keyed);
    EXPECT_EQ(through_the_use_case<0>(*lmdb(second), keyed), own) << "keyed " << keyed;
  }
}

// The count is not blind: a continuation one pointer too large for the completion's inline
// storage costs one allocation per create.
TEST(CreateAllocations, AContinuationTooLargeToLiveInlineIsCounted) {
  const long own = directly(*memory(), true);
  EXPECT_EQ(through_the_use_case<ports::completion_inline_bytes>(*memory(), true), own + creates);
}

}  // namespace
}  // namespace petstore::tests
