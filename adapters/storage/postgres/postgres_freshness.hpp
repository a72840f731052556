#pragma once
// The freshness rule of reads from replicas (contract section 10), with no I/O so that it can be
// tested alone. A read may use a replica only once the replica has replayed the primary's WAL up
// to a flush position read from the primary AFTER the read started: every pet acknowledged
// before then was flushed below that position. One position query serves a batch of reads, but
// a read joins only a query not yet sent (a query already out may have been answered by the
// primary before the read started, and miss a commit acknowledged meanwhile).

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace petstore::adapters::storage::postgres {

// Lsn: a WAL position as a number (pg_lsn's text "16/B374D848" is its high and low 32 bits).
using Lsn = std::uint64_t;

// parse_lsn: the position in pg_lsn's text form; nullopt for anything else (NULL included).
[[nodiscard]] std::optional<Lsn> parse_lsn(std::string_view text);

// ReplicaVerdict: whether a read on a replica whose replay position was `replayed` (read in an
// EARLIER statement than the read's own, so before the read's snapshot) is fresh for `required`.
enum class ReplicaVerdict {
  fresh,        // replayed >= required: every acknowledged pet is visible to the read
  lagging,      // behind: wait a moment, or read the primary
  not_standby,  // no replay position (not in recovery, or an unreadable answer): do not use it
};
[[nodiscard]] ReplicaVerdict judge_replica(std::optional<Lsn> replayed, Lsn required);

// PositionBatches: the reads waiting for a flush position, as one query in flight and the batch
// that will go with the next one. Not thread-safe: its owner locks. Waiter is what answers a read.
template <class Waiter>
class PositionBatches {
 public:
  // join: `waiter`'s read starts now. True when the caller must send a query now (none was in
  // flight): the waiter alone makes that query's batch. Otherwise it waits for the next query,
  // which is sent once the one in flight is answered.
  [[nodiscard]] bool join(Waiter waiter) {
    ++joined_;
    if (in_flight_) {
      next_.push_back(std::move(waiter));
      return false;
    }
    in_flight_ = true;
    sent_.push_back(std::move(waiter));
    ++queries_;
    return true;
  }

  // Answered: the batch the query in flight served (to answer with its position or failure),
  // and whether the caller must send the next query now, for the reads that joined meanwhile.
  struct Answered {
    std::vector<Waiter> waiters;
    bool send_next = false;
  };
  // answered: the query in flight has its answer. REQUIRES: a query is in flight.
  [[nodiscard]] Answered answered() {
    Answered result{std::exchange(sent_, {}), !next_.empty()};
    if (result.send_next) {
      sent_ = std::exchange(next_, {});
      ++queries_;
    } else {
      in_flight_ = false;
    }
    return result;
  }

  // queries / joined: position queries sent and reads served so far (the cost per read).
  [[nodiscard]] std::uint64_t queries() const { return queries_; }
  [[nodiscard]] std::uint64_t joined() const { return joined_; }

 private:
  std::vector<Waiter> sent_;  // the query in flight answers these
  std::vector<Waiter> next_;  // joined after it was sent
  bool in_flight_ = false;
  std::uint64_t queries_ = 0;
  std::uint64_t joined_ = 0;
};

}  // namespace petstore::adapters::storage::postgres
