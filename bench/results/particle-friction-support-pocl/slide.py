import json,subprocess,sys
exe=sys.argv[1]
for sub,it in [(1,8),(4,8),(1,4),(1,1),(20,1)]:
    parts=[{"position":[0,-100,0],"radius":100,"pinned":True},{"position":[0,0.05,0],"velocity":[2,0,0],"radius":0.05,"mass":1}]
    sc={"version":1,"name":"slideR","solver":{"dt":1/60,"substeps":sub,"iterations":it,"particle_static_friction":0.5,"particle_kinetic_friction":0.5},"particles":parts}
    json.dump(sc,open('slideR.json','w'))
    out=[]
    for steps in (6,12,60):
        r=subprocess.run([exe,'run','slideR.json','--steps',str(steps),'--dump','sb.csv'],capture_output=True,text=True)
        if r.returncode: print(r.stderr); break
        row=open('sb.csv').read().split('\n')[-2].split(',')
        out.append("t=%.2f x %.4f y %.4f vx %.4f"%(steps/60,float(row[1]),float(row[2]),float(row[4])))
    print(sub,it,' | '.join(out))
print("analytic: t=0.10 v 1.509, t=0.20 v 1.019, stops at x 0.408 (t 0.41)")
