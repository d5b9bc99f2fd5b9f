# Medians over the rounds of ms per step and M projections/s, and the median of the per-round
# after/before ratios, from run.sh's CSVs.
import csv, glob, statistics as st, sys
rows = {}
for f in glob.glob('*-t*-r*.csv'):
    which, t, r = f[:-4].split('-')
    for row in csv.DictReader(open(f)):
        key = (t, int(row['size']), int(row['substeps']))
        rows.setdefault(key, {}).setdefault(which, {})[r] = (float(row['ms_per_step']), float(row['projections_per_s']))
print('| PoCL threads | size | substeps | before ms (M proj/s) | after ms (M proj/s) | after / before, each round |')
print('|---|---|---|---|---|---|')
for key in sorted(rows):
    b, a = rows[key]['before'], rows[key]['after']
    rounds = sorted(b)
    ratios = [a[r][0] / b[r][0] for r in rounds]
    med = lambda d, i: st.median(v[i] for v in d.values())
    print(f'| {key[0][1:]} | {key[1]}² | {key[2]} | {med(b,0):.3f} ({med(b,1)/1e6:.0f}) | {med(a,0):.3f} ({med(a,1)/1e6:.0f}) | '
          + ' / '.join(f'{x:.3f}' for x in ratios) + ' |')
