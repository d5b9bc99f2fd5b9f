#!/usr/bin/env python3
"""bench.quick: runs `drape-bench --quick` and checks that it works and that its output parses.

    check_quick.py DRAPE_BENCH OUTPUT_DIR

It checks structure only (exit status, JSON and CSV that parse, one record per case with the
documented keys, figures present for the cases that ran) and never a timing: a test machine's
figures say nothing about drape.
"""
import csv
import json
import os
import subprocess
import sys

REQUIRED = ["backend", "device", "size", "iterations", "substeps", "status", "ok", "constraints",
            "colors", "ms_per_step", "device_ms_per_step", "predict_ms", "collide_ms", "project_ms",
            "update_ms", "projections_per_s", "effective_gbs", "copy_fraction", "speedup",
            "residual_m", "device_bytes", "spread", "launches_per_step", "kernel", "cloths", "queue",
            "queued_ms_per_step", "queued_projections_per_s", "profiled_ms_per_step",
            "profiled_steps"]


def fail(message):
    print("bench.quick: " + message)
    sys.exit(1)


def main():
    if len(sys.argv) != 3:
        fail("usage: check_quick.py DRAPE_BENCH OUTPUT_DIR")
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    json_path, csv_path = os.path.join(out, "quick.json"), os.path.join(out, "quick.csv")
    for path in (json_path, csv_path):
        if os.path.exists(path):
            os.remove(path)
    run = subprocess.run([binary, "--quick", "--json", json_path, "--csv", csv_path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=110)
    print(run.stdout)
    if run.returncode != 0:
        fail("drape-bench --quick exited with %d" % run.returncode)
    with open(json_path) as f:
        doc = json.load(f)
    cases = doc.get("cases")
    if not isinstance(cases, list) or not cases:
        fail("no cases in the JSON")
    for case in cases:
        missing = [k for k in REQUIRED if k not in case]
        if missing:
            fail("a case lacks %s" % ", ".join(missing))
        if case["ok"]:
            for key in ("ms_per_step", "projections_per_s", "constraints", "colors",
                        "queued_ms_per_step", "queued_projections_per_s", "profiled_ms_per_step",
                        "profiled_steps"):
                if not isinstance(case[key], (int, float)) or case[key] <= 0:
                    fail("%s %d: %s is %r" % (case["backend"], case["size"], key, case[key]))
            if case["speedup"] is None:
                fail("%s %d: no speed-up although the CPU reference ran" %
                     (case["backend"], case["size"]))
    if not any(c["backend"] == "cpu" and c["ok"] for c in cases):
        fail("the CPU reference did not run")
    if not isinstance(doc.get("machine"), dict) or not isinstance(doc.get("copy_probes"), list):
        fail("no machine or copy_probes in the JSON")
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) != len(cases):
        fail("%d CSV rows for %d JSON cases" % (len(rows), len(cases)))
    if any(k not in row for row in rows for k in ("ms_per_step", "speedup", "queued_ms_per_step")):
        fail("CSV columns missing")
    print("bench.quick: %d cases, JSON and CSV parse" % len(cases))


if __name__ == "__main__":
    main()
