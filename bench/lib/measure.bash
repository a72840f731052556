# shellcheck shell=bash disable=SC2154  # the variables are bench/run's (below)
# Sourced by bench/run and bench/cores: the measurements. A wrk run against a server with its CPU
# time (measure), the disk's fdatasync rate and LMDB alone beside R3 (fdatasync_rate,
# measure_sync_baselines), peak RSS (peak_rss_kib) and instructions per request under callgrind
# (callgrind_measure). Function definitions only; the wrk figures are read by bench/lib/wrk.bash's
# functions and callgrind_measure sends with send_requests (bench/lib/servers.bash). Expects:
# $script_name (the prefix of messages), $results (the results file, one tab-separated line a run:
# see measure; bench/lib/charts reads it), $seconds (a wrk run's length), $clk_tck (getconf
# CLK_TCK), $work (R3's LMDB directory is $work/lmdb) and $commit_bench (build/bench's
# petstore_lmdb_commit_bench); optionally $wrk_cpus (default 1) and $wrk_threads (default 1), which
# bench/cores sets.

# cpu_ticks PID: the user and system time of PID and its children (nginx's workers), in ticks.
cpu_ticks() {
  local stats=("/proc/$1/stat") child
  for child in $(ps -o pid= --ppid "$1" || true); do
    stats+=("/proc/$child/stat")
  done
  awk '{ t += $14 + $15 } END { print t }' "${stats[@]}"
}

# measure SCENARIO CONNECTIONS ROUND SERVER PID ORIGIN SCRIPT [READER_PID]: one wrk run on
# $wrk_cpus with $wrk_threads threads; appends scenario, connections, round, server, req/s, p50 us,
# p99 us, server CPU us per request, the CPU us per request of READER_PID, the server's log reader
# (0 without one), and wrk's own CPU us per request.
measure() {
  local scenario=$1 connections=$2 round=$3 server=$4 server_pid=$5 target=$6 script=$7
  local reader=${8:-}
  local before after reader_before=0 reader_after=0 out requests rps p50 p99 cpu reader_cpu
  local wrk_seconds wrk_cpu TIMEFORMAT='%U %S'  # bash's `time`: wrk's user and system seconds
  [ -z "$reader" ] || reader_before=$(cpu_ticks "$reader")
  before=$(cpu_ticks "$server_pid")
  out=$({ time taskset -c "${wrk_cpus:-1}" wrk -t"${wrk_threads:-1}" -c"$connections" \
    -d"${seconds}s" --latency -s "$script" "$target/v1/pets?limit=20" 2>&1; } 2>"$work/wrk.time")
  wrk_seconds=$(tail -1 "$work/wrk.time")
  after=$(cpu_ticks "$server_pid")
  [ -z "$reader" ] || reader_after=$(cpu_ticks "$reader")
  if grep -qE 'Non-2xx|Socket errors' <<<"$out"; then
    echo "$script_name: $scenario $server c=$connections had errors:" >&2
    echo "$out" >&2
    exit 1
  fi
  requests=$(wrk_requests <<<"$out")
  rps=$(wrk_rate <<<"$out")
  p50=$(wrk_latency_us 50 <<<"$out")
  p99=$(wrk_latency_us 99 <<<"$out")
  cpu=$(awk -v t=$((after - before)) -v h="$clk_tck" -v n="$requests" 'BEGIN { printf "%.2f", t * 1e6 / h / n }')
  reader_cpu=$(awk -v t=$((reader_after - reader_before)) -v h="$clk_tck" -v n="$requests" \
    'BEGIN { printf "%.2f", t * 1e6 / h / n }')
  wrk_cpu=$(awk -v n="$requests" -v t="$wrk_seconds" \
    'BEGIN { split(t, s, " "); printf "%.2f", (s[1] + s[2]) * 1e6 / n }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$scenario" "$connections" "$round" \
    "$server" "$rps" "$p50" "$p99" "$cpu" "$reader_cpu" "$wrk_cpu" >>"$results"
  printf '%s: round %s %-6s c=%-3s %-12s %9.0f req/s  p50 %6s us  p99 %6s us  %6s us CPU/req (wrk %s)' \
    "$script_name" "$round" "$scenario" "$connections" "$server" "$rps" "$p50" "$p99" "$cpu" \
    "$wrk_cpu" >&2
  [ -z "$reader" ] || printf ' (and %s us its log reader)' "$reader_cpu" >&2
  echo >&2
}

# fdatasync_rate: synchronous 100-byte appends, fdatasync after each, for 3 s in DIR; prints
# "appends/s median_latency_us".
fdatasync_rate() {
  /usr/bin/python3 - "$1" <<'PY'
import os, statistics, sys, time
path = os.path.join(sys.argv[1], "fdatasync-probe")
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
latencies, start = [], time.monotonic()
while time.monotonic() - start < 3:
    began = time.monotonic()
    os.write(fd, b"x" * 100)
    os.fdatasync(fd)
    latencies.append(time.monotonic() - began)
os.close(fd)
os.unlink(path)
print(f"{len(latencies) / (time.monotonic() - start):.0f} {statistics.median(latencies) * 1e6:.0f}")
PY
}

# measure_sync_baselines ROUND: R3's baselines in its directory, $work/lmdb: the disk's
# fdatasync rate (a "disk" line in $results) and LMDB alone, one synced commit a record, in
# $work/lmdb-alone beside it (an "lmdb" line); prints both.
measure_sync_baselines() {
  local round=$1 rate latency lmdb_alone commits commit_us
  read -r rate latency < <(fdatasync_rate "$work/lmdb")
  printf 'bench/run: round %s disk: %s fdatasync appends/s, median %s us\n' "$round" "$rate" \
    "$latency" >&2
  printf 'disk\t1\t%s\tdisk\t%s\t%s\t0\t0\t0\n' "$round" "$rate" "$latency" >>"$results"
  rm -rf "$work/lmdb-alone" && mkdir -p "$work/lmdb-alone"
  lmdb_alone=$(taskset -c 0 "$commit_bench" "$work/lmdb-alone" 3)
  commits=$(sed -n 's/.*commits_per_second=\([0-9]*\).*/\1/p' <<<"$lmdb_alone")
  commit_us=$(sed -n 's/.*median_commit_us=\([0-9]*\).*/\1/p' <<<"$lmdb_alone")
  printf 'bench/run: round %s LMDB alone: %s synced commits/s, median %s us\n' "$round" \
    "$commits" "$commit_us" >&2
  printf 'lmdb\t1\t%s\tlmdb\t%s\t%s\t0\t0\t0\n' "$round" "$commits" "$commit_us" >>"$results"
}

peak_rss_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }  # PID: its peak RSS (VmHWM)

callgrind_ir() {  # the Ir total of callgrind's newest dump in DIR
  ls -t "$1"/callgrind.out.* | head -1 | xargs awk '/^(summary|totals):/ { print $2; exit }'
}
# callgrind_measure DIR ORIGIN METHOD PATH STATUS COUNT PID: zeroes the counters after a warm-up,
# sends COUNT requests over 8 connections, dumps, and prints instructions per request.
callgrind_measure() {
  local dir=$1 target=$2 method=$3 path=$4 status=$5 count=$6 server_pid=$7
  send_requests "$target" "$method" "$path" 1000 8 "$status"
  callgrind_control -z "$server_pid" >/dev/null 2>&1
  send_requests "$target" "$method" "$path" "$count" 8 "$status"
  callgrind_control -d "$server_pid" >/dev/null 2>&1
  sleep 1
  awk -v ir="$(callgrind_ir "$dir")" -v n="$count" 'BEGIN { printf "%.0f", ir / n }'
}
