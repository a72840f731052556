#pragma once
// Blocking calls on the asynchronous PetRepository port, for tests that want a result in hand:
// each makes the call, waits for its completion (at most 30 s, then throws, which fails the
// test) and returns what the completion got. A completion that comes after the wait gave up
// still has somewhere to go; one that comes twice throws std::future_error, which fails loudly.

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <stdexcept>
#include <utility>

#include "ports/pet_repository.hpp"

namespace petstore::tests {

namespace awaited_detail {

template <class T, class Call>
domain::Result<T> await_result(const char* what, Call call) {
  auto promise = std::make_shared<std::promise<domain::Result<T>>>();
  auto future = promise->get_future();
  call([promise](domain::Result<T> result) { promise->set_value(std::move(result)); });
  if (future.wait_for(std::chrono::seconds(30)) != std::future_status::ready) {
    throw std::runtime_error(std::string(what) + " did not complete within 30 s");
  }
  return future.get();
}

}  // namespace awaited_detail

[[nodiscard]] inline domain::Result<domain::Pet> get_now(const ports::PetRepository& pets,
                                                         domain::PetId id) {
  return awaited_detail::await_result<domain::Pet>(
      "get", [&](auto done) { pets.get(id, std::move(done)); });
}

[[nodiscard]] inline domain::Result<ports::PetPage> list_now(const ports::PetRepository& pets,
                                                             ports::PetQuery query) {
  return awaited_detail::await_result<ports::PetPage>(
      "list", [&](auto done) { pets.list(query, std::move(done)); });
}

[[nodiscard]] inline domain::Result<std::int64_t> count_now(const ports::PetRepository& pets) {
  return awaited_detail::await_result<std::int64_t>(
      "count", [&](auto done) { pets.count(std::move(done)); });
}

[[nodiscard]] inline domain::Result<ports::CreateOutcome> create_now(
    ports::PetRepository& pets, ports::CreatePetCommand command) {
  return awaited_detail::await_result<ports::CreateOutcome>(
      "create", [&](auto done) { pets.create(std::move(command), std::move(done)); });
}

// pet_done: a CreateDone that hands `done` the pet the create answered with (stored now or by an
// earlier create with the same key), for tests that look only at the pet.
template <class Done>
[[nodiscard]] ports::PetRepository::CreateDone pet_done(Done done) {
  return [done = std::move(done)](domain::Result<ports::CreateOutcome> outcome) mutable {
    done(outcome ? domain::Result<domain::Pet>(std::move(outcome->pet))
                 : domain::Result<domain::Pet>(std::move(outcome).error()));
  };
}

}  // namespace petstore::tests
