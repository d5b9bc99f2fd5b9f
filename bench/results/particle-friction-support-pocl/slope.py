import json,subprocess,sys,math
exe=sys.argv[1]; DEGS=[int(a) for a in sys.argv[2:]] or [15,20,25,30,35]
R=100.0; r=0.05
for sub,it in [(1,8),(4,8)]:
  out=[]
  for deg in DEGS:
    th=math.radians(deg)
    parts=[{"position":[0,-R,0],"radius":R,"pinned":True},{"position":[(R+r)*math.sin(th),(R+r)*math.cos(th)-R,0],"radius":r,"mass":1}]
    sc={"version":1,"name":"slope","solver":{"dt":1/60,"substeps":sub,"iterations":it,"particle_static_friction":0.5,"particle_kinetic_friction":0.4},"particles":parts}
    json.dump(sc,open('slope.json','w'))
    subprocess.run([exe,'run','slope.json','--steps','60','--dump','sl.csv'],capture_output=True)
    row=list(map(float,open('sl.csv').read().split('\n')[-2].split(',')))
    moved=math.hypot(row[1]-parts[1]['position'][0],row[2]-parts[1]['position'][1])
    a=9.81*(math.sin(th)-0.4*math.cos(th)) if math.tan(th)>0.5 else 0
    out.append("%d deg: moved %.3f m (analytic %.3f)"%(deg,moved,0.5*a))
  print(sub,it,' | '.join(out))
