#!/usr/bin/env python3
"""Plots particle-contact benchmark results (drape-bench-particles --json, or drape-bench --scene
balls --json): ms per step against the number of balls, one line per machine and backend, and the
OpenCL backend's speed-up over the one-thread CPU reference of the same machine (NAME), at the
sizes both were measured.

    python3 bench/plot_particles.py plot.png NAME=results.json[:BACKEND] [...]

NAME labels a machine in the legend ("EPYC, PoCL" or "H200"); :cpu or :opencl takes that
backend's cases alone from the file, so that one machine's lines may come from several files (its
CPU reference from one run, its OpenCL cases from another). Every file must have the same
substeps and iterations. Needs matplotlib (bench/pyplot_or_reexec.py).
"""
import json
import sys

from pyplot_or_reexec import pyplot  # noqa: E402

plt = pyplot("plot_particles.py")
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

BACKENDS = {"cpu": "CPU reference (1 thread)", "opencl": "OpenCL"}


def load(arg):
    name, sep, path = arg.partition("=")
    backend = None
    if path.endswith((":cpu", ":opencl")):
        path, _, backend = path.rpartition(":")
    if not sep or not name or not path:
        sys.exit(f"plot_particles.py: expected NAME=FILE[:BACKEND], got '{arg}'")
    try:
        with open(path) as f:
            doc = json.load(f)
        cases = [c for c in doc["cases"] if backend in (None, c["backend"])]
        return name, doc["substeps"], doc["iterations"], cases
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"plot_particles.py: {path}: not a drape-bench-particles JSON file ({e!r})")


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    png, runs = sys.argv[1], [load(a) for a in sys.argv[2:]]
    settings = {(ss, it) for _, ss, it, _ in runs}
    if len(settings) != 1:
        sys.exit(f"plot_particles.py: the files mix substeps x iterations: {sorted(settings)}")
    (ss, it), = settings
    fig, (ax_ms, ax_up) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = {}  # name -> backend -> {balls: ms per step}
    for name, _, _, cases in runs:
        for c in cases:
            series.setdefault(name, {}).setdefault(c["backend"], {})[c["particles"]] = \
                c["ms_per_step"]
    sizes = set()
    for name, by in series.items():
        for backend, points in sorted(by.items()):
            n = sorted(points)
            sizes.update(n)
            ax_ms.plot(n, [points[k] for k in n], marker="o",
                       linestyle="-" if backend == "opencl" else "--",
                       label=f"{name}: {BACKENDS.get(backend, backend)}")
        both = sorted(set(by.get("cpu", {})) & set(by.get("opencl", {})))
        if both:
            ax_up.plot(both, [by["cpu"][k] / by["opencl"][k] for k in both], marker="o",
                       label=name)
    if not sizes:
        sys.exit("plot_particles.py: no cases in the files")
    ax_ms.set_yscale("log")
    ax_up.axhline(1.0, color="grey", linewidth=0.8)
    ax_up.set_yscale("log")
    for ax in (ax_ms, ax_up):
        ax.set_xscale("log")
        ax.set_xlabel("balls")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax.grid(True, which="both", alpha=0.3)
    ax_ms.set_ylabel("ms per step (wall)")
    ax_ms.set_title("Step time")
    ax_up.set_ylabel("CPU reference ms / OpenCL ms")
    ax_up.set_title("OpenCL against the CPU reference of the same machine")
    ax_ms.legend(fontsize=8)
    ax_up.legend(fontsize=8)
    fig.suptitle("drape-bench-particles: balls poured into a box, %d substep%s x %d iterations"
                 % (ss, "" if ss == 1 else "s", it), fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"plot_particles.py: wrote {png} ({len(runs)} files)")


if __name__ == "__main__":
    main()
