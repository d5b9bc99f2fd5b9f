#!/usr/bin/env python3
"""The worst overlap between equal balls in a state that `drape run --dump` wrote.

For the settled-pile figure of docs/particle-contacts.md: every pair of balls closer than one
diameter (2 r), found through a grid of one-diameter cells, and the largest overlap as a share of
the diameter, with the number of pairs overlapping by more than 1%.

    build/bin/drape run balls --dump balls.csv
    python3 bench/particle_overlap.py balls.csv 0.015
"""
import collections
import csv
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: particle_overlap.py STATE.csv RADIUS_M")
    try:
        with open(sys.argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
        diameter = 2.0 * float(sys.argv[2])
        points = [(float(q["x"]), float(q["y"]), float(q["z"])) for q in rows]
    except (OSError, KeyError, TypeError, ValueError) as e:
        sys.exit(f"particle_overlap.py: {sys.argv[1]}: {e!r} (a CSV of drape run --dump, and a "
                 "radius in m, are needed)")
    if not points or not diameter > 0.0:
        sys.exit("particle_overlap.py: no particles, or a radius that is not > 0")
    cells = collections.defaultdict(list)
    for i, p in enumerate(points):
        cells[tuple(math.floor(c / diameter) for c in p)].append(i)
    worst, over, overlaps = 0.0, 0, []
    for (cx, cy, cz), members in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for j in cells.get((cx + dx, cy + dy, cz + dz), ()):
                        for i in members:
                            if i < j:
                                overlap = (diameter - math.dist(points[i], points[j])) / diameter
                                worst = max(worst, overlap)
                                overlaps.append(overlap)
                                over += overlap > 0.01
    # the 99th percentile over the pairs in contact (closer than a diameter)
    touching = sorted(o for o in overlaps if o > 0.0)
    p99 = touching[min(len(touching) - 1, int(0.99 * len(touching)))] if touching else 0.0
    print(f"{len(points)} balls: worst overlap {100 * worst:.2f}% of the diameter, 99th percentile "
          f"{100 * p99:.2f}% ({len(touching)} pairs in contact), {over} pairs over 1%")


if __name__ == "__main__":
    main()
