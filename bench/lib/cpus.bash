# shellcheck shell=bash
# Sourced by bench/cores and bench/memory-store: which CPUs a run pins to. Function definitions
# only. A cpuset (a container, a systemd slice) may leave out low CPU ids, so a run pins to the
# Nth CPU it may use, never to id N.

# allowed_cpus: the ids of the CPUs this process may run on, one a line, in order.
allowed_cpus() {
  awk '/^Cpus_allowed_list/ {
    n = split($2, ranges, ",")
    for (i = 1; i <= n; i++) {
      m = split(ranges[i], ends, "-")
      for (cpu = ends[1]; cpu <= (m == 2 ? ends[2] : ends[1]); cpu++) print cpu
    }
  }' /proc/self/status
}

# cpu_list FIRST LAST: the allowed CPUs at places FIRST to LAST (from 0), as taskset takes them.
cpu_list() { allowed_cpus | sed -n "$(($1 + 1)),$(($2 + 1))p" | paste -sd, -; }
