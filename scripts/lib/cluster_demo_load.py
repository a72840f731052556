"""The load and the check of scripts/cluster-demo (standard library only: Debian's python3).

  cluster_demo_load.py KEY EVENT_AT_FILE URL...

Creates pets from a few threads, each with a unique Idempotency-Key and named after it, retrying a
create on 503 or a lost connection with the SAME key (through the next instance) until it gets a
201 or its deadline passes; other threads read. The script that runs it makes the event (kills
the primary, say) and writes its time (time.time()) into EVENT_AT_FILE. The load stops once the
event is 5 s behind it and no create has failed for 5 s (or after 75 s), then walks every pet and
prints what was acknowledged, lost and stored twice. Exit 1 when a pet was lost or stored twice,
or a read was stale. CLUSTER_DEMO_RUN names the run in its keys, so that runs one after another
never share a key.
"""
import http.client
import json
import os
import random
import sys
import threading
import time
import urllib.parse

CREATORS, READERS = 4, 2
HARD_END, CREATE_DEADLINE, QUIET = 75.0, 60.0, 5.0


class Load:
    def __init__(self, key, killed_at_file, urls):
        self.auth = {"Authorization": "Bearer " + key}
        self.killed_at_file, self.urls = killed_at_file, urls
        self.start = time.time()
        self.lock = threading.Lock()
        self.acked = {}  # Idempotency-Key -> id of the 201
        self.create_failures = []  # (start, end) of each failed create attempt
        self.outages = []  # (first failed attempt's start, the 201's start) of each create retried
        self.successes = []  # (start, end) of each 201
        self.reads = {"ok": 0, "failed": 0, "stale": 0}
        self.read_failures = []
        self.stop = threading.Event()

    def request(self, index, method, path, body=None, headers=None):
        parts = urllib.parse.urlsplit(self.urls[index % len(self.urls)])
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        try:
            connection.request(method, path, body, {**self.auth, **(headers or {})})
            response = connection.getresponse()
            return response.status, response.read(), response.getheader("Link")
        finally:
            connection.close()

    def killed_at(self):
        try:
            with open(self.killed_at_file) as f:
                return float(f.read())
        except (OSError, ValueError):
            return None

    def create(self, thread, serial):
        key = "demo-%s-%d-%d" % (os.environ.get("CLUSTER_DEMO_RUN", "run"), thread, serial)
        body = json.dumps({"name": key, "categoryId": thread}).encode()
        headers = {"Content-Type": "application/json", "Idempotency-Key": key}
        first_failure, deadline, attempt = None, time.time() + CREATE_DEADLINE, 0
        while time.time() < deadline:
            began = time.time()
            try:
                status, answer, _ = self.request(thread + attempt, "POST", "/v1/pets", body, headers)
            except OSError:
                status = None
            ended = time.time()
            if status == 201:
                with self.lock:
                    self.acked[key] = json.loads(answer)["id"]
                    self.successes.append((began, ended))
                    if first_failure is not None:
                        self.outages.append((first_failure, began))
                return
            if status not in (None, 503):
                raise SystemExit("create %s answered %s: %r" % (key, status, answer))
            with self.lock:
                self.create_failures.append((began, ended))
            first_failure = began if first_failure is None else first_failure
            attempt += 1
            time.sleep(0.05)

    def creator(self, thread):
        serial = 0
        while not self.stop.is_set():
            self.create(thread, serial)
            serial += 1

    def reader(self, thread):
        while not self.stop.is_set():
            with self.lock:
                known = random.choice(list(self.acked.values())) if self.acked else None
            path = "/v1/pets?limit=20" if known is None or random.random() < 0.5 else "/v1/pets/%d" % known
            began = time.time()
            try:
                status = self.request(thread, "GET", path)[0]
            except OSError:
                status = None
            with self.lock:
                if status == 200:
                    self.reads["ok"] += 1
                elif status == 404:
                    self.reads["stale"] += 1  # a pet acknowledged before the read began
                else:
                    self.reads["failed"] += 1
                    self.read_failures.append((began, time.time()))
                    time.sleep(0.05)

    def settled(self):
        now, killed = time.time(), self.killed_at()
        if now - self.start > HARD_END:
            return True
        if killed is None or now - killed < QUIET:
            return False
        with self.lock:
            last_failure = max((end for _, end in self.create_failures), default=0.0)
        return now - last_failure >= QUIET

    def run(self):
        threads = [threading.Thread(target=self.creator, args=(i,)) for i in range(CREATORS)]
        threads += [threading.Thread(target=self.reader, args=(i,)) for i in range(READERS)]
        for thread in threads:
            thread.start()
        while not self.settled():
            time.sleep(0.1)
        self.stop.set()
        for thread in threads:
            thread.join()

    def walk(self):
        pets, after = [], 0
        while True:
            status, answer, link = self.request(0, "GET", "/v1/pets?limit=100&after=%d" % after)
            if status != 200:
                raise SystemExit("walk: GET after=%d answered %s" % (after, status))
            page = json.loads(answer)
            pets += page
            if not link or not page:
                return pets
            after = page[-1]["id"]


def covered_seconds(intervals):
    total, reach = 0.0, None
    for start, end in sorted(intervals):
        if reach is None or start > reach:
            total, reach = total + (end - start), end
        elif end > reach:
            total, reach = total + (end - reach), end
    return total


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    load = Load(argv[0], argv[1], argv[2:])
    load.run()
    pets = load.walk()
    ids_by_name = {}
    for pet in pets:
        ids_by_name.setdefault(pet["name"], []).append(pet["id"])
    stored = {pet["id"] for pet in pets}
    lost = [key for key, pet_id in load.acked.items() if pet_id not in stored]
    twice = [name for name, ids in ids_by_name.items() if len(ids) > 1]
    killed = load.killed_at()
    failing = load.create_failures + load.outages
    print("acknowledged creates: %d (%d pets stored)" % (len(load.acked), len(pets)))
    print("lost: %d" % len(lost))
    print("stored twice: %d" % len(twice))
    print("creates failing (503 or no answer), in all: %.1f s" % covered_seconds(failing))
    ends = sorted(end for _, end in load.successes)
    gap = max(zip(ends, ends[1:]), key=lambda pair: pair[1] - pair[0], default=None)
    if gap is not None:
        print("longest time without a 201: %.1f s" % (gap[1] - gap[0]))
    if killed is not None:
        # The first create attempt to fail once the kill happened, then the first 201 to a create
        # attempt made after that failure.
        first = min((end for _, end in load.create_failures if end >= killed), default=None)
        back = min((end for start, end in load.successes if first and start >= first), default=None)
        if first is None:
            print("first 201 again: no create failed after the event")
        elif back is not None:
            print("first 201 again: %.1f s after the event" % (back - killed))
    reads = load.reads
    print("reads: %d answered 200, %d failed (503 or no answer, %.1f s in all), %d stale (404)"
          % (reads["ok"], reads["failed"], covered_seconds(load.read_failures), reads["stale"]))
    for key in lost[:5] + twice[:5]:
        print("  " + key, file=sys.stderr)
    return 1 if lost or twice or reads["stale"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
