#pragma once
// What a replica must prove before it serves a read: that it replays this primary's history, as
// positions of different histories are not comparable (docs/decisions/replica-proof.md). It must be
// in recovery and show the primary's system_identifier, database oid and current timeline; then
// its replay position decides, read by read (postgres_freshness.hpp).

#include <cstdint>
#include <libpq-fe.h>
#include <optional>
#include <string>
#include <string_view>

#include "adapters/storage/postgres/postgres_freshness.hpp"
#include "adapters/storage/postgres/postgres_observer.hpp"

namespace petstore::adapters::storage::postgres {

// identity_setup_sql: run once per connection, keeps the server's system_identifier and database
// oid in the session, so that the statements below need not read the control file. A server that
// does not let the role read it still serves, but is never trusted as a replica, nor its
// positions as a primary's (the primary serves every read).
inline constexpr const char* identity_setup_sql =
    "DO $$BEGIN "
    "PERFORM set_config('petstore.system_identifier', s.system_identifier::text, false), "
    "set_config('petstore.database_oid', d.oid::text, false) "
    "FROM pg_control_system() s, pg_database d WHERE d.datname = current_database(); "
    "EXCEPTION WHEN insufficient_privilege THEN NULL; END$$";

// ServerHistory: the WAL history a server writes or replays: its cluster, the database, and the
// timeline (a promotion starts a new one).
struct ServerHistory {
  std::string system_identifier;
  std::string database_oid;
  std::uint32_t timeline = 0;
  bool operator==(const ServerHistory&) const = default;
};

// PrimaryPosition: what a read must find on a replica: the primary's flushed WAL position read
// after the read began, and the history it lies on.
struct PrimaryPosition {
  Lsn flush = 0;
  ServerHistory history;
};

// position_sql: the primary's flushed position and its history, in one cheap statement.
inline constexpr const char* position_sql =
    "SELECT pg_current_wal_flush_lsn(), pg_walfile_name(pg_current_wal_flush_lsn()), "
    "current_setting('petstore.system_identifier', true), "
    "current_setting('petstore.database_oid', true)";

// decode_position: position_sql's row; nullopt when it is not one (a NULL, a server that is in
// recovery and refused pg_walfile_name, an answer in another shape).
[[nodiscard]] std::optional<PrimaryPosition> decode_position(const PGresult* result);

// timeline_of_wal_file: the timeline a WAL file's name starts with ("0000000200000000000000A1":
// 2); nullopt for anything else.
[[nodiscard]] std::optional<std::uint32_t> timeline_of_wal_file(std::string_view name);

// proving_replay_sql: a replica's replay position, read before the read's snapshot, and what it
// must prove. It reads nothing of the petstore schema, so that another cluster or database is told
// apart, not failed. The timeline is the WAL receiver's (needs pg_read_all_stats) or else the last
// restartpoint's: either lies on the replica's replay history.
inline constexpr const char* proving_replay_sql =
    "SELECT pg_last_wal_replay_lsn(), pg_is_in_recovery(), "
    "current_setting('petstore.system_identifier', true), "
    "current_setting('petstore.database_oid', true), "
    "greatest((SELECT received_tli FROM pg_stat_wal_receiver), "
    "(SELECT timeline_id FROM pg_control_checkpoint())), current_database()";

// ReplicaFacts: proving_replay_sql's row.
struct ReplicaFacts {
  bool in_recovery = false;
  ServerHistory history;
  std::string database_name;
};

// decode_replica_facts: proving_replay_sql's row; nullopt when it is not one.
[[nodiscard]] std::optional<ReplicaFacts> decode_replica_facts(const PGresult* result);

// ReplicaJudgement: why a replica may not serve reads for a primary's history (nullopt refusal:
// it may), with the difference in words for the log.
struct ReplicaJudgement {
  std::optional<ReplicaRefusal> refusal;
  std::string detail;
};

[[nodiscard]] ReplicaJudgement judge_history(const ReplicaFacts& replica,
                                             const ServerHistory& primary);

}  // namespace petstore::adapters::storage::postgres
