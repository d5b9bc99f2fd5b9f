#!/usr/bin/env python3
"""Checks that the defaults docs/scene-format.md states equal the library's (scene.doc_defaults).

    check_doc_defaults.py DOC DOC_DEFAULTS_PROGRAM

The program (doc_defaults.c) prints drape_default_*_def() as JSON, per section of the document and
by the scene file's key names. This script reads every table row of those sections, "| `key` | type
| default | ...", parses the default (a number, 1/60, a vector, a JSON string, true/false, {"stiffness":
k} or "`stiffness` k"; "required" and prose are not values) and fails on every key whose library
default is missing from the document or differs from it.
"""
import json
import re
import subprocess
import sys

NOT_A_VALUE = object()


def parse_default(cell):
    """The value a table's default cell states, or NOT_A_VALUE."""
    cell = cell.strip()
    m = re.fullmatch(r"`stiffness` (\S+)", cell)
    if m:
        cell = m.group(1)
    if cell.startswith("`") and cell.endswith("`"):
        cell = cell[1:-1]
    m = re.fullmatch(r"(\d+)/(\d+)", cell)
    if m:
        return int(m.group(1)) / int(m.group(2))
    try:
        return json.loads(cell)
    except ValueError:
        pass
    try:  # several keys in one row: "32, 32" or "[0, 1, 0], [1, 1, 0]"
        return ("several", json.loads("[" + cell + "]"))
    except ValueError:
        return NOT_A_VALUE


def doc_defaults(path):
    """{section: {key: value}} from the tables of the document."""
    out, section, columns = {}, None, None
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        if line.startswith("## "):
            section, columns = line[3:].strip(), None
            continue
        if not line.startswith("|") or section is None:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if columns is None:
            columns = cells
            continue
        if "default" not in columns or set(cells[0]) <= set("-: "):
            continue
        keys = re.findall(r"`([^`]+)`", cells[0])
        value = parse_default(cells[columns.index("default")])
        if value is NOT_A_VALUE or not keys:
            continue
        if isinstance(value, tuple):
            values = value[1]
            if len(values) != len(keys):
                continue
        elif re.fullmatch(r"`stiffness` \S+", cells[columns.index("default")]):
            keys, values = ["stiffness"], [value]
        else:
            values = [value] * len(keys)
        for key, v in zip(keys, values):
            out.setdefault(section, {})[key] = (v, number)
    return out


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    doc_path, program = sys.argv[1:]
    library = json.loads(subprocess.run([program], check=True, capture_output=True, text=True).stdout)
    documented = doc_defaults(doc_path)
    failures, checked = [], 0
    for section, keys in library.items():
        for key, value in keys.items():
            entry = documented.get(section, {}).get(key)
            if entry is None:
                failures.append(f"{doc_path}: section {section} states no default for `{key}`; "
                                f"the library's is {json.dumps(value)}")
            elif not same(entry[0], value):
                failures.append(f"{doc_path}:{entry[1]}: {section} `{key}` defaults to "
                                f"{json.dumps(entry[0])} in the document but to "
                                f"{json.dumps(value)} in the library")
            else:
                checked += 1
    for failure in failures:
        print(failure)
    print(f"{checked} documented defaults equal the library's, {len(failures)} do not")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
