# shellcheck shell=bash
# Sourced by bench/run and bench/postgres: reading the figures out of wrk's output (run with
# --latency for the percentiles), given on stdin. Function definitions only; expects nothing.

to_us() {  # wrk's "1.23ms" -> 1230
  awk -v t="$1" 'BEGIN {
    n = t + 0; u = t; sub(/^[0-9.]+/, "", u)
    f = (u == "us") ? 1 : (u == "ms") ? 1000 : (u == "s") ? 1e6 : (u == "m") ? 6e7 : -1
    printf "%.0f", n * f }'
}
wrk_requests() { awk '/requests in/ { print $1 }'; }  # the responses wrk counted
wrk_rate() { awk '/^Requests\/sec:/ { print $2 }'; }  # requests a second
wrk_latency_us() {  # PERCENT (50, 99): that percentile of the latency in microseconds
  to_us "$(awk -v p="$1%" '$1 == p { print $2 }')"
}
