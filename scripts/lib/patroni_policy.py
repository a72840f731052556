"""Checks that a Patroni node configuration made from deploy/patroni/debian/ has the recipe's
policy (deploy/patroni/patroni.yml.in): the cluster-wide settings but for the three timings, the
access rules, the roles' names, PostgreSQL's parameters and the tags; and holds no password.
Usage: patroni_policy.py NODE_YML RECIPE_YML_IN NETWORK. Exits 1 with each difference."""

import re
import sys

import yaml

TIMINGS = ("ttl", "loop_wait", "retry_timeout")  # the recipe's demo values differ on purpose
NAMES = {"REPLICATION_USER": "replicator", "REWIND_USER": "rewinder", "REST_USER": "operator"}


def passwords(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "password":
                yield path + key
            yield from passwords(item, path + key + ".")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from passwords(item, "%s%d." % (path, index))


def main(node_path, recipe_path, network):
    with open(node_path, encoding="utf-8") as node_file:
        node = yaml.safe_load(node_file)
    with open(recipe_path, encoding="utf-8") as recipe_file:
        names = dict(NAMES, CLIENT_NETWORK=network)
        recipe = yaml.safe_load(re.sub(r"@([A-Z_]+)@", lambda m: names.get(m.group(1), "0"),
                                       recipe_file.read()))
    differences = []

    def same(what, mine, theirs):
        if mine != theirs:
            differences.append("%s: %r, the recipe has %r" % (what, mine, theirs))

    mine_dcs = {k: v for k, v in node["bootstrap"]["dcs"].items() if k not in TIMINGS}
    their_dcs = {k: v for k, v in recipe["bootstrap"]["dcs"].items() if k not in TIMINGS}
    their_dcs["synchronous_mode_strict"] = True  # @STRICT@: the demo's switch, true by default
    same("bootstrap.dcs", mine_dcs, their_dcs)
    for key in ("pg_hba", "initdb"):
        same("bootstrap." + key, node["bootstrap"].get(key), recipe["bootstrap"].get(key))
    same("tags", node.get("tags"), recipe.get("tags"))
    same("restapi.authentication.username", node["restapi"]["authentication"].get("username"),
         recipe["restapi"]["authentication"]["username"])
    same("postgresql.authentication",
         {role: entry.get("username") for role, entry in node["postgresql"]["authentication"].items()},
         {role: entry["username"] for role, entry in recipe["postgresql"]["authentication"].items()})
    for key, value in recipe["postgresql"]["parameters"].items():
        if key != "unix_socket_directories":  # Debian's socket directory, on purpose
            same("postgresql.parameters." + key, node["postgresql"]["parameters"].get(key), value)
    differences += ["%s: a password in the file (it belongs in env.conf)" % where
                    for where in passwords(node)]
    for difference in differences:
        print("patroni_policy: " + difference, file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
