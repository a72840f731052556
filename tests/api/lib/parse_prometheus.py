"""Reads Prometheus text exposition on stdin with the Prometheus project's own parser
(prometheus_client.parser, Debian's python3-prometheus-client) and prints the families as JSON.
A line the parser refuses exits non-zero with its message, so a malformed /metrics fails the test.
"""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def number(value):
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return value


def main():
    families = []
    for family in text_string_to_metric_families(sys.stdin.read()):
        families.append({
            "name": family.name,
            "type": family.type,
            "help": family.documentation,
            "samples": [{"name": s.name, "labels": s.labels, "value": number(s.value)}
                        for s in family.samples],
        })
    json.dump(families, sys.stdout)


if __name__ == "__main__":
    main()
