#!/usr/bin/env python3
"""Re-check every truth line of cases.jsonl: print the source line at path:line of each truth entry.

Reads each crate from cargo's download cache (~/.cargo/registry/cache/*/NAME-VERSION.crate; run
`errdex index crate:NAME@VERSION` or the scorer first so that the files are there).
"""
import glob, json, os, sys, tarfile
HERE = os.path.dirname(os.path.abspath(__file__))
bad = 0
for l in open(os.path.join(HERE, 'cases.jsonl')):
    c = json.loads(l)
    for t in c['truth']:
        nv = f"{t['crate']}-{t['version']}"
        files = glob.glob(os.path.expanduser(f"~/.cargo/registry/cache/*/{nv}.crate"))
        if not files:
            print(f"MISSING {nv}"); bad += 1; continue
        with tarfile.open(files[0]) as tf:
            text = tf.extractfile(f"{nv}/{t['path']}").read().decode('utf-8', 'replace')
        line = text.split('\n')[t['line'] - 1].strip()
        print(f"{c['id']}: {nv}/{t['path']}:{t['line']}: {line[:120]}")
sys.exit(1 if bad else 0)
