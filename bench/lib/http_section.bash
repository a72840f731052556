# shellcheck shell=bash disable=SC2154,SC2034  # the variables are bench/run's (below)
# Sourced by bench/run: its report, the "HTTP" section of docs/benchmarks.md. The per-round
# ratios and table rows read from $results (pair_ratios, ratios, column_of, row, log_cost_row,
# r3_row), the targets of issues 6 and 18 (verdict, judge), the figures the text quotes
# (http_figures, which sets them) and the section's Markdown (http_section; ab_section with
# --baseline). Function definitions only; median_of and spread are bench/lib/report.bash's.
# Expects: $results, $rounds, $seconds, $seed_pets, $baseline_rev, $baseline_short, and from the
# runs $r1_peak_rss_kib, $base_peak_rss_kib, $log_dropped, $ir_r1, $ir_r2 and $ir_nginx.

# pair_ratios FIELD CONNECTIONS SCENARIO_A SERVER_A SCENARIO_B SERVER_B: A's FIELD over B's,
# one ratio per round, sorted.
pair_ratios() {
  awk -F'\t' -v f="$1" -v c="$2" -v sa="$3" -v wa="$4" -v sb="$5" -v wb="$6" '
    $2 == c && $1 == sa && $4 == wa { a[$3] = $f }
    $2 == c && $1 == sb && $4 == wb { b[$3] = $f }
    END { for (r in a) if (r in b && b[r] > 0) print a[r] / b[r] }' "$results" | sort -g
}
# ratios SCENARIO CONNECTIONS FIELD [SERVER]: petstore's FIELD over nginx's (or SERVER's) by round.
ratios() { pair_ratios "$3" "$2" "$1" petstore "$1" "${4:-nginx}"; }
column_of() {  # SCENARIO CONNECTIONS SERVER FIELD: that field of every round
  awk -F'\t' -v s="$1" -v c="$2" -v w="$3" -v f="$4" '$1 == s && $2 == c && $4 == w { print $f }' "$results"
}
row() {  # SCENARIO CONNECTIONS [SERVER]: a table row, petstore against nginx (or SERVER)
  local s=$1 c=$2 w=${3:-nginx}
  printf '| %s | %s | %s | %s | %s | %s | %s / %s | %s / %s |\n' "$s" "$c" \
    "$(column_of "$s" "$c" petstore 5 | spread '%.0f')" \
    "$(column_of "$s" "$c" "$w" 5 | spread '%.0f')" \
    "$(ratios "$s" "$c" 5 "$w" | spread '%.2f')" \
    "$(ratios "$s" "$c" 8 "$w" | spread '%.2f')" \
    "$(column_of "$s" "$c" petstore 6 | median_of)" "$(column_of "$s" "$c" petstore 7 | median_of)" \
    "$(column_of "$s" "$c" "$w" 6 | median_of)" "$(column_of "$s" "$c" "$w" 7 | median_of)"
}
log_cost_row() {  # SERVER LABEL: SERVER's R1-log against its own R1 at 64 connections, per round
  printf '| %s | %s | %s |\n' "$2" "$(pair_ratios 5 64 R1-log "$1" R1 "$1" | spread '%.2f')" \
    "$(pair_ratios 8 64 R1-log "$1" R1 "$1" | spread '%.2f')"
}
r3_row() {
  local c=$1
  printf '| %s | %s | %s | %s / %s |\n' "$c" "$(column_of R3 "$c" petstore 5 | spread '%.0f')" \
    "$(awk -F'\t' -v c="$c" '$1 == "R3" && $2 == c { r[$3] = $5 } $1 == "disk" { d[$3] = $5 }
        END { for (k in r) if (d[k] > 0) print r[k] / d[k] }' "$results" | spread '%.2f')" \
    "$(column_of R3 "$c" petstore 6 | median_of)" "$(column_of R3 "$c" petstore 7 | median_of)"
}

# Whether a figure met its target.
verdict() {  # VALUE at-least|at-most|under LIMIT: "met" or "missed"
  awk -v m="$1" -v op="$2" -v t="$3" 'BEGIN {
    ok = (op == "at-least") ? m >= t : (op == "at-most") ? m <= t : m < t
    print ok ? "met" : "missed" }'
}
judge() {  # FORMAT VALUE at-least|at-most|under LIMIT: "0.84x (met)", "0.53x (missed)"
  case "$2" in
    '' | -) echo "- (not measured)"; return ;;
  esac
  # shellcheck disable=SC2059 # the format is the caller's
  printf "$1 (%s)" "$2" "$(verdict "$2" "$3" "$4")"
}
over() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) print a / b }'; }  # A / B

# http_figures: sets the figures (medians of this run) that http_section quotes, and $machine.
http_figures() {
  disk_rate=$(column_of disk 1 disk 5 | median_of)
  disk_latency=$(column_of disk 1 disk 6 | median_of)
  lmdb_rate=$(column_of lmdb 1 lmdb 5 | median_of)
  lmdb_latency=$(column_of lmdb 1 lmdb 6 | median_of)
  r2_memory=$(column_of R2 64 petstore 5 | median_of)
  r3_64=$(column_of R3 64 petstore 5 | median_of)
  r3_64_p99=$(column_of R3 64 petstore 7 | median_of)
  log_reader_cpu=$(column_of R1-log 64 petstore 9 | median_of)
  log_server_cpu=$(column_of R1-log 64 petstore 8 | median_of)
  machine="$(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, Linux $(uname -r)"
  r1_64_rps_ratio=$(ratios R1 64 5 | median_of)
  r1_64_cpu_ratio=$(ratios R1 64 8 | median_of)
  r2_64_rps_ratio=$(ratios R2 64 5 | median_of)
  r2_64_cpu_ratio=$(ratios R2 64 8 | median_of)
  r3_1=$(column_of R3 1 petstore 5 | median_of)
  r3_64_over_disk=$(over "$r3_64" "$disk_rate")
  r3_64_over_r2=$(over "$r3_64" "$r2_memory")
  r3_1_over_lmdb=$(over "$r3_1" "$lmdb_rate")
  r3_64_p99_syncs=$(over "$r3_64_p99" "$disk_latency")
}

# ab_section: with --baseline, the A/B subsection: this build against the baseline's, per round.
ab_section() {
  [ -n "$baseline_rev" ] || return 0
  local tree
  tree=$(built_tree)
  cat <<TEXT

### A/B against $baseline_rev ($baseline_short)

petstore as built here ($tree) against the Release build of $baseline_short, started the
same way (same flags, $seed_pets pets for R1, CPU 0) and run between petstore and nginx in every
round. A ratio is this build's figure over the baseline's in the same round, then the median of
those: above 1 for req/s and below 1 for CPU per request mean this build is faster.

| Run | Connections | petstore req/s | baseline req/s | req/s ratio | CPU/request ratio | petstore p50 / p99 us | baseline p50 / p99 us |
|---|---|---|---|---|---|---|---|
$(row R1 8 baseline)
$(row R1 64 baseline)
$(row R1 256 baseline)
$(row R2 64 baseline)

Peak resident memory of the R1 server (VmHWM): $((r1_peak_rss_kib / 1024)) MiB, the baseline's
$((base_peak_rss_kib / 1024)) MiB.
TEXT
}

# http_section: prints the section (after http_figures).
http_section() {
  local tree
  tree=$(built_tree)
  cat <<TEXT
## HTTP

Measured $(date -u +%Y-%m-%d) by \`bench/run\` (Release build of $tree, $rounds interleaved rounds of
${seconds} s runs) on: $machine. \`petstore serve --threads 1 --log-level warn\` and nginx
$(nginx -v 2>&1 | sed 's|.*nginx/||') (one process, no access log; both log in R1-log) run pinned
to CPU 0, \`wrk -t1\` to CPU 1. Each cell is the median over rounds with the minimum and maximum
in brackets; a ratio is taken within a round (petstore's run against the nginx run right beside
it), then the median of those. CPU per request is the server's user and system time over the run
divided by the requests wrk counted. Latencies are wrk's p50 / p99 in microseconds, medians over
rounds.

R1 is \`GET /v1/pets?limit=20\` with a bearer key on a store of $seed_pets pets (memory); nginx
serves the same response bytes from a file after the same key check in its config. R2 is
\`POST /v1/pets\` in memory; nginx answers a canned 201. R1-log is R1 at 64 connections with
each server's default logging: petstore at \`--log-level info\` (a line a request) with its
stdout a pipe read by \`cat >/dev/null\` on CPU 0, nginx writing its access log
(\`combined buffer=64k flush=1s\`) to a file on the project's disk.

| Run | Connections | petstore req/s | nginx req/s | req/s ratio | CPU/request ratio | petstore p50 / p99 us | nginx p50 / p99 us |
|---|---|---|---|---|---|---|---|
$(row R1 8)
$(row R1 64)
$(row R1 256)
$(row R2 64)
$(row R1-log 64)

R1 on LMDB, the default storage (its own $seed_pets pets), run right after R1 in memory in each
round and quoted against nginx's and memory's R1 of the same round:

$(r1_lmdb_table)

Peak resident memory of the R1 server (10,000 pets, after every R1 run up to 256 connections):
$((r1_peak_rss_kib / 1024)) MiB (VmHWM).

The charts (drawn by \`bench/lib/charts\` with gnuplot from this run's results) show medians
over rounds with bars from the minimum to the maximum. Each target of issue 6 that a chart shows
is a marker, named below the chart with this run's figure and whether it was met (missed in red).

![R1: req/s against connections, petstore and nginx](bench/r1-throughput.svg)

![R1: p99 latency against connections, petstore and nginx](bench/r1-p99.svg)

The cost of logging: each server's R1-log against its own R1 at 64 connections in the same round.

| Server | req/s, R1-log over R1 | CPU/request, R1-log over R1 |
|---|---|---|
$(log_cost_row petstore "petstore, info lines to a pipe")
$(log_cost_row nginx "nginx, buffered access log to a file")

petstore's CPU per request in R1-log ($log_server_cpu us) leaves out its reader's: \`cat\` took
another $log_reader_cpu us a request (medians), on the same CPU. Log lines petstore dropped
because the pipe was full: $log_dropped.

R3 is \`POST /v1/pets\` on LMDB: every 201 is sent after its pet is synced, with concurrent
creates sharing one write transaction (group commit). Beside it, the disk in the same directory
does $disk_rate synchronous 100-byte appends a second (fdatasync after each; median latency
$disk_latency us). An LMDB commit syncs twice (data, then the meta page): LMDB alone, one
100-byte record per synced commit in the same directory (\`bench/lmdb_commit_bench.cpp\`), does
$lmdb_rate commits a second (median $lmdb_latency us).

| Connections | durable creates/s | ratio to the disk's fdatasync/s | p50 / p99 us |
|---|---|---|---|
$(r3_row 1)
$(r3_row 8)
$(r3_row 64)
$(r3_row 256)

![R3: durable creates/s against connections, beside the disk's fdatasync/s](bench/r3-durable.svg)

![R3: p99 latency against connections, beside the fdatasync latency](bench/r3-p99.svg)

At 64 connections the durable rate is $(judge '%.2fx' "$r3_64_over_r2" at-least 0.6) the same
service's R2 in memory (the target: at least 0.6x), and its p99 is
$(judge '%.1f' "$r3_64_p99_syncs" at-most 6) fdatasync latencies (the target: at most 6).

Instructions per request (callgrind, user space only, 10,000 requests over 8 connections after a
warm-up of 1,000): R1 $ir_r1, R2 $ir_r2; nginx's R1 $ir_nginx.

Against the targets of issue 6 (medians of this run; each figure says whether it met its target):

| Target | Wanted | Measured |
|---|---|---|
| R1, 64 connections: req/s against nginx | at least 0.8x | $(judge '%.2fx' "$r1_64_rps_ratio" at-least 0.8) |
| R1, 64 connections: CPU per request against nginx | at most 1.25x | $(judge '%.2fx' "$r1_64_cpu_ratio" at-most 1.25) |
| R2, 64 connections: req/s against nginx's canned 201 | at least 0.65x | $(judge '%.2fx' "$r2_64_rps_ratio" at-least 0.65) |
| R3, 64 connections: durable creates/s against the disk's fdatasync/s | at least 3x | $(judge '%.2fx' "$r3_64_over_disk" at-least 3) |
| R3, 64 connections: against R2 in memory | at least 0.6x | $(judge '%.2fx' "$r3_64_over_r2" at-least 0.6) |
| R3, 1 connection: creates/s against one LMDB commit per create (LMDB alone, measured beside it) | at least 1x | $(judge '%.2fx' "$r3_1_over_lmdb" at-least 1) |
| R3, 1 connection: creates/s against half the disk's fdatasync/s (two syncs per commit) | (for reference) | $(awk -v a="$r3_1" -v b="$disk_rate" 'BEGIN { printf "%.2fx", a / (b / 2) }') |
| R3, 64 connections: p99 in fdatasync latencies | at most 6 | $(judge '%.1f' "$r3_64_p99_syncs" at-most 6) |
| R1 instructions per request | at most 80,000 | $(judge '%s' "$ir_r1" at-most 80000) |
| Peak RSS under R1 up to 256 connections, 10,000 pets | under 64 MiB | $(judge '%s MiB' "$((r1_peak_rss_kib / 1024))" under 64) |

Against the targets of issue 18 (creates as cheap as reads, durable writes near the disk's limit;
its both-cores targets are in the Cores and threads section, from \`bench/cores\`):

| Target | Wanted | Measured |
|---|---|---|
| R2, 64 connections: req/s against nginx's canned 201 | at least 0.8x | $(judge '%.2fx' "$r2_64_rps_ratio" at-least 0.8) |
| R2, 64 connections: CPU per request against nginx | at most 1.25x | $(judge '%.2fx' "$r2_64_cpu_ratio" at-most 1.25) |
| R2 instructions per create | at most 20,000 | $(judge '%s' "$ir_r2" at-most 20000) |
| R3, 64 connections: against R2 in memory | at least 0.8x | $(judge '%.2fx' "$r3_64_over_r2" at-least 0.8) |
| R3, 64 connections: p99 in fdatasync latencies | at most 6 | $(judge '%.1f' "$r3_64_p99_syncs" at-most 6) |
| R3, 1 connection: creates/s against LMDB alone | at least 1x | $(judge '%.2fx' "$r3_1_over_lmdb" at-least 1) |

The scale targets (a page from 1,000,000 pets at most 1.3x one from 1,000; memory under 200 MiB and
LMDB under 300 MiB for 1,000,000 pets) are in the Scale section, from \`bench/scale\`.
$(ab_section)
TEXT
}
