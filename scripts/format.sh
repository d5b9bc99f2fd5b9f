#!/usr/bin/env bash
# Formats drape's C and OpenCL sources with clang-format (the style is .clang-format's), or with
# --check, only reports the files that differ from it and fails if there are any; the test suite
# runs the check (format.check), so code lands formatted.
#
#   bash scripts/format.sh            format every source file in place
#   bash scripts/format.sh --check    list what is not formatted; exit 1 if anything is
#   bash scripts/format.sh FILE...    format these files only (--check FILE... checks them)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,8p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0
fi
if [[ "${1:-}" == "--check" ]]; then check=1; shift; fi
if ! command -v clang-format >/dev/null; then
  echo "format.sh: clang-format is not installed (bash scripts/setup.sh installs it)" >&2
  exit 2
fi
files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
  # Every C and OpenCL source of the project: its folders, never a build tree.
  mapfile -t files < <(cd "$root" && find bench cli cmake cmdline coloring fuzz host include kernels \
                         scene tests viz -type f \( -name '*.c' -o -name '*.h' -o -name '*.cl' \) | sort)
fi
cd "$root"
if [[ $check -eq 0 ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format over every file (one process per file cost over 30 s on a loaded machine); its
# "FILE:LINE:COL: error: code should be clang-formatted" lines name the files that differ.
status=0
report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1 >/dev/null) || status=$?
mapfile -t bad < <(printf '%s\n' "$report" |
                   sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' |
                   sort -u)
if [[ $status -ne 0 && ${#bad[@]} -eq 0 ]]; then # failed for another reason: say what it said
  echo "format.sh: clang-format failed (status $status):" >&2
  printf '%s\n' "$report" >&2
  exit 1
fi
if [[ ${#bad[@]} -gt 0 ]]; then
  echo "format.sh: ${#bad[@]} file(s) differ from .clang-format's style (bash scripts/format.sh fixes them):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "format.sh: ${#files[@]} files formatted as .clang-format says"
