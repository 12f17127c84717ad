#!/usr/bin/env python3
"""Location-reading baseline of a Python held-out batch (`py_baseline.py tools/pyheldout3/cases.jsonl`) (what a user gets by opening the last printed location).

A case counts when the LAST printed location that lies in a truth package's files is within 3 lines
of one of its truth entries (same path relative to site-packages; the version is taken as right,
since Python paths do not carry it). Two readings:
  file_line: only traceback frames `File "PATH", line N` (the classic reading);
  any:       also `PATH.py:N` locations (warnings, pytest, IPython `File PATH.py:N`).
"""
import json, os, re, sys

FRAME = re.compile(r'File "([^"]+)", line (\d+)')
COLON = re.compile(r'([^\s"\'(]+\.py):(\d+)')


def rel(path, truth):
    p = path.replace('\\', '/')
    for t in truth:
        if p == t['path'] or p.endswith('/' + t['path']):
            return t['path']
    return None


def last_hit(text, truth, pats):
    locs = []
    for pat in pats:
        locs += [(m.start(), m.group(1), int(m.group(2))) for m in pat.finditer(text)]
    locs.sort()
    # last location inside a truth package: its top-level module folder is printed
    tops = {t['path'].split('/')[0] for t in truth}
    inpkg = [(p, n) for _, p, n in locs if any(('/' + top + '/') in '/' + p.replace('\\', '/') for top in tops)]
    if not inpkg:
        return False
    p, n = inpkg[-1]
    r = rel(p, truth)
    return any(r == t['path'] and abs(t['line'] - n) <= 3 for t in truth)


if len(sys.argv) < 2:
    sys.exit('usage: py_baseline.py CASES_JSONL')
cases = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for name, pats in (('file_line', [FRAME]), ('any', [FRAME, COLON])):
    by = {}
    for c in cases:
        ok = last_hit(c['input'], c['truth'], pats)
        k = by.setdefault(c['input_kind'], [0, 0]); k[0] += ok; k[1] += 1
    hits = sum(v[0] for v in by.values())
    print(f"location-reading baseline ({name}): top1={hits / len(cases):.3f} "
          + ' '.join(f'{k} {v[0]}/{v[1]}' for k, v in sorted(by.items())))
