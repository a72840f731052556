#include "adapters/storage/postgres/postgres_commit_resolver.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <string_view>
#include <thread>

#include "adapters/storage/postgres/postgres_errors.hpp"
#include "adapters/storage/postgres/postgres_queries.hpp"
#include "adapters/storage/postgres/postgres_session.hpp"

namespace petstore::adapters::storage::postgres {
namespace {

using Clock = std::chrono::steady_clock;

// The transaction's status on the server that answers, and whether that server is a standby
// (whose history may still grow: only a primary's answer counts). An id at or past the first
// one not yet assigned never reached this server's history (pg_xact_status would refuse it).
constexpr const char* status_sql =
    "SELECT CASE WHEN x >= pg_snapshot_xmax(pg_current_snapshot()) THEN 'future' "
    "ELSE coalesce(pg_xact_status(x), 'forgotten') END, pg_is_in_recovery() "
    "FROM (SELECT $1::xid8 AS x) AS t";
// The batch's new pets: at or above the counter's value before it, written by its transaction
// (xmin holds the id's low 32 bits): a range scan of the primary key from the bound.
constexpr const char* pets_sql =
    "SELECT id, name, category_id, status FROM petstore.pets "
    "WHERE id >= $1 AND xmin = $2::xid ORDER BY id";
// The keyed creates' records, and the pets they name.
constexpr const char* records_sql =
    "SELECT p.id, p.name, p.category_id, p.status, s.ord, k.pet_id, k.xmin = $3::xid "
    "FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS s(scope, key, ord) "
    "JOIN petstore.idempotency_keys k ON k.scope = s.scope AND k.key = s.key "
    "LEFT JOIN petstore.pets p ON p.id = k.pet_id";

// A flush barrier, as after every batch (barrier_sql, postgres_create_batch.cpp): pg_xact_status
// says "committed" as soon as the batch's commit record is written on the primary, also when its
// backend was terminated while it waited for the standbys (a fast shutdown does that), so the
// batch may be on the primary only, and a failover would lose it.
constexpr const char* durable_sql =
    "BEGIN; SET LOCAL synchronous_commit = on; "
    "SELECT pg_logical_emit_message(true, 'petstore', 'a commit in doubt resolved'); COMMIT";

// How long a transaction still in progress (a COMMIT waiting for its synchronous standby) is
// given before it is asked about again, and the pause before connecting again.
constexpr std::chrono::milliseconds ask_again{50};
constexpr std::chrono::milliseconds connect_again{100};

// pause: `length`, cut short by the deadline or a stop; false when either came.
bool pause(std::chrono::milliseconds length, Clock::time_point deadline,
           const std::stop_token& stop) {
  const auto until = std::min(deadline, Clock::now() + length);
  while (Clock::now() < until && !stop.stop_requested()) {
    std::this_thread::sleep_for(
        std::min<Clock::duration>(std::chrono::milliseconds(10), until - Clock::now()));
  }
  return Clock::now() < deadline && !stop.stop_requested();
}

// Record: a keyed create's idempotency record, as the resolution read it.
struct Record {
  std::optional<domain::Pet> pet;  // the pet it names, when that pet is stored
  std::int64_t pet_id = 0;
  bool written_by_batch = false;
};

std::vector<std::optional<Record>> records_by_create(std::size_t creates, const PGresult* records) {
  std::vector<std::optional<Record>> by_create(creates);
  for (int row = 0; records != nullptr && row < PQntuples(records); ++row) {
    const auto ordinal = std::stoull(PQgetvalue(records, row, 4));
    if (ordinal < 1 || ordinal > creates) {
      continue;
    }
    auto& record = by_create[ordinal - 1].emplace();
    if (PQgetisnull(records, row, 0) == 0) {
      if (auto pet = decode_pet(records, row)) {
        record.pet = std::move(*pet);
      }
    }
    record.pet_id = std::stoll(PQgetvalue(records, row, 5));
    record.written_by_batch = std::string_view(PQgetvalue(records, row, 6)) == "t";
  }
  return by_create;
}

// outcomes_from_rows: each create's outcome, as petstore.create_pets would have answered it. The
// rows prove themselves: a batch's new pets have consecutive ids in the order of its creates, each
// with the create's columns, and a keyed create's record names its pet. `pets` or `records` null:
// none can be. nullopt, with `why`, when the rows do not fit the batch: then they are another
// transaction's (its id reused by a promoted standby that never saw this one).
std::optional<std::vector<ports::CreateOutcome>> outcomes_from_rows(
    const std::vector<PendingCreate>& creates, const PGresult* pets, const PGresult* records,
    std::string& why) {
  const auto by_create = records_by_create(creates.size(), records);
  std::vector<ports::CreateOutcome> outcomes;
  outcomes.reserve(creates.size());
  // A key twice in the batch: its first create claimed the record, the later ones replay it.
  std::map<std::pair<std::string, std::string>, std::size_t> claimed_by;
  const int new_rows = pets != nullptr ? PQntuples(pets) : 0;
  int next_row = 0;
  std::int64_t previous_id = 0;
  for (std::size_t i = 0; i < creates.size(); ++i) {
    const auto& command = creates[i].command;
    const auto& record = by_create[i];
    if (command.idempotency) {
      if (!record) {
        why = "a key of the batch has no record";
        return std::nullopt;
      }
      if (!record->written_by_batch) {
        if (!record->pet) {
          why = "a replayed key names no stored pet";
          return std::nullopt;
        }
        outcomes.push_back(ports::CreateOutcome{*record->pet, false});
        continue;
      }
      const auto [first, claimed] =
          claimed_by.emplace(std::pair(command.idempotency->scope, command.idempotency->key), i);
      if (!claimed) {
        outcomes.push_back(ports::CreateOutcome{outcomes[first->second].pet, false});
        continue;
      }
    }
    // A new pet: the batch's next row, one id above the one before.
    if (next_row >= new_rows) {
      why = "the transaction wrote fewer pets than the batch created";
      return std::nullopt;
    }
    auto pet = decode_pet(pets, next_row);
    if (!pet || (next_row > 0 && pet->id.value != previous_id + 1) ||
        !(domain::NewPet{pet->name, pet->category_id, pet->status} == command.pet) ||
        (record && record->pet_id != pet->id.value)) {
      why = "the transaction's rows are not the batch's creates";
      return std::nullopt;
    }
    previous_id = pet->id.value;
    outcomes.push_back(ports::CreateOutcome{std::move(*pet), true});
    ++next_row;
  }
  if (next_row != new_rows) {
    why = "the transaction wrote more pets than the batch created";
    return std::nullopt;
  }
  return outcomes;
}

// committed_rows: the committed batch's outcomes from its rows; nullopt (with `error`) when the
// session failed and the question must be asked again.
std::optional<LearnedOutcome> committed_rows(BlockingSession& session, const BatchInDoubt& batch,
                                             std::string& error) {
  const std::string xmin = std::to_string(std::stoull(*batch.xid) & 0xFFFFFFFFULL);
  domain::Result<ResultPtr> pets{ResultPtr{}};
  if (batch.first_id_bound) {
    pets = session.run(pets_sql, {std::to_string(*batch.first_id_bound), xmin});
  }
  ArrayLiteral scopes;
  ArrayLiteral keys;
  bool keyed = false;
  for (const auto& create : batch.creates) {
    const auto& key = create.command.idempotency;
    keyed = keyed || key.has_value();
    scopes.add(key ? std::optional(key->scope) : std::nullopt);
    keys.add(key ? std::optional(key->key) : std::nullopt);
  }
  domain::Result<ResultPtr> records{ResultPtr{}};
  if (pets && keyed) {
    records = session.run(records_sql, {std::move(scopes).done(), std::move(keys).done(), xmin});
  }
  if (!pets || !records) {
    error = (!pets ? pets : records).error().message;
    return std::nullopt;
  }
  std::string why;
  auto outcomes = outcomes_from_rows(batch.creates, pets->get(), records->get(), why);
  const std::string committed = "transaction " + *batch.xid + " committed";
  if (!outcomes) {
    return LearnedOutcome{CommitOutcome::unknown, {}, committed + ", but " + why};
  }
  return LearnedOutcome{CommitOutcome::committed, std::move(*outcomes), committed};
}

// ask: the outcome as one session learns it; nullopt (with `error`) to connect and ask again.
std::optional<LearnedOutcome> ask(BlockingSession& session, const BatchInDoubt& batch,
                                  const std::stop_token& stop, std::string& error) {
  for (;;) {
    auto status = session.run(status_sql, {*batch.xid});
    if (!status) {
      error = status.error().message;
      if (status.error().code != domain::ErrorCode::unavailable) {
        return LearnedOutcome{CommitOutcome::unknown, {}, error};
      }
      return std::nullopt;
    }
    const std::string_view verdict = PQgetvalue(status->get(), 0, 0);
    if (std::string_view(PQgetvalue(status->get(), 0, 1)) == "t") {
      error = "only a standby answered";
      return std::nullopt;
    }
    if (verdict == "committed") {
      auto learned = committed_rows(session, batch, error);
      if (learned && learned->outcome == CommitOutcome::committed) {
        // Answered only once it is as durable as a COMMIT answered in time (contract 8). A wait
        // cut short at the deadline (statement_timeout) would end the COMMIT without the standbys.
        auto durable = session.run(durable_sql);
        if (!durable || Clock::now() >= batch.deadline) {
          error = "transaction " + *batch.xid +
                  " committed, but was not known to be on the synchronous standbys: " +
                  (durable ? "the deadline passed" : durable.error().message);
          return std::nullopt;
        }
      }
      return learned;
    }
    if (verdict == "aborted" || verdict == "future") {
      const char* what = verdict == "future" ? "never reached the primary's history" : "aborted";
      return LearnedOutcome{
          CommitOutcome::not_committed, {}, "transaction " + *batch.xid + " " + what};
    }
    if (verdict != "in progress") {
      return LearnedOutcome{CommitOutcome::unknown, {}, "transaction " + *batch.xid + " forgotten"};
    }
    if (!pause(ask_again, batch.deadline, stop)) {
      error = "transaction " + *batch.xid + " still in progress";
      return LearnedOutcome{CommitOutcome::unknown, {}, error};
    }
  }
}

// learn_commit_outcome: what became of `batch`, asked until its deadline (or a stop); reconnects
// while no read-write server answers, and asks again while the transaction is in progress.
LearnedOutcome learn_commit_outcome(const ConnectTarget& target, const BatchInDoubt& batch,
                                    const std::stop_token& stop) {
  if (!batch.xid) {
    return LearnedOutcome{CommitOutcome::unknown, {}, "its transaction id never came"};
  }
  std::string error = "the deadline had passed";
  while (Clock::now() < batch.deadline && !stop.stop_requested()) {
    auto session = BlockingSession::open(target, batch.deadline, stop);
    if (session) {
      session->refusals("the database refused a commit's resolution");
      if (auto learned = ask(*session, batch, stop, error)) {
        return std::move(*learned);
      }
    } else {
      error = session.error().message;
    }
    (void)pause(connect_again, batch.deadline, stop);
  }
  return LearnedOutcome{CommitOutcome::unknown, {}, "not learned in time: " + error};
}

}  // namespace

void CommitResolver::resolve(BatchInDoubt batch) {
  // Shared by the job's two ends (run, dropped), one of which answers it.
  auto held = std::make_shared<BatchInDoubt>(std::move(batch));
  const auto closing = [held] {
    for (auto& create : held->creates) {
      create.done(unavailable("storage is closing", held->reason));
    }
  };
  BackgroundWorker::Job job{
      [this,
       held](const std::stop_token& stop) -> std::optional<BackgroundWorker::Clock::time_point> {
        auto learned = learn_commit_outcome(target_, *held, stop);
        if (stop.stop_requested()) {
          learned = LearnedOutcome{CommitOutcome::unknown, {}, "storage is closing"};
        }
        settle(std::move(*held), std::move(learned));
        return std::nullopt;
      },
      closing};
  if (worker_ == nullptr || !worker_->post(std::move(job))) {
    closing();
  }
}

void CommitResolver::settle(BatchInDoubt batch, LearnedOutcome learned) {
  const auto now = std::chrono::steady_clock::now();
  const std::string detail = learned.detail + "; the connection was lost: " + batch.reason;
  observer_.commit_resolved(to_string(learned.outcome), batch.creates.size(), detail);
  for (std::size_t i = 0; i < batch.creates.size(); ++i) {
    auto& create = batch.creates[i];
    if (learned.outcome == CommitOutcome::committed) {
      create.done(std::move(learned.creates[i]));
    } else if (learned.outcome == CommitOutcome::not_committed && create.deadline > now &&
               resend_) {
      resend_(std::move(create));
    } else {
      create.done(unavailable(learned.outcome == CommitOutcome::not_committed
                                  ? "the create's commit did not happen"
                                  : "the outcome of the create's commit is unknown",
                              detail));
    }
  }
}

}  // namespace petstore::adapters::storage::postgres
