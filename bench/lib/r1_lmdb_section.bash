# shellcheck shell=bash disable=SC2154  # the variables are bench/run's (below)
# Sourced by bench/run: R1 on LMDB (issue 31), as a table for the HTTP section (r1_lmdb_table)
# and as the whole "R1 on LMDB" section that --r1-only writes (r1_lmdb_section). Function
# definitions only; pair_ratios, column_of, judge and median_of are bench/lib/http_section.bash's
# and bench/lib/report.bash's. Expects: $results, $rounds, $seconds, $seed_pets, $machine,
# $baseline_rev and $baseline_short.

# lmdb_row CONNECTIONS: R1 on LMDB against nginx's and memory's R1 in the same rounds.
lmdb_row() {
  local c=$1
  printf '| %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$c" \
    "$(column_of R1-lmdb "$c" petstore 5 | spread '%.0f')" \
    "$(column_of R1 "$c" petstore 5 | spread '%.0f')" \
    "$(column_of R1 "$c" nginx 5 | spread '%.0f')" \
    "$(pair_ratios 5 "$c" R1-lmdb petstore R1 nginx | spread '%.2f')" \
    "$(pair_ratios 5 "$c" R1-lmdb petstore R1 petstore | spread '%.2f')" \
    "$(pair_ratios 8 "$c" R1-lmdb petstore R1 nginx | spread '%.2f')" \
    "$(column_of R1-lmdb "$c" petstore 6 | median_of)" "$(column_of R1-lmdb "$c" petstore 7 | median_of)"
}

# lmdb_ab_row CONNECTIONS: this build's R1 on LMDB against the baseline's, in the same rounds.
lmdb_ab_row() {
  local c=$1
  printf '| %s | %s | %s | %s | %s |\n' "$c" \
    "$(column_of R1-lmdb "$c" baseline 5 | spread '%.0f')" \
    "$(pair_ratios 5 "$c" R1-lmdb petstore R1-lmdb baseline | spread '%.2f')" \
    "$(pair_ratios 8 "$c" R1-lmdb petstore R1-lmdb baseline | spread '%.2f')" \
    "$(pair_ratios 5 "$c" R1-lmdb baseline R1 nginx | spread '%.2f')"
}

# r1_lmdb_table: the table, the targets of issue 31 judged, and with --baseline the A/B table.
r1_lmdb_table() {
  local c verdicts=()
  for c in 8 64 256; do
    verdicts+=("| R1 on LMDB, $c connections: req/s against nginx | at least 1.0x | $(judge '%.2fx' \
      "$(pair_ratios 5 "$c" R1-lmdb petstore R1 nginx | median_of)" at-least 1) |")
    verdicts+=("| R1 on LMDB, $c connections: req/s against memory | at least 0.95x | $(judge '%.2fx' \
      "$(pair_ratios 5 "$c" R1-lmdb petstore R1 petstore | median_of)" at-least 0.95) |")
  done
  cat <<TEXT
| Connections | LMDB req/s | memory req/s | nginx req/s | LMDB/nginx req/s | LMDB/memory req/s | LMDB/nginx CPU/request | LMDB p50 / p99 us |
|---|---|---|---|---|---|---|---|
$(lmdb_row 8)
$(lmdb_row 64)
$(lmdb_row 256)

Against the targets of issue 31 (medians of this run):

| Target | Wanted | Measured |
|---|---|---|
$(printf '%s\n' "${verdicts[@]}")
TEXT
  [ -n "$baseline_rev" ] || return 0
  cat <<TEXT

A/B: the Release build of $baseline_short on LMDB (its own $seed_pets pets, started the same way),
run between this build's LMDB and nginx in every round. Above 1 for req/s and below 1 for CPU per
request mean this build is faster.

| Connections | baseline LMDB req/s | this/baseline req/s | this/baseline CPU/request | baseline LMDB/nginx req/s |
|---|---|---|---|---|
$(lmdb_ab_row 8)
$(lmdb_ab_row 64)
$(lmdb_ab_row 256)
TEXT
}

# r1_lmdb_section: the section --r1-only writes.
r1_lmdb_section() {
  local tree
  tree=$(built_tree)
  cat <<TEXT
## R1 on LMDB

Measured $(date -u +%Y-%m-%d) by \`bench/run --r1-only\` (Release build of $tree, $rounds
interleaved rounds of ${seconds} s runs) on: $machine. Pinned as in the HTTP section (servers on
CPU 0, \`wrk -t1\` on CPU 1). R1 is \`GET /v1/pets?limit=20\` with a bearer key; petstore serves
it from memory and from LMDB (the default storage, each seeded with $seed_pets pets through the
API), nginx the memory server's page from a file after the same key check. In each round and at
each connection count the runs are memory, LMDB, $([ -n "$baseline_rev" ] && echo "the baseline on LMDB, ")nginx, one after the
other; a ratio is taken within a round, then the median of those, with the minimum and maximum
in brackets.

$(r1_lmdb_table)
TEXT
}
