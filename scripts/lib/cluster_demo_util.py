"""Small helpers for scripts/cluster-demo, standard library only (Debian's python3):
  ports N                 N free TCP ports on 127.0.0.1, one a line
  wait URL STATUS SECS    waits until GET URL answers STATUS (exit 1 when SECS pass first)
  replica-share URL...    the share of reads replicas served, from each instance's /metrics
"""
import re
import socket
import sys
import time
import urllib.error
import urllib.request


def ports(count):
    # All sockets stay open until every port is chosen, so the N ports differ.
    sockets = []
    for _ in range(count):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        sockets.append(s)
    for s in sockets:
        print(s.getsockname()[1])
        s.close()


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (OSError, ValueError):
        return None


def wait(url, status, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if status_of(url) == status:
            return 0
        time.sleep(0.2)
    return 1


SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)')


def read_counts(urls):
    """Sums read counters by where they went: 'replica' or 'primary'. A counter counts when its
    name mentions reads and either its name or one of its label values says replica or primary."""
    counts = {"replica": 0.0, "primary": 0.0}
    mentions_replica = False
    for url in urls:
        with urllib.request.urlopen(url.rstrip("/") + "/metrics", timeout=5) as response:
            text = response.read().decode()
        for line in text.splitlines():
            match = SAMPLE.match(line)
            if not match or line.startswith("#"):
                continue
            name, labels, value = match.group(1), match.group(2) or "", match.group(3)
            if "replica" in name or "replica" in labels:
                mentions_replica = True
            if "read" not in name or not name.endswith("_total"):
                continue
            values = re.findall(r'="([^"]*)"', labels)
            for where in ("replica", "primary"):
                if where in name.split("_") or where in values:
                    counts[where] += float(value)
                    break
    return counts if mentions_replica else None


def replica_share(urls):
    counts = read_counts(urls)
    if counts is None:
        print("n/a (no read replicas in this build)")
        return
    total = counts["replica"] + counts["primary"]
    if total == 0:
        print("n/a (no reads counted in /metrics)")
        return
    print("%.0f%% (%d of %d reads)" % (100 * counts["replica"] / total, counts["replica"], total))


def main(argv):
    if argv[:1] == ["ports"] and len(argv) == 2:
        ports(int(argv[1]))
        return 0
    if argv[:1] == ["wait"] and len(argv) == 4:
        return wait(argv[1], int(argv[2]), float(argv[3]))
    if argv[:1] == ["replica-share"] and len(argv) >= 2:
        replica_share(argv[1:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
