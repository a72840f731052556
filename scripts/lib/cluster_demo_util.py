"""Small helpers for scripts/cluster-demo, standard library only (Debian's python3):
  ports N                 N free TCP ports on 127.0.0.1, one a line
  wait URL STATUS SECS    waits until GET URL answers STATUS (exit 1 when SECS pass first)
  replica-share [--since FILE] URL...
                          the share of reads replicas served, from each instance's /metrics
                          (since the counts that replica-counts wrote into FILE)
  replica-counts URL...   those counts now, as JSON, for replica-share --since
  post URL [USER:PASS]    prints the status of an empty POST to URL (Basic auth with USER:PASS)
  post-json URL USER:PASS JSON
                          POSTs JSON with Basic auth; prints the status and the answer
"""
import base64
import json
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


def post(url, credentials=None, body=b""):
    request = urllib.request.Request(url, data=body, method="POST")
    if credentials:
        token = base64.b64encode(credentials.encode()).decode()
        request.add_header("Authorization", "Basic " + token)
    if body:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")
    except (OSError, ValueError) as error:
        return None, str(error)


def wait(url, status, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if status_of(url) == status:
            return 0
        time.sleep(0.2)
    return 1


READS = re.compile(r'^petstore_storage_reads_total\{served_by="(\w+)",reason="(\w*)"\}\s+(\S+)')


def read_counts(urls):
    """Sums petstore_storage_reads_total over the instances: the reads a replica served, and
    the primary's reads by why a replica did not serve them. None when no instance reads
    replicas (the counter is only exposed with --database-read-url)."""
    replica, primary = 0, {}
    seen = False
    for url in urls:
        with urllib.request.urlopen(url.rstrip("/") + "/metrics", timeout=5) as response:
            text = response.read().decode()
        for line in text.splitlines():
            match = READS.match(line)
            if not match:
                continue
            seen = True
            served_by, reason, value = match.group(1), match.group(2), int(float(match.group(3)))
            if served_by == "replica":
                replica += value
            else:
                primary[reason] = primary.get(reason, 0) + value
    return (replica, primary) if seen else None


def replica_share(urls, since=None):
    counts = read_counts(urls)
    if counts is None:
        print("n/a (no instance reads from replicas)")
        return
    replica, primary = counts
    if since is not None:
        with open(since) as f:
            before = json.load(f)
        replica -= before["replica"]
        primary = {reason: count - before["primary"].get(reason, 0)
                   for reason, count in primary.items()}
    total = replica + sum(primary.values())
    if total == 0:
        print("n/a (no reads counted in /metrics)")
        return
    why = ", ".join("%s %d" % item for item in sorted(primary.items()) if item[1])
    print("%.0f%% (%d of %d reads)%s" % (100 * replica / total, replica, total,
                                        "; the primary's, by reason: " + why if why else ""))


def main(argv):
    if argv[:1] == ["ports"] and len(argv) == 2:
        ports(int(argv[1]))
        return 0
    if argv[:1] == ["wait"] and len(argv) == 4:
        return wait(argv[1], int(argv[2]), float(argv[3]))
    if argv[:1] == ["post"] and len(argv) in (2, 3):
        print(post(argv[1], argv[2] if len(argv) == 3 else None)[0])
        return 0
    if argv[:1] == ["post-json"] and len(argv) == 4:
        status, answer = post(argv[1], argv[2], argv[3].encode())
        print(status, answer.strip())
        return 0
    if argv[:3] and argv[0] == "replica-share" and argv[1:2] == ["--since"] and len(argv) >= 4:
        replica_share(argv[3:], argv[2])
        return 0
    if argv[:1] == ["replica-share"] and len(argv) >= 2:
        replica_share(argv[1:])
        return 0
    if argv[:1] == ["replica-counts"] and len(argv) >= 2:
        counts = read_counts(argv[1:]) or (0, {})
        print(json.dumps({"replica": counts[0], "primary": counts[1]}))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
