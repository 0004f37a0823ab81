#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print one line per test case from the JSON that kunit.py parse --json
writes: "PASS suite.case", "FAIL suite.case" or "SKIP suite.case"."""

import json
import sys


def walk(group, prefix):
    name = group.get("name", "")
    path = f"{prefix}.{name}" if prefix and name else (name or prefix)
    for case in group.get("test_cases", []):
        status = case.get("status", "ERROR")
        word = {"PASS": "PASS", "SKIP": "SKIP"}.get(status, "FAIL")
        print(f"{word} {path}.{case.get('name', '?')}")
    for sub in group.get("sub_groups", []):
        walk(sub, path)


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    # The top group is kunit.py's wrapper, not a suite.
    for sub in doc.get("sub_groups", []):
        walk(sub, "")
    for case in doc.get("test_cases", []):
        walk({"test_cases": [case]}, "kunit")


if __name__ == "__main__":
    main()
