#!/usr/bin/env python3
"""bench.results_json: every JSON file committed under bench/results parses, so that the figures
the docs cite can be read back by a program.

    check_results_json.py RESULTS_DIR
"""
import json
import pathlib
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check_results_json.py RESULTS_DIR")
    files = sorted(pathlib.Path(sys.argv[1]).rglob("*.json"))
    bad = []
    for path in files:
        try:
            with open(path) as f:
                json.load(f)
        except (OSError, ValueError) as e:
            bad.append(f"{path}: {e}")
    for line in bad:
        print("bench.results_json: does not parse: " + line)
    if not files:
        sys.exit(f"bench.results_json: no JSON files under {sys.argv[1]}")
    print(f"bench.results_json: {len(files) - len(bad)} of {len(files)} files parse")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
