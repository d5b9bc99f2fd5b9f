#!/usr/bin/env bash
# Proves that the README's quick start works on a new machine. It builds a minimal Debian 12 root
# file system with mmdebstrap (variant minbase: the essential packages and apt, nothing of this
# machine's), from this machine's own apt sources, clones the repository's HEAD into it and runs
# the README's two quick-start commands, read from README.md itself, inside chroot, with /proc,
# /sys, /dev and a tmpfs /tmp mounted. They are unmounted on every exit, failure included, and the
# root is removed only once nothing is mounted under it. Exits non-zero when a command fails.
#
#   bash scripts/fresh-root.sh               check HEAD in a root under /tmp, removed afterwards
#   bash scripts/fresh-root.sh --keep        keep the root (its path is printed) for a look inside
#
# Needs root (or sudo) and the mirror; installs mmdebstrap where it is missing. Uncommitted changes
# are not part of the check: commit them first. About 4 minutes on 2 cores with a
# nearby mirror; .ci/run runs it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

keep=0
case "${1:-}" in
  "") ;;
  --keep) keep=1 ;;
  -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "fresh-root.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
  exec sudo --preserve-env=CI,DRAPE_WERROR bash "${BASH_SOURCE[0]}" "$@"
fi

log() { echo "fresh-root.sh: $*" >&2; }

# The two commands of the README's quick start: the indented lines of its "Quick start" section.
mapfile -t commands < <(awk '/^## /{in_qs = /^## Quick start/; next} in_qs && /^    [^ ]/{sub(/^    /, ""); print}' \
                        "$repo/README.md")
if [ ${#commands[@]} -ne 2 ]; then
  log "README.md's Quick start has ${#commands[@]} indented commands, expected 2"
  exit 1
fi

if ! command -v mmdebstrap >/dev/null; then
  log "installing mmdebstrap"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap
fi

# This machine's apt sources: every active sources.list file (deb822 or one-line style).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] && grep -qE '^[[:space:]]*(deb |Types:)' "$f" && sources+=("$f")
done
if [ ${#sources[@]} -eq 0 ]; then
  log "this machine has no apt sources in /etc/apt"
  exit 1
fi

work=$(mktemp -d /tmp/drape-fresh-root.XXXXXX)
root=$work/root
mounted=()

# Unmounts everything mounted under the root (newest first) and removes the work directory, but
# only when /proc/self/mounts shows nothing under it any more: never delete through a mount.
cleanup() {
  local status=$? i
  for ((i = ${#mounted[@]} - 1; i >= 0; --i)); do
    umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
  done
  if awk -v r="$root/" '{ if (index($2 "/", r) == 1) found = 1 } END { exit !found }' /proc/self/mounts; then
    log "something is still mounted under $root; not removing $work"
  elif [ $keep -eq 1 ]; then
    log "kept the root in $root"
  else
    rm -rf "$work"
  fi
  exit $status
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start=$(date +%s)
log "building a minimal Debian 12 root in $root from ${sources[*]}"
mmdebstrap --quiet --variant=minbase bookworm "$root" "${sources[@]}"
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
# No service starts inside the chroot while packages are installed.
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
log "root ready after $(($(date +%s) - start)) s"

rev=$(git -C "$repo" rev-parse HEAD)
git -c advice.detachedHead=false clone --quiet --no-hardlinks "$repo" "$root/root/drape"
if [ "$(git -C "$root/root/drape" rev-parse HEAD)" != "$rev" ]; then
  log "the clone is not at $rev"
  exit 1
fi
log "cloned ${rev:0:12}"
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  log "note: the working tree has uncommitted changes; the check runs the commit"
fi

mount_in() { # mount_in TARGET MOUNT-ARGS...
  local target=$root/$1
  shift
  mount "$@" "$target"
  mounted+=("$target")
}
mount_in proc -t proc proc
mount_in sys -t sysfs sysfs
mount_in dev --bind /dev
mount_in dev/pts --bind /dev/pts
mount_in tmp -t tmpfs tmpfs

# Each command's output goes to a log; a failure shows its end, a success its last lines. CI's
# CTEST_PARALLEL_LEVEL goes in with the rest of the environment CI sets: the suite in the root ran
# serially and took 1415 s of CI's 90 minutes, against 666 s at -j2 with its setup (empty: ctest's
# default).
for cmd in "${commands[@]}"; do
  log "running in the fresh root: $cmd"
  t0=$(date +%s)
  if ! chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
         PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
         CI="${CI:-}" DRAPE_WERROR="${DRAPE_WERROR:-}" CTEST_PARALLEL_LEVEL="${CTEST_PARALLEL_LEVEL:-}" \
         bash -c "cd /root/drape && $cmd" </dev/null >"$work/run.log" 2>&1; then
    tail -n 60 "$work/run.log" >&2
    log "FAILED after $(($(date +%s) - t0)) s on a fresh Debian 12 root: $cmd"
    exit 1
  fi
  { grep -E 'tests passed|screenshot of frame|frames in' "$work/run.log" || tail -n 3 "$work/run.log"; } |
    sed 's/^/    /' >&2
  log "passed in $(($(date +%s) - t0)) s: $cmd"
done
log "the README's quick start works on a fresh Debian 12 root ($(($(date +%s) - start)) s in all)"
