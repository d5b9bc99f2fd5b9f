#!/bin/bash
# summary.sh FILE...: per binary, the median (and range) of OpenCL ms/step, CPU/CL, particle_gather
# ms/step and particle_gather / particle_count (the same run's load on both) over an ab.sh output
for f in "$@"; do
  echo "== $f ($(grep -c bench $f) runs)"
  awk '/bench cpu=/{split($3,a,"=");cl=a[2];r=$4;for(i=5;i<=NF;i++){split($i,b,"=");k[b[1]]=b[2]}
       print $1, cl, r, k["particle_gather"], k["particle_gather"]/k["particle_count"]}' "$f" |
  sort -k1,1 | awk '
    function med(arr,n,  i,j,t){for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(arr[j]<arr[i]){t=arr[i];arr[i]=arr[j];arr[j]=t}
      return n%2?arr[(n+1)/2]:(arr[n/2]+arr[n/2+1])/2}
    function flush(){if(name=="")return; printf "%-18s CL %6.1f [%5.1f-%5.1f]  CPU/CL %.2f [%.2f-%.2f]  gather %5.1f [%5.1f-%5.1f]  gather/count %.2f\n",
      name, med(c,n), c[1], c[n], med(r,n), r[1], r[n], med(g,n), g[1], g[n], med(q,n); n=0}
    $1!=name{flush(); name=$1}
    {n++; c[n]=$2; r[n]=$3; g[n]=$4; q[n]=$5}
    END{flush()}'
done
