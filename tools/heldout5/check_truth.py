#!/usr/bin/env python3
"""Re-check every truth line of cases.jsonl: print the source line at path:line of each truth entry.

Reads each crate from cargo's download cache (~/.cargo/registry/cache/*/NAME-VERSION.crate; run
`errdex index crate:NAME@VERSION` or the scorer first so that the files are there). Truth entries
whose version is listed but not indexed (wasmer 4.4.0 / 5.0.4 of h5-016) are read from unpacked
crate folders given as arguments (`check_truth.py DIR...`, each holding NAME-VERSION/), if any.
Copied from tools/heldout3 with that fallback added.
"""
import glob, json, os, sys, tarfile
HERE = os.path.dirname(os.path.abspath(__file__))
DIRS = sys.argv[1:]
bad = 0
for l in open(os.path.join(HERE, 'cases.jsonl')):
    c = json.loads(l)
    for t in c['truth']:
        nv = f"{t['crate']}-{t['version']}"
        files = glob.glob(os.path.expanduser(f"~/.cargo/registry/cache/*/{nv}.crate"))
        text = None
        if files:
            with tarfile.open(files[0]) as tf:
                text = tf.extractfile(f"{nv}/{t['path']}").read().decode('utf-8', 'replace')
        else:
            for d in DIRS:
                p = os.path.join(d, nv, t['path'])
                if os.path.exists(p):
                    text = open(p, encoding='utf-8', errors='replace').read()
                    break
        if text is None:
            print(f"MISSING {nv}"); bad += 1; continue
        line = text.split('\n')[t['line'] - 1].strip()
        print(f"{c['id']}: {nv}/{t['path']}:{t['line']}: {line[:120]}")
sys.exit(1 if bad else 0)
