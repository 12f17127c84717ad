#!/usr/bin/env python3
"""Re-check every truth line of a held-out batch: print the source line at path:line of each truth
entry of BATCH/cases.jsonl (`check_truth.py tools/heldout6 [--context] [DIR...]`).

Reads each crate from cargo's download cache (~/.cargo/registry/cache/*/NAME-VERSION.crate; run
`errdex index crate:NAME@VERSION`, the scorer, or `cargo fetch` first so that the files are there).
When a .crate is missing, the unpacked source under ~/.cargo/registry/src/*/NAME-VERSION/ is read,
then folders given as arguments (`check_truth.py DIR...`, each holding NAME-VERSION/).
With --context, the two lines either side are printed too.
One script for the Rust batches from heldout5 on (heldout3's, plus the fallbacks).
"""
import glob, json, os, sys, tarfile
if len(sys.argv) < 2:
    sys.exit("usage: check_truth.py BATCH_DIR [--context] [DIR...]")
BATCH = sys.argv[1]
CTX = '--context' in sys.argv
DIRS = [a for a in sys.argv[2:] if a != '--context']
bad = 0
for l in open(os.path.join(BATCH, 'cases.jsonl')):
    c = json.loads(l)
    for t in c['truth']:
        nv = f"{t['crate']}-{t['version']}"
        files = glob.glob(os.path.expanduser(f"~/.cargo/registry/cache/*/{nv}.crate"))
        text = None
        if files:
            with tarfile.open(files[0]) as tf:
                text = tf.extractfile(f"{nv}/{t['path']}").read().decode('utf-8', 'replace')
        else:
            for d in glob.glob(os.path.expanduser('~/.cargo/registry/src/*')) + DIRS:
                p = os.path.join(d, nv, t['path'])
                if os.path.exists(p):
                    text = open(p, encoding='utf-8', errors='replace').read()
                    break
        if text is None:
            print(f"MISSING {nv}"); bad += 1; continue
        lines = text.split('\n')
        line = lines[t['line'] - 1].strip()
        print(f"{c['id']}: {nv}/{t['path']}:{t['line']}: {line[:140]}")
        if CTX:
            for i in range(max(0, t['line'] - 3), min(len(lines), t['line'] + 2)):
                print(f"      {i + 1:5d}  {lines[i][:140]}")
sys.exit(1 if bad else 0)
