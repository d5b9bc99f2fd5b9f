# How far scenes/cloth-layers.json comes to rest at one substep, on the CPU reference:
#   python3 settle.py DRAPE [solver.key=value ...]   (run from the repository's root or anywhere)
# DRAPE is a `drape` binary; the overrides go into the scene's "solver" (e.g. contact_passes=8).
# Prints: the particles above 0.1 m/s at step 1200 or 1201 whose velocity reverses between the two
# (cosine < -0.5) and the fastest; the mean kinetic energy of the per-second samples from 10 to
# 60 s and how many are above 4e-4 J (bursts); the closest pair that must not touch (different
# cloths, or one cloth's particles not neighbours in the rest pose), over its collision distance,
# after 300, 600, 1200 and 2400 steps.
import csv, json, math, os, subprocess, sys, tempfile
from collections import defaultdict

here = os.path.dirname(os.path.abspath(__file__))
drape = sys.argv[1]
scene = json.load(open(os.path.join(here, '..', '..', '..', 'scenes', 'cloth-layers.json')))
scene['solver']['substeps'] = 1
for a in sys.argv[2:]:
    k, v = a.split('=')
    scene['solver'][k] = float(v) if '.' in v else int(v)
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, 'scene.json')
json.dump(scene, open(path, 'w'))

def run(steps, dump=True):
    out = os.path.join(tmp, 'dump.csv')
    r = subprocess.run([drape, 'run', path, '--steps', str(steps)] + (['--dump', out] if dump else []),
                       check=True, capture_output=True, text=True)
    if not dump:
        return r.stdout
    return [[float(row[k]) for k in ('x', 'y', 'z', 'vx', 'vy', 'vz')] for row in csv.DictReader(open(out))]

speed = lambda p: math.sqrt(sum(c * c for c in p[3:]))
a, b = run(1200), run(1201)
fast = [(p, q) for p, q in zip(a, b) if max(speed(p), speed(q)) > 0.1]
rev = sum(1 for p, q in fast if sum(x * y for x, y in zip(p[3:], q[3:])) < -0.5 * speed(p) * speed(q))
print(f'step 1200 -> 1201: {len(fast)} particles above 0.1 m/s, {rev} reversing, fastest '
      f'{max([max(speed(p), speed(q)) for p, q in fast], default=0):.3f} m/s')

ke = [float(l.split()[13]) for l in run(3600, dump=False).splitlines()
      if l.startswith('t =') and float(l.split()[2]) > 10]
print(f'10..60 s: mean kinetic energy {sum(ke) / len(ke):.2e} J, {sum(1 for k in ke if k > 4e-4)} '
      f'of {len(ke)} samples above 4e-4 J, largest {max(ke):.2e} J')

n, D = 24, 1.0 / 23.0  # particles per side; spacing = collision distance (twice the radius)
res = []
for steps in (300, 600, 1200, 2400):
    X = [p[:3] for p in run(steps)]
    grid = defaultdict(list)
    cell = lambda p: tuple(int(math.floor(c / D)) for c in p)
    for i, p in enumerate(X):
        grid[cell(p)].append(i)
    best = math.inf
    for i, p in enumerate(X):
        c = cell(p)
        for d in [(x, y, z) for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1)]:
            for j in grid.get((c[0] + d[0], c[1] + d[1], c[2] + d[2]), ()):
                if j <= i:
                    continue
                if i // (n * n) == j // (n * n):
                    u, v = i % (n * n), j % (n * n)
                    if math.hypot(u % n - v % n, u // n - v // n) < 1.5:
                        continue  # neighbours in the rest pose: filtered
                best = min(best, math.dist(p, X[j]) / D)
    res.append(f'{steps}: {best:.3f}')
print('closest pair / collision distance after', ', '.join(res))
