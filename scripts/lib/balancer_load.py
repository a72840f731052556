#!/usr/bin/env python3
"""The client and the tally of scripts/balancer-check.

  balancer_load.py load URL KEY SECONDS OUT_JSON
      A few keep-alive connections send lists and creates (three to one) for SECONDS, from source
      address 127.0.0.2 so that the instances' logs show whether X-Forwarded-For named the
      client. It never retries: a request that gets no 2xx, or no answer, is one failure and the
      next request is a new one. Writes the counts to OUT_JSON.
  balancer_load.py report LOAD_JSON T_STOP DOWN_AFTER EXIT_AFTER STOPPED_LOG KEPT_LOG ERROR_JSON
      Prints the figures: the client's counts, each instance's share of the /v1 requests its log
      shows before and after T_STOP (Unix seconds, the SIGTERM), the client address the logs name,
      and haproxy's own 503 (ERROR_JSON, from the error mode). Exits 1 when a request failed, the
      logs name another client, or the 503 is not the contract's Error body.
  balancer_load.py error URL
      One GET; prints status, Content-Type, Retry-After and the body as one JSON object.
"""

import collections
import datetime
import http.client
import json
import sys
import threading
import time
import urllib.parse

CONNECTIONS = 4
CLIENT_ADDRESS = "127.0.0.2"


def load(url, key, seconds, out_path):
    target = urllib.parse.urlsplit(url)
    deadline = time.monotonic() + seconds
    lock = threading.Lock()
    sent = collections.Counter()
    outcomes = collections.Counter()
    failures = []
    started = time.time()

    def run(worker):
        def connect():
            return http.client.HTTPConnection(target.hostname, target.port, timeout=15,
                                              source_address=(CLIENT_ADDRESS, 0))

        connection = connect()
        count = 0
        while time.monotonic() < deadline:
            create = count % 4 == 0
            count += 1
            headers = {"Authorization": "Bearer " + key}
            try:
                if create:
                    body = json.dumps({"name": f"pet-{worker}-{count}", "categoryId": 7})
                    headers["Content-Type"] = "application/json"
                    connection.request("POST", "/v1/pets", body, headers)
                else:
                    connection.request("GET", "/v1/pets?limit=10", headers=headers)
                response = connection.getresponse()
                response.read()
                outcome = str(response.status)
            except (OSError, http.client.HTTPException) as error:
                outcome = type(error).__name__
                connection.close()
                connection = connect()
            with lock:
                sent["create" if create else "list"] += 1
                outcomes[outcome] += 1
                if not outcome.startswith("2"):
                    failures.append({"at": time.time(), "outcome": outcome})
        connection.close()

    threads = [threading.Thread(target=run, args=(worker,)) for worker in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = sum(n for outcome, n in outcomes.items() if not outcome.startswith("2"))
    summary = {"started": started, "seconds": round(time.time() - started, 3),
               "connections": CONNECTIONS, "sent": sum(sent.values()), "by_kind": sent,
               "failed": failed, "outcomes": outcomes,
               "failures": failures[:3] + failures[3:][-1:]}  # the first three and the last
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump(summary, out)


def shares(stop_at, path):
    """The instance's /v1 request log lines before and after stop_at, and the clients named."""
    counts = {"before": 0, "after": 0, "last_after_stop": None, "clients": collections.Counter()}
    with open(path, encoding="utf-8") as log:
        for line in log:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if entry.get("event") != "request" or not entry.get("route", "").startswith("/v1"):
                continue
            at = datetime.datetime.fromisoformat(entry["time"].replace("Z", "+00:00"))
            offset = at.timestamp() - stop_at
            counts["after" if offset >= 0 else "before"] += 1
            if offset >= 0:
                counts["last_after_stop"] = round(offset, 3)
            counts["clients"][entry.get("client")] += 1
    return counts


def report(load_path, stop_at, down_after, exit_after, stopped_log, kept_log, error_json):
    """Prints what was measured; returns the problems found."""
    with open(load_path, encoding="utf-8") as file:
        measured = json.load(file)
    stopped, kept = shares(stop_at, stopped_log), shares(stop_at, kept_log)
    answer = json.loads(error_json)
    rate = measured["sent"] / measured["seconds"]
    print(f"requests sent: {measured['sent']} in {measured['seconds']:.1f} s ({rate:.0f}/s, "
          f"{measured['connections']} keep-alive connections, "
          f"{measured['by_kind']['create']} creates, {measured['by_kind']['list']} lists)")
    print(f"failed: {measured['failed']}  outcomes: {dict(measured['outcomes'])}")
    for failure in measured["failures"]:
        print(f"  failure {failure['at'] - stop_at:+.3f} s from SIGTERM: {failure['outcome']}")
    last = stopped["last_after_stop"]
    print(f"stopped instance: marked down by haproxy {down_after} s after SIGTERM, exited "
          f"{exit_after} s after it; its last request logged at "
          + (f"+{last} s" if last is not None else "none after SIGTERM"))
    for moment in ("before", "after"):
        total = stopped[moment] + kept[moment]
        share = 100 * stopped[moment] / total if total else 0
        print(f"{moment} SIGTERM: stopped instance {stopped[moment]} ({share:.0f}%), "
              f"other {kept[moment]} ({100 - share:.0f}%)")
    clients = stopped["clients"] + kept["clients"]
    print(f"client address in the instances' logs: {dict(clients)}")
    print(f"haproxy's own 503: {answer}")
    problems = []
    if measured["failed"]:
        problems.append(f"{measured['failed']} requests failed")
    if set(clients) != {CLIENT_ADDRESS}:
        problems.append(f"X-Forwarded-For did not name the client {CLIENT_ADDRESS}")
    body = json.loads(answer["body"]) if answer["body"].startswith("{") else {}
    if (answer["status"] != 503 or answer["content_type"] != "application/json"
            or not answer["retry_after"] or body.get("code") != "unavailable"
            or body.get("status") != 503 or not body.get("message")):
        problems.append("haproxy's 503 is not the contract's Error body with Retry-After")
    return problems


def error(url):
    target = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
    connection.request("GET", target.path or "/")
    response = connection.getresponse()
    print(json.dumps({"status": response.status,
                      "content_type": response.getheader("Content-Type"),
                      "retry_after": response.getheader("Retry-After"),
                      "body": response.read().decode("utf-8", "replace")}))


if __name__ == "__main__":
    mode, arguments = sys.argv[1], sys.argv[2:]
    if mode == "load":
        load(arguments[0], arguments[1], float(arguments[2]), arguments[3])
    elif mode == "report":
        found = report(arguments[0], float(arguments[1]), *arguments[2:])
        for problem in found:
            print("FAILED: " + problem)
        sys.exit(1 if found else 0)
    elif mode == "error":
        error(arguments[0])
    else:
        sys.exit(__doc__)
