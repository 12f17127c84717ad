#!/usr/bin/env python3
"""Grep baseline for the errdex development corpus.

Measures what a user gets by searching pasted error output with ripgrep, scored by the
same rule as the corpus's score.py, so the numbers compare directly with errdex's.

    python3 bench/grep_baseline.py [--cases PATH] [--crates PATH]

Defaults: <repo>/../shared/corpus/{cases.jsonl,crates.txt}. Needs `rg` on PATH and the
crates of crates.txt unpacked under ~/.cargo/registry/src/index.crates.io-*/NAME-VERSION/.

For each case:
1. Drop lines that are plainly not the message: panic headers, `note: ...RUST_BACKTRACE...`,
   `stack backtrace:` and the frame lines after it (`N: symbol`, `at path:L:C`), cargo test
   harness lines (and the test names listed under `failures:`), `Caused by:` headers,
   `Location:` headers with the location line that follows, `----`/`~~~~` rule lines of
   rich reports, and empty lines. A tracing JSON line is replaced by its string values. A leading `Error: ` and env_logger / tracing fmt
   prefixes (`[TIME LEVEL target] `, `TIME LEVEL target: `) are stripped.
2. Cut the rest at likely runtime values: digits, quoted strings ('..' ".." `..`) and the
   characters {}()[]:,=|^ (plus miette's × and │ gutter marks). Pieces of at least 4
   characters after trimming that contain a letter are kept; the longest is the query (the
   first of equal length; no piece: the case scores as a miss).
3. `rg -F --no-heading -n --sort path -- QUERY DIR...` over all crate dirs of crates.txt;
   the hits in output order are the ranked answer.
Top-1: the first hit is the file of ANY truth entry (crate names with -/_ equal, same
version, same path) with the truth line within 3 lines of the hit. Top-3: one of the
first 3 hits is. Prints a per-input_kind table and `grep top1=X top3=Y n=N`.
"""
import argparse, collections, glob, json, os, re, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus')
TOL = 3

DROP = re.compile('^(' + '|'.join([
    r"thread '.*' (\(\d+\) )?panicked at .*", r'note: .*RUST_BACKTRACE.*', r'stack backtrace:',
    r'running \d+ tests?', r'test .* \.\.\. \w+', r'failures:', r'---- .* ----', r'test result:.*',
    r'error: test failed.*', r'Running .*', r'Caused by:', r'Location:', r'[-~]{4,}.*']) + ')$')
FRAME = re.compile(r'^(\d+: .*|at .*)$')
LOG_PREFIX = re.compile(r'^(\[\d{4}-\S+ +[A-Z]+ +[^\]]*\] |\d{4}-\d\d-\d\dT\S+ +[A-Z]+ +\S+: )')
CUT = re.compile(r"""\d|'[^'\n]*'|"[^"\n]*"|`[^`\n]*`|[{}()\[\]:,=|^×│\n]""")


def message_text(text):
    out, state = [], None            # state: 'bt' | 'failures' | 'location' | None
    for raw in text.splitlines():
        line = raw.strip()
        if state == 'bt' and FRAME.match(line):
            continue
        if state == 'failures' and re.fullmatch(r'[\w:]+', line):
            continue
        if state == 'location' and line:
            state = None
            continue
        state = None
        if not line or DROP.match(line):
            state = {'stack backtrace:': 'bt', 'failures:': 'failures',
                     'Location:': 'location'}.get(line)
            continue
        if line.startswith('{'):
            try:
                vals = []
                def walk(v):
                    if isinstance(v, dict): [walk(x) for x in v.values()]
                    elif isinstance(v, str): vals.append(v)
                walk(json.loads(line))
                out.extend(vals)
                continue
            except json.JSONDecodeError:
                pass
        line = LOG_PREFIX.sub('', line)
        out.append(line[len('Error: '):] if line.startswith('Error: ') else line)
    return '\n'.join(out)


def query_of(text):
    pieces = [p.strip() for p in CUT.split(message_text(text))]
    pieces = [p for p in pieces if len(p) >= 4 and re.search(r'[A-Za-z]', p)]
    return max(pieces, key=len) if pieces else None   # first of the longest


def crate_dirs(crates_path):
    dirs = []   # (dir, name, version)
    for spec in open(crates_path).read().split():
        name, ver = spec.split('@', 1)
        found = glob.glob(os.path.expanduser(f'~/.cargo/registry/src/index.crates.io-*/{name}-{ver}'))
        if not found:
            raise SystemExit(f'missing crate source for {spec}')
        dirs.append((found[0], name, ver))
    return dirs


def rg_hits(query, dirs):
    p = subprocess.run(['rg', '-F', '--no-heading', '-n', '--sort', 'path', '--null', '--',
                        query] + [d for d, _, _ in dirs], capture_output=True, text=True,
                       errors='replace')
    hits = []
    for line in p.stdout.splitlines():
        path, _, rest = line.partition('\0')
        for d, name, ver in dirs:
            if path.startswith(d + '/'):
                hits.append((name, ver, os.path.relpath(path, d), int(rest.split(':', 1)[0])))
                break
    return hits


def norm(name):
    return name.replace('-', '_').lower()


def hit(h, truth):
    name, ver, path, line = h
    return any(norm(t['crate']) == norm(name) and t['version'] == ver and
               t['path'].lstrip('./') == path.lstrip('./') and abs(t['line'] - line) <= TOL
               for t in truth)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cases', default=os.path.join(CORPUS, 'cases.jsonl'))
    ap.add_argument('--crates', default=os.path.join(CORPUS, 'crates.txt'))
    ap.add_argument('-v', '--verbose', action='store_true', help='print each query and result')
    a = ap.parse_args()
    dirs = crate_dirs(a.crates)
    per = collections.defaultdict(lambda: [0, 0, 0])   # n, top1, top3
    for c in (json.loads(l) for l in open(a.cases) if l.strip()):
        q = query_of(c['input'])
        hits = rg_hits(q, dirs) if q else []
        t1 = bool(hits) and hit(hits[0], c['truth'])
        t3 = any(hit(h, c['truth']) for h in hits[:3])
        k = per[c['input_kind']]
        k[0] += 1; k[1] += t1; k[2] += t3
        if a.verbose:
            print(f"{'1' if t1 else '3' if t3 else '-'} {c['id']}: {q!r} -> {len(hits)} hits"
                  + (f" first {hits[0][0]}@{hits[0][1]} {hits[0][2]}:{hits[0][3]}" if hits else ''))
    tot = [sum(v[i] for v in per.values()) for i in range(3)]
    print(f"{'kind':16} {'n':>4} {'top1':>6} {'top3':>6}")
    for kind in sorted(per):
        n, t1, t3 = per[kind]
        print(f'{kind:16} {n:4d} {t1/n:6.3f} {t3/n:6.3f}')
    n = tot[0] or 1
    print(f"{'all':16} {tot[0]:4d} {tot[1]/n:6.3f} {tot[2]/n:6.3f}")
    print(f'grep top1={tot[1]/n:.3f} top3={tot[2]/n:.3f} n={tot[0]}')


if __name__ == '__main__':
    main()
