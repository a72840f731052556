#pragma once
// PostgresHooks: a PostgresObserver for adapter tests, whose commit observations go to functions
// the test sets (a CommitGate's hook, a list of resolutions).

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string_view>

#include "adapters/storage/postgres/postgres_observer.hpp"

namespace petstore::tests {

class PostgresHooks final : public adapters::storage::postgres::PostgresObserver {
 public:
  std::function<void(std::chrono::nanoseconds took, std::size_t creates)> on_commit;
  std::function<void(std::string_view outcome)> on_resolved;

  // PostgresObserver
  void commit_finished(std::chrono::nanoseconds took, std::size_t creates) override {
    if (on_commit) {
      on_commit(took, creates);
    }
  }
  // PostgresObserver
  void commit_resolved(std::string_view outcome, std::size_t /*creates*/,
                       std::string_view /*detail*/) override {
    if (on_resolved) {
      on_resolved(outcome);
    }
  }
};

}  // namespace petstore::tests
