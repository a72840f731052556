#!/usr/bin/env python3
"""Cache keys for scripts/lint: which files clang-tidy must still read.

Usage: lint_cache_keys.py BUILD_DIR CACHE_DIR KEYS_OUT FILE...

A file's key hashes what clang-tidy's verdict depends on: its preprocessed text (every header it
includes, with the checkout's path replaced so that clones elsewhere share keys), its compile
flags, clang-tidy's version and the .clang-tidy files. Prints the files whose key is not in
CACHE_DIR (those need linting) and writes every key to KEYS_OUT, a line "KEY<tab>FILE" each, for
scripts/lint to record the files a run found clean. A file that cannot be preprocessed is printed,
so that clang-tidy reports it.
"""

import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def tool_fingerprint(root):
    digest = hashlib.sha256()
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, check=False)
    digest.update(version.stdout)
    for config in (".clang-tidy", "tests/.clang-tidy"):
        path = os.path.join(root, config)
        if os.path.exists(path):
            with open(path, "rb") as text:
                digest.update(text.read())
    return digest.hexdigest()


def preprocess_command(entry):
    """The entry's compile command, writing preprocessed text to stdout instead of an object."""
    words = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    result = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word == "-o":
            skip = True
            continue
        if word == "-c":
            continue
        result.append(word)
    return result + ["-E", "-o", "-"]


def key_of(entry, root, fingerprint):
    preprocessed = subprocess.run(preprocess_command(entry), cwd=entry["directory"],
                                  capture_output=True, check=False)
    if preprocessed.returncode != 0:
        return None
    digest = hashlib.sha256(fingerprint.encode())
    root_bytes = root.encode()
    digest.update(entry["command"].replace(root, "<root>").encode()
                  if "command" in entry else b"")
    digest.update(preprocessed.stdout.replace(root_bytes, b"<root>"))
    return digest.hexdigest()


def main():
    build, cache, keys_out, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    root = os.getcwd()
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as text:
        entries = {entry["file"]: entry for entry in json.load(text)}
    fingerprint = tool_fingerprint(root)

    def classify(file):
        entry = entries.get(os.path.join(root, file))
        key = key_of(entry, root, fingerprint) if entry else None
        return file, key

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(classify, files))
    with open(keys_out, "w", encoding="utf-8") as out:
        for file, key in results:
            if key is not None:
                out.write(key + "\t" + file + "\n")
            if key is None or not os.path.exists(os.path.join(cache, key)):
                print(file)


if __name__ == "__main__":
    main()
