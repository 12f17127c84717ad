#!/usr/bin/env python3
"""Fit the weights of explain's scoring model (crates/matcher/src/score.rs)
on the development corpora, checking on a held-out half that they carry.

    python3 tools/fit_weights.py target/release/errdex \
        --corpus ../shared/corpus:/tmp/gen.db --corpus ../shared/corpus-wild:/tmp/wild.db

Each corpus is `DIR:DB`: its cases.jsonl, and a catalogue that already holds
its crates (the corpus's score.py builds it). Cases are split in two halves
by a hash of their id: weights are fitted on one (coordinate descent over
each weight's multiples, keeping a change only when it raises top-1 there)
and reported on both. The binary reads candidate weights from the JSON file
named by ERRDEX_WEIGHTS. Prints the fitted weights as JSON last; put them
in `Weights::default()` only when the held-out half does not drop.
"""
import argparse, concurrent.futures, hashlib, json, os, subprocess, tempfile

TOL = 3
STEPS = [0.5, 0.75, 1.25, 1.5]
# Weights that are shares or factors stay in (0, 1]; bonuses may grow.
CAPPED = {"located", "located_text", "frame", "target_module", "target_crate", "literal",
          "test_literal", "test_site", "not_a_panic", "located_elsewhere", "other_version",
          "published_later"}


def norm(name):
    return name.replace('-', '_').lower()


def hit(m, truth):
    repo = m.get('repo') or ''
    if not repo.startswith('crate:'):
        return False
    line, end = m.get('line') or 0, m.get('end_line') or m.get('line') or 0
    for t in truth:
        if (norm(t['crate']) == norm(repo[6:]) and (not m.get('revision') or m['revision'] == t['version'])
                and (m.get('path') or '').lstrip('./') == t['path'].lstrip('./')
                and line - TOL <= t['line'] <= end + TOL):
            return True
    return False


def half(case_id):
    return hashlib.sha256(case_id.encode()).digest()[0] % 2


def evaluate(errdex, cases, weights):
    """Top-1 hits per half: [fit, check]."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(weights, f)
        path = f.name
    env = dict(os.environ, ERRDEX_WEIGHTS=path)

    def one(item):
        db, c = item
        p = subprocess.run([errdex, '--db', db, 'explain', '--json', '-'], input=c['input'],
                           capture_output=True, text=True, env=env, timeout=120)
        try:
            ms = json.loads(p.stdout).get('matches') or []
        except json.JSONDecodeError:
            ms = []
        return half(c['id']), bool(ms) and hit(ms[0], c['truth'])

    hits = [0, 0]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        for h, ok in pool.map(one, cases):
            hits[h] += ok
    os.unlink(path)
    return hits


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('errdex')
    ap.add_argument('--corpus', action='append', required=True, help='DIR:DB')
    ap.add_argument('--rounds', type=int, default=2)
    a = ap.parse_args()
    errdex = os.path.abspath(a.errdex)
    cases = []
    for spec in a.corpus:
        d, db = spec.split(':', 1)
        cases += [(db, json.loads(l)) for l in open(os.path.join(d, 'cases.jsonl')) if l.strip()]
    sizes = [sum(half(c['id']) == h for _, c in cases) for h in (0, 1)]
    # The defaults, as the binary reports them (an empty file keeps them all).
    weights = json.loads(subprocess.run([errdex, 'weights'], capture_output=True, text=True,
                                        check=True).stdout)
    base = evaluate(errdex, cases, weights)
    print(f'defaults: fit {base[0]}/{sizes[0]} check {base[1]}/{sizes[1]}', flush=True)
    best = base
    for r in range(a.rounds):
        changed = False
        for name in sorted(weights):
            for step in STEPS:
                trial = dict(weights)
                trial[name] = round(weights[name] * step, 4)
                if name in CAPPED and not 0 < trial[name] <= 1:
                    continue
                got = evaluate(errdex, cases, trial)
                if got[0] > best[0]:
                    print(f'round {r + 1}: {name} {weights[name]} -> {trial[name]}: '
                          f'fit {got[0]}/{sizes[0]} check {got[1]}/{sizes[1]}', flush=True)
                    weights, best, changed = trial, got, True
        if not changed:
            break
    print(f'fitted: fit {best[0]}/{sizes[0]} check {best[1]}/{sizes[1]} '
          f'(defaults: fit {base[0]} check {base[1]})')
    print(json.dumps(weights, indent=2, sort_keys=True))


if __name__ == '__main__':
    main()
