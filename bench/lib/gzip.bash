# shellcheck shell=bash disable=SC2154  # the variables are bench/run's
# Sourced by bench/run: its --gzip mode (issue 29), what gzip costs and saves on a page of 100
# pets. One petstore (memory, 10,000 pets, pinned as in R1) answers GET /v1/pets?limit=100 with
# and without Accept-Encoding: gzip, the two runs interleaved for $rounds rounds of $seconds s at
# 64 connections; then the bytes of one such response each way. Prints the figures and, unless
# --no-docs, rewrites the "gzip" section of docs/benchmarks.md. Function definitions only.

gzip_run() {
  start_petstore gzip --storage memory
  local gzip_pid=$pid gzip_origin=$origin round
  echo "bench/run: seeding $seed_pets pets" >&2
  send_requests "$gzip_origin" POST /v1/pets "$seed_pets" 8 201
  for round in $(seq "$rounds"); do
    measure G-identity 64 "$round" petstore "$gzip_pid" "$gzip_origin" bench/lib/get_page_100.lua
    measure G-gzip 64 "$round" petstore "$gzip_pid" "$gzip_origin" bench/lib/get_page_100_gzip.lua
  done
  local auth="Authorization: Bearer $PETSTORE_BENCH_KEY" url="$gzip_origin/v1/pets?limit=100"
  # The body bytes on the wire (curl does not inflate without --compressed), and the fields'.
  gzip_plain_bytes=$(curl -sf -o /dev/null -w '%{size_download}' -H "$auth" "$url")
  gzip_bytes=$(curl -sf -o /dev/null -w '%{size_download}' -H "$auth" -H 'Accept-Encoding: gzip' "$url")
  gzip_head_bytes=$(curl -sf -o /dev/null -w '%{size_header}' -H "$auth" -H 'Accept-Encoding: gzip' "$url")
  gzip_plain_head_bytes=$(curl -sf -o /dev/null -w '%{size_header}' -H "$auth" "$url")
  stop "$gzip_pid"
  machine="$(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, Linux $(uname -r)"
}

gzip_column() {  # SCENARIO FIELD: that field of every round
  awk -F'\t' -v s="$1" -v f="$2" '$1 == s { print $f }' "$results"
}

gzip_section() {
  local rps_plain rps_gzip cpu_plain cpu_gzip p99_plain p99_gzip rate_ratio cpu_extra
  rps_plain=$(gzip_column G-identity 5 | spread '%.0f')
  rps_gzip=$(gzip_column G-gzip 5 | spread '%.0f')
  cpu_plain=$(gzip_column G-identity 8 | spread '%.1f')
  cpu_gzip=$(gzip_column G-gzip 8 | spread '%.1f')
  p99_plain=$(gzip_column G-identity 7 | median_of)
  p99_gzip=$(gzip_column G-gzip 7 | median_of)
  rate_ratio=$(paste <(gzip_column G-gzip 5) <(gzip_column G-identity 5) |
    awk '{ print $1 / $2 }' | spread '%.2f')
  cpu_extra=$(paste <(gzip_column G-gzip 8) <(gzip_column G-identity 8) |
    awk '{ print $1 - $2 }' | spread '%.1f')
  cat <<TEXT
## gzip

Measured $(date -u +%F) by \`$invocation\` (Release build, $rounds interleaved rounds of
$seconds s runs at 64 connections) on: $machine. One \`petstore serve --threads 1\` (memory,
$seed_pets pets) pinned to CPU 0, \`wrk -t1\` to CPU 1, answers \`GET /v1/pets?limit=100\` with a
bearer key, without and with \`Accept-Encoding: gzip\` (zlib level 1, made once per thread and
reset for each body). Medians over rounds, minimum and maximum in brackets; CPU per request is the
server's user and system time over the run divided by the requests wrk counted.

| | identity | gzip | gzip against identity |
|---|---|---|---|
| body bytes of the page | $gzip_plain_bytes | $gzip_bytes | $(awk -v a="$gzip_bytes" -v b="$gzip_plain_bytes" 'BEGIN { printf "%.2fx (%.0f bytes saved)", a / b, b - a }') |
| requests/s | $rps_plain | $rps_gzip | $rate_ratio |
| server CPU us/request | $cpu_plain | $cpu_gzip | +$cpu_extra us |
| p99 latency us | $p99_plain | $p99_gzip | |

The response's fields take $gzip_head_bytes bytes gzipped and $gzip_plain_head_bytes as they are.
What gzip costs is the CPU row's difference: compressing one page at level 1. What it saves is the
bytes row: on a network slower than loopback, where transfer and not the server's CPU bounds a
client, that is the time that matters; on loopback with the server's one CPU saturated, the
requests/s row is the worst case.
TEXT
}
