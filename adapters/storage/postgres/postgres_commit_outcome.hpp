#pragma once
// learn_commit_outcome: what became of a create batch whose COMMIT's answer was lost, asked on a
// connection of its own (docs/decisions/commit-in-doubt.md).

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "adapters/storage/postgres/libpq.hpp"
#include "adapters/storage/postgres/postgres_create_batch.hpp"
#include "ports/pet_repository.hpp"

namespace petstore::adapters::storage::postgres {

// BatchInDoubt: a batch whose COMMIT may or may not have happened.
struct BatchInDoubt {
  std::vector<PendingCreate> creates;
  // pg_current_xact_id() of its transaction; nullopt when that answer never came.
  std::optional<std::string> xid;
  // The counter's next_id read (without its lock) before the batch: a lower bound of the ids
  // the batch took; nullopt when no id was left.
  std::optional<std::int64_t> first_id_bound;
  std::chrono::steady_clock::time_point deadline;  // the earliest of its creates'
  std::string reason;                              // why its connection was lost
};

enum class CommitOutcome {
  committed,      // each create's outcome is known
  not_committed,  // the transaction aborted, or never reached the database's history
  unknown,        // not learned before the deadline (or the batch's id never came)
};

struct LearnedOutcome {
  CommitOutcome outcome = CommitOutcome::unknown;
  std::vector<ports::CreateOutcome> creates;  // when committed: one per create, in order
  std::string detail;                         // how it was learned; no password
};

// learn_commit_outcome: asks until `batch.deadline` (or a stop): reconnects while no read-write
// server answers, and asks again while the transaction is still in progress.
[[nodiscard]] LearnedOutcome learn_commit_outcome(const ConnectTarget& target,
                                                  const BatchInDoubt& batch,
                                                  const std::stop_token& stop);

[[nodiscard]] constexpr const char* to_string(CommitOutcome outcome) {
  constexpr std::array<const char*, 3> names{"committed", "not_committed", "unknown"};
  return names.at(static_cast<std::size_t>(outcome));
}

}  // namespace petstore::adapters::storage::postgres
