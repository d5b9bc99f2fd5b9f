#!/usr/bin/env python3
"""Plots drape-bench results: ms per step and constraint projections per second against cloth size,
one line per backend (the CPU reference and each OpenCL device), for one iterations/substeps pair.

    python3 bench/plot.py results.json plot.png [--iterations 5] [--substeps 1]

Reads the JSON that `drape-bench --json` writes (the CSV works too). Without --iterations and
--substeps it takes 5 iterations and 1 substep when the run has them, else the first pair it finds.
Uses matplotlib's Agg backend, so it needs no display (Debian: python3-matplotlib, installed by
scripts/setup.sh). Run by a python3 without matplotlib (a pyenv or a virtual environment first on
PATH), it runs itself again with Debian's /usr/bin/python3, or says what to install.
"""
import argparse
import csv
import json
import sys

from pyplot_or_reexec import pyplot  # noqa: E402

plt = pyplot("plot.py")
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402


def load(path):
    """The cases of a JSON or CSV result file as dicts with numbers where numbers belong."""
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
        cases = []
        for r in rows:
            case = dict(r)
            for key in ("size", "iterations", "substeps"):
                case[key] = int(r[key])
            for key in ("ms_per_step", "projections_per_s"):
                case[key] = float(r[key]) if r[key] else None
            case["ok"] = r["status"] == "ok"
            case["device_selector"] = r["device_selector"] or None
            cases.append(case)
        return cases, None
    with open(path) as f:
        doc = json.load(f)
    return doc["cases"], doc.get("machine")


def label(case, machine):
    if case["backend"] == "cpu":
        return "CPU reference (1 thread)"
    name = case.get("device", "")
    if machine:
        for d in machine.get("opencl_devices", []):
            if str(d["index"]) == str(case.get("device_selector")):
                name = "%s (%s)" % (d["name"], d["platform"])
    return "OpenCL: " + name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results.json (or .csv) from drape-bench")
    ap.add_argument("png", help="the PNG to write")
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--substeps", type=int)
    args = ap.parse_args()

    cases, machine = load(args.results)
    cases = [c for c in cases if c["ok"] and c["ms_per_step"]]
    if not cases:
        sys.exit("plot.py: no case ran in %s" % args.results)
    pairs = sorted({(c["iterations"], c["substeps"]) for c in cases})
    it, ss = (5, 1) if (5, 1) in pairs else pairs[0]
    it = args.iterations if args.iterations is not None else it
    ss = args.substeps if args.substeps is not None else ss
    chosen = [c for c in cases if c["iterations"] == it and c["substeps"] == ss]
    if not chosen:
        sys.exit("plot.py: no case with %d iterations and %d substeps" % (it, ss))

    lines = {}
    for c in chosen:
        lines.setdefault(label(c, machine), []).append(c)
    fig, (ax_ms, ax_proj) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, series in sorted(lines.items()):
        series.sort(key=lambda c: c["size"])
        n = [c["size"] for c in series]
        ax_ms.plot(n, [c["ms_per_step"] for c in series], marker="o", label=name)
        ax_proj.plot(n, [c["projections_per_s"] / 1e6 for c in series], marker="o", label=name)
    ax_ms.set_yscale("log")
    ax_proj.set_ylim(bottom=0)
    for ax in (ax_ms, ax_proj):
        ax.set_xscale("log", base=2)
        sizes = sorted({c["size"] for c in chosen})
        ax.set_xticks(sizes)
        ax.set_xticklabels(["%d²" % s for s in sizes])
        ax.set_xlabel("cloth size (particles)")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, which="both", alpha=0.3)
    ax_ms.set_ylabel("ms per step (wall, median)")
    ax_ms.set_title("Step time")
    ax_proj.set_ylabel("million constraint projections / s")
    ax_proj.set_title("Projection throughput")
    handles, names = ax_ms.get_legend_handles_labels()
    fig.legend(handles, names, fontsize=8, loc="lower center", ncol=min(len(names), 3))
    title = "drape-bench: cloth on a sphere, %d iterations, %d substep%s" % (it, ss, "" if ss == 1 else "s")
    if machine:
        title += " — %s, %d cores" % (machine.get("cpu", "?"), machine.get("cores", 0))
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    fig.savefig(args.png, dpi=120)
    print("plot.py: wrote %s (%d cases, %d iterations, %d substeps)" % (args.png, len(chosen), it, ss))


if __name__ == "__main__":
    main()
