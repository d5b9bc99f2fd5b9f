#!/usr/bin/env python3
"""bench.particles_json: `drape-bench-particles --json FILE` writes JSON that parses, with one
record per case that ran, whichever backends run.

    check_particles_json.py DRAPE_BENCH_PARTICLES OUTPUT_DIR

Runs two sizes on both backends, on the CPU reference alone (--no-opencl) and on OpenCL alone
(--no-cpu; skipped without an OpenCL device), and checks that each file parses, holds the
documented keys and the expected (particles, backend) records in order. It checks structure
only, never a timing.
"""
import json
import os
import subprocess
import sys

KEYS = ["particles", "backend", "ms_per_step", "cpu_ms_per_step", "grid_mparticles_per_s",
        "contacts_m_per_s", "contacts", "grid_mib", "substeps_per_step", "launches_per_step"]
SIZES = [300, 400]


def fail(message):
    print("bench.particles_json: " + message)
    sys.exit(1)


def run(bench, path, flags):
    """Runs the bench into path; returns its output, or None when it has no OpenCL device."""
    cmd = [bench, "--sizes", ",".join(map(str, SIZES)), "--settle", "1", "--steps", "1",
           "--json", path] + flags
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    print("$ " + " ".join(cmd) + "\n" + out)
    if "no OpenCL device" in out or "built without OpenCL" in out:
        return None
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {proc.returncode}")
    return out


def check(path, backends):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path} does not parse: {e}")
    cases = data.get("cases")
    expected = [(n, b) for n in SIZES for b in backends]
    got = [(c.get("particles"), c.get("backend")) for c in cases or []]
    if got != expected:
        fail(f"{path}: cases {got}, expected {expected}")
    for c in cases:
        missing = [k for k in KEYS if k not in c]
        if missing:
            fail(f"{path}: a case lacks {missing}")


def main():
    if len(sys.argv) != 3:
        fail("usage: check_particles_json.py DRAPE_BENCH_PARTICLES OUTPUT_DIR")
    bench, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    ran_opencl = False
    for name, flags, backends in (("cpu", ["--no-opencl"], ["cpu"]),
                                  ("opencl", ["--no-cpu"], ["opencl"]),
                                  ("both", [], ["cpu", "opencl"])):
        path = os.path.join(out_dir, name + ".json")
        if run(bench, path, flags) is None:
            continue
        check(path, backends)
        ran_opencl = ran_opencl or "opencl" in backends
    print("bench.particles_json: ok" + ("" if ran_opencl else " (no OpenCL device: CPU only)"))


if __name__ == "__main__":
    main()
