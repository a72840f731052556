#pragma once
// Schema version 5: petstore.replay_reaches, with which a read waits on the replica, in its own
// pipeline, for the position it needs (PostgreSQL 15 has no such wait of its own).

namespace petstore::adapters::storage::postgres {

// replay_wait_migration, from schema version 4 to 5. replay_reaches(p_lsn, p_wait_ms): the
// server's replay position once it has reached p_lsn, or after about p_wait_ms milliseconds of
// 1 ms naps (pg_sleep's own granularity), whichever comes first; NULL at once on a server not in
// recovery. It reads no table, so the snapshot it holds meanwhile conflicts with no cleanup.
inline constexpr const char* replay_wait_migration = R"sql(
CREATE FUNCTION petstore.replay_reaches(p_lsn pg_lsn, p_wait_ms integer) RETURNS pg_lsn
LANGUAGE plpgsql AS $fn$
DECLARE
  v_replayed pg_lsn := pg_last_wal_replay_lsn();
BEGIN
  FOR i IN 1 .. p_wait_ms LOOP
    EXIT WHEN v_replayed IS NULL OR v_replayed >= p_lsn;
    PERFORM pg_sleep(0.001);
    v_replayed := pg_last_wal_replay_lsn();
  END LOOP;
  RETURN v_replayed;
END
$fn$;
)sql";

// replay_wait_sql: a trusted replica's replay position, after waiting for $1 (a pg_lsn's text) at
// most $2 milliseconds.
inline constexpr const char* replay_wait_sql =
    "SELECT petstore.replay_reaches($1::pg_lsn, $2::integer)";

}  // namespace petstore::adapters::storage::postgres
