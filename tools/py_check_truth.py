#!/usr/bin/env python3
"""Re-check every truth line of cases.jsonl: print the source line at path:line of each truth entry.

Usage: py_check_truth.py BATCH_DIR [--context]   (a Python held-out batch: tools/pyheldout2, …;
--context also prints the two lines either side of each truth line).

Downloads each NAME==VERSION once from PyPI into CACHE (default /tmp/pyhsrc, or $PYH_CACHE):
a pure or manylinux/win wheel when there is one, else the sdist. `path` is relative to the wheel
root (site-packages); for an sdist the file is looked up under its top folder (and lib/, src/).
Exit status 1 when a file or line is missing.
"""
import json, os, sys, tarfile, urllib.parse, urllib.request, zipfile

ARGS = [a for a in sys.argv[1:] if not a.startswith('--')]
if not ARGS:
    sys.exit('usage: py_check_truth.py BATCH_DIR [--context]')
BATCH = ARGS[0]
CTX = '--context' in sys.argv
CACHE = os.environ.get('PYH_CACHE', '/tmp/pyhsrc')


def fetch(name, ver):
    dest = os.path.join(CACHE, f'{name}-{ver}')
    if os.path.isdir(dest):
        return dest
    url = f'https://pypi.org/pypi/{name}/json'
    files = json.load(urllib.request.urlopen(url))['releases'][ver]

    def rank(f):
        fn = f['filename']
        if fn.endswith('.whl'):
            if 'none-any' in fn: return 0
            if 'manylinux' in fn and 'x86_64' in fn: return 1
            if 'win_amd64' in fn: return 2
            return 5
        return 4 if fn.endswith(('.tar.gz', '.zip', '.tar.bz2')) else 9
    f = min(files, key=rank)
    fn = os.path.join(CACHE, f['filename'])
    urllib.request.urlretrieve(urllib.parse.urljoin(url, f['url']), fn)
    os.makedirs(dest)
    if fn.endswith(('.whl', '.zip')):
        zipfile.ZipFile(fn).extractall(dest)
    else:
        tarfile.open(fn).extractall(dest)
    return dest


def locate(root, path):
    cands = [os.path.join(root, path)]
    for top in sorted(os.listdir(root)):
        for sub in ('', 'lib', 'src'):
            cands.append(os.path.join(root, top, sub, path))
    return next((c for c in cands if os.path.isfile(c)), None)


bad = 0
os.makedirs(CACHE, exist_ok=True)
for l in open(os.path.join(BATCH, 'cases.jsonl')):
    if not l.strip():
        continue
    c = json.loads(l)
    for t in c['truth']:
        nv = f"{t['package']}=={t['version']}"
        try:
            root = fetch(t['package'], t['version'])
        except Exception as e:
            print(f'MISSING {nv}: {e}'); bad += 1; continue
        p = locate(root, t['path'])
        if not p:
            print(f"MISSING {nv} {t['path']}"); bad += 1; continue
        lines = open(p, encoding='utf-8', errors='replace').read().split('\n')
        if t['line'] > len(lines):
            print(f"NO LINE {nv} {t['path']}:{t['line']}"); bad += 1; continue
        print(f"{c['id']}: {nv} {t['path']}:{t['line']}: {lines[t['line'] - 1].strip()[:120]}")
        if CTX:
            for i in range(max(0, t['line'] - 3), min(len(lines), t['line'] + 2)):
                print(f"      {i + 1:5d}  {lines[i][:120]}")
sys.exit(1 if bad else 0)
