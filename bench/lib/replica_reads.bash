# shellcheck shell=bash disable=SC2154  # the variables are bench/postgres's
# Sourced by bench/postgres: reads with and without a read replica (issues 27 and 42). Function
# definitions only. A streaming standby of bench/postgres's server (pg_basebackup -R, a hot
# standby on port 5433 of the same socket directory), three `petstore serve --threads 1` on one
# database seeded with pets: a writer, a reader without and a reader with --database-read-url
# naming the standby. For each reader `wrk -t1 -c64` on GET /v1/pets?limit=20
# (bench/lib/get_page.lua) for S seconds while another `wrk -t1 -c64` creates pets through the
# writer all along (bench/lib/post_pet.lua): the replica must keep up with continuous creates.
# From the second reader's /metrics: the share of reads the replica served
# (petstore_storage_reads_total), why the others went to the primary, and the flush-position
# queries a read cost the primary (petstore_storage_freshness_queries_total over reads).
# Expects bench/postgres's $pg, $pg_bin, $work, $seconds, $grace, $results and its as_postgres,
# psql_at, createdb_named, start_petstore, check_creates, wrk_checked.

replica_connections=64
standby_started=0

# start_standby: the standby, caught up with the primary; sets standby_started.
start_standby() {
  echo "bench/postgres: a streaming standby (pg_basebackup -R) on port 5433" >&2
  as_postgres "$pg_bin/pg_basebackup" -h "$pg" -U petstore -D "$pg/standby" -R -X stream --checkpoint=fast \
    >"$work/basebackup.log" 2>&1 ||
    { echo "bench/postgres: pg_basebackup failed:" >&2; cat "$work/basebackup.log" >&2; exit 1; }
  as_postgres tee -a "$pg/standby/postgresql.conf" >/dev/null <<CONF

# bench/postgres: the standby
port = 5433
hot_standby = on
CONF
  standby_started=1
  as_postgres "$pg_bin/pg_ctl" -D "$pg/standby" -l "$pg/standby.log" -w -t 60 start >/dev/null ||
    { echo "bench/postgres: the standby did not start:" >&2; cat "$pg/standby.log" >&2; exit 1; }
}

stop_standby() {
  [ "$standby_started" = 1 ] || return 0
  as_postgres "$pg_bin/pg_ctl" -D "$pg/standby" -m fast -w -t 60 stop >/dev/null 2>&1 ||
    as_postgres "$pg_bin/pg_ctl" -D "$pg/standby" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
}

# read_metric ORIGIN PATTERN: the sum of the /metrics samples whose line matches PATTERN.
read_metric() {
  curl -s "$1/metrics" | awk -v p="$2" '$0 ~ p && !/^#/ { s += $NF } END { printf "%d\n", s }'
}

# setup_replica_reads: the standby, the seeded database and the three instances; sets
# $reads_origins (without, with the replica) and $writer_origin.
setup_replica_reads() {
  start_standby
  createdb_named pets_reads
  start_petstore reads-writer pets_reads
  writer_origin=$origin
  start_petstore reads-0 pets_reads
  local without=$origin
  check_creates "$without"
  timeout -k 5 $((5 + grace)) wrk -t1 -c8 -d2s -s bench/lib/post_pet.lua "$without/v1/pets" \
    >"$work/seed.out" 2>&1
  wrk_checked "$work/seed.out" "seeding pets_reads"
  PETSTORE_DATABASE_READ_URL="host='$pg' port=5433 dbname=pets_reads user=petstore" \
    start_petstore reads-1 pets_reads
  reads_origins=("$without" "$origin")
}

# run_reads REPLICAS ROUND [KIND]: wrk on the reader with REPLICAS (0 or 1) replicas, while
# another creates through the writer. KIND: reads (the first page, bench/lib/get_page.lua) or tail
# (past the newest pet, bench/lib/get_tail.lua).
run_reads() {
  local n=$1 round=$2 kind=${3:-reads} origin=${reads_origins[$1]} out=$work/reads.out
  local creates_out=$work/creates.out script=bench/lib/get_page.lua
  [ "$kind" = reads ] || script=bench/lib/get_tail.lua
  local replica_before reads_before queries_before lagging_before replica reads queries lagging rps
  local writer
  replica_before=$(read_metric "$origin" 'served_by="replica"')
  reads_before=$(read_metric "$origin" '^petstore_storage_reads_total')
  lagging_before=$(read_metric "$origin" 'reason="replica_lagging"')
  queries_before=$(read_metric "$origin" '^petstore_storage_freshness_queries_total')
  timeout -k 5 $((seconds + grace)) wrk -t1 -c"$replica_connections" -d"${seconds}s" \
    -s bench/lib/post_pet.lua "$writer_origin/v1/pets" >"$creates_out" 2>&1 &
  writer=$!
  timeout -k 5 $((seconds + grace)) wrk -t1 -c"$replica_connections" -d"${seconds}s" \
    -s "$script" "$origin/v1/pets" >"$out" 2>&1 ||
    { echo "bench/postgres: wrk (reads) failed:" >&2; cat "$out" >&2; exit 1; }
  wait "$writer" || { echo "bench/postgres: wrk (creates) failed:" >&2; cat "$creates_out" >&2; exit 1; }
  wrk_checked "$out" "reads with $n replicas"
  wrk_checked "$creates_out" "creates beside the reads"
  rps=$(wrk_rate <"$out")
  replica=$(($(read_metric "$origin" 'served_by="replica"') - replica_before))
  reads=$(($(read_metric "$origin" '^petstore_storage_reads_total') - reads_before))
  lagging=$(($(read_metric "$origin" 'reason="replica_lagging"') - lagging_before))
  queries=$(($(read_metric "$origin" '^petstore_storage_freshness_queries_total') - queries_before))
  local share cost creates
  creates=$(wrk_rate <"$creates_out")
  share=$(awk -v r="$replica" -v t="$reads" 'BEGIN { printf "%.3f", (t > 0 ? r / t : 0) }')
  cost=$(awk -v q="$queries" -v t="$reads" 'BEGIN { printf "%.4f", (t > 0 ? q / t : 0) }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$n" "$round" "$rps" "$share" "$cost" "$creates" \
    "$lagging" >>"$results"
  printf 'bench/postgres: round %s %-9s replicas=%s %9.0f reads/s  replica share %s  position queries a read %s  creates/s meanwhile %.0f  lagging %s\n' \
    "$round" "$kind" "$n" "$rps" "$share" "$cost" "$creates" "$lagging" >&2
}

# replica_section: the report's table (medians over rounds, from $results).
replica_section() {
  local target=0.1 cost verdict command=bench/postgres share_target=0.8 share tail_share share_verdict
  [ "$replicas_only" = 0 ] || command="bench/postgres --replicas --rounds $rounds --seconds $seconds"
  cost=$(column_of reads 1 6 | median_of)
  verdict=$(awk -v c="$cost" -v t="$target" 'BEGIN { print (c <= t) ? "met" : "not met" }')
  share=$(column_of reads 1 5 | median_of)
  tail_share=$(column_of tail 1 5 | median_of)
  share_verdict=$(awk -v s="$share" -v u="$tail_share" -v t="$share_target" \
    'BEGIN { print (s >= t && u >= t) ? "met" : "not met" }')
  cat <<TEXT
## PostgreSQL read replicas

Measured $(date -u +%Y-%m-%d) by \`$command\` (Release build, $rounds interleaved rounds of
${seconds} s runs) on: $machine. PostgreSQL $pg_version started as in "PostgreSQL" above; a
streaming standby of that server
(\`pg_basebackup -R\`, a hot standby, asynchronous) runs on the same machine. Three
\`petstore serve --storage postgres --threads 1 --log-level warn\` (unpinned; default pools of 2
connections to the primary and 2 to the replica) share one database seeded with pets: a writer, a
reader with no read URL, and a reader with \`--database-read-url\` naming the standby. \`wrk -t1
-c$replica_connections\` sends \`GET /v1/pets?limit=20\` (\`bench/lib/get_page.lua\`) to one reader
for ${seconds} s while another \`wrk -t1 -c$replica_connections\` creates pets through the writer
(\`bench/lib/post_pet.lua\`), so the replica replays continuous creates. The
share and the cost come from that instance's \`/metrics\`: \`petstore_storage_reads_total\` by
\`served_by\`, and \`petstore_storage_freshness_queries_total\` (flush-position queries, each one
round trip to the primary shared by a batch of reads) over the reads.

| Reads | Replicas | reads/s | creates/s meanwhile | share served by the replica | primary round trips a read for freshness |
|---|---|---|---|---|---|
| the first page | 0 | $(column_of reads 0 4 | spread '%.0f') | $(column_of reads 0 7 | spread '%.0f') | - | - |
| the first page | 1 | $(column_of reads 1 4 | spread '%.0f') | $(column_of reads 1 7 | spread '%.0f') | $(column_of reads 1 5 | spread '%.3f') | $(column_of reads 1 6 | spread '%.4f') |
| past the newest pet | 0 | $(column_of tail 0 4 | spread '%.0f') | $(column_of tail 0 7 | spread '%.0f') | - | - |
| past the newest pet | 1 | $(column_of tail 1 4 | spread '%.0f') | $(column_of tail 1 7 | spread '%.0f') | $(column_of tail 1 5 | spread '%.3f') | $(column_of tail 1 6 | spread '%.4f') |

A first page is bounded by a pet the replica holds (the page has a row after it), so the replica
serves it without a position; a page past the newest pet shows nothing on its face, so each waits
for the primary's position and the replica's replay (docs/decisions/replica-reads.md). Target of
issue 27: at most $target primary round trips a read for freshness at $replica_connections
connections; measured $cost on first pages ($verdict). Target of issue 42: the replica serves at
least $share_target of reads while creates run; measured $share on first pages and $tail_share past
the newest pet ($share_verdict).
TEXT
}
