#pragma once
// PostgresHooks: a PostgresObserver for adapter tests, whose commit and read observations go to
// functions the test sets (a CommitGate's hook, a list of resolutions, where reads went).

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
  std::function<void(bool replica, std::string_view reason)> on_read_served;
  std::function<void()> on_position_queried;

  // PostgresObserver
  void commit_finished(std::chrono::nanoseconds took, std::size_t creates) override {
    if (on_commit) {
      on_commit(took, creates);
    }
  }
  // PostgresObserver
  void read_served(bool replica, std::string_view reason) override {
    if (on_read_served) {
      on_read_served(replica, reason);
    }
  }
  // PostgresObserver
  void position_queried() override {
    if (on_position_queried) {
      on_position_queried();
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
