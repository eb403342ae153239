#!/usr/bin/env python3
"""Prints one closing line, 'tests: N passed, N failed, N skipped', counting every TAP subtest
of a meson test log (and non-TAP tests as one each)."""
import json
import re
import sys

passed = failed = skipped = 0
with open(sys.argv[1]) as log:
    for line in log:
        entry = json.loads(line)
        if entry.get("protocol") == "tap" or re.search(r"^(not )?ok \d+", entry.get("stdout", ""), re.M):
            for m in re.finditer(r"^(not ok|ok) \d+[^\n]*", entry.get("stdout", ""), re.M):
                text = m.group(0)
                if "# SKIP" in text:
                    skipped += 1
                elif m.group(1) == "ok":
                    passed += 1
                else:
                    failed += 1
            if entry["result"] not in ("OK", "SKIP", "EXPECTEDFAIL") and not re.search(
                    r"^not ok", entry.get("stdout", ""), re.M):
                failed += 1  # crashed or timed out before reporting a failing subtest
        elif entry["result"] == "SKIP":
            skipped += 1
        elif entry["result"] in ("OK", "EXPECTEDFAIL"):
            passed += 1
        else:
            failed += 1
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
