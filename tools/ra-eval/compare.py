#!/usr/bin/env python3
"""Callers of each analysis check's site: errdex's resolver against rust-analyzer's.

Usage: python3 compare.py ERRDEX RA_EVAL --db DB [--cases CASES] [--only ID ...] [--work DIR]

For each case of ../shared/analysis/cases.jsonl (located as score.py does), it runs
`errdex analyze ID` and reads the `caller` facts of `errdex show ID --json`, then runs
`ra-eval` once per crate version on a copy of the crate's registry source (so that
`cargo metadata` writes its lock file there, not in ~/.cargo) with the sites of that crate.
It prints, per case, the caller lines each side found and the lines only one side found,
then the totals.
"""

import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = os.path.join(HERE, "..", "..", "..", "shared", "analysis", "cases.jsonl")


def load_score(cases_path):
    """Import score.py from the folder of the cases, for `Errdex` and `locate`."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(cases_path)))
    import score  # noqa: E402

    return score


def registry_dir(name, version):
    hits = glob.glob(os.path.expanduser(f"~/.cargo/registry/src/*/{name}-{version}"))
    return hits[0] if hits else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("errdex")
    ap.add_argument("ra_eval")
    ap.add_argument("--db", required=True)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--work", default="/tmp/ra-eval-crates")
    args = ap.parse_args()

    score = load_score(args.cases)
    dx = score.Errdex(args.errdex, args.db)
    cases = [json.loads(l) for l in open(args.cases) if l.strip()]
    if args.only:
        cases = [c for c in cases if c["id"] in args.only or str(cases.index(c) + 1) in args.only]

    # errdex side
    rows = []
    for c in cases:
        dx.index(c["crate"], c["version"])
        eid, how = score.locate(dx, c)
        if eid is None:
            rows.append((c, None, None, set()))
            continue
        m = re.search(r"site (\S+):(\d+)", how)
        site = (m.group(1), int(m.group(2)))
        dx.analyze(eid, [])
        facts = dx.show(eid)["analysis"]["facts"]
        ours = {(f.get("path"), f.get("line")) for f in facts if f["kind"] == "caller" and f.get("line")}
        rows.append((c, eid, site, ours))

    # rust-analyzer side, one load per crate version
    by_crate = collections.defaultdict(list)
    for c, eid, site, _ in rows:
        if site:
            by_crate[(c["crate"], c["version"])].append(site)
    ra = {}
    for (name, version), sites in by_crate.items():
        src = registry_dir(name, version)
        dst = os.path.join(args.work, f"{name}-{version}")
        if not os.path.isdir(dst):
            shutil.copytree(src, dst)
        cmd = [args.ra_eval, dst] + [f"{p}:{l}" for p, l in sites]
        t0 = time.time()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.time() - t0
        out = p.stdout
        summary = re.findall(r"first answer ([\d.]+) s after start; peak RSS (\d+) MB", out)
        print(f"== ra-eval {name} {version}: exit {p.returncode}, {wall:.1f} s wall, "
              f"{'first answer %s s, peak %s MB' % summary[0] if summary else p.stderr.strip()[-300:]}")
        current = None
        callers = []
        for line in out.splitlines():
            m = re.match(r"\s+caller (\S+) at (\S+):(\d+)$", line)
            if m:
                callers.append((m.group(2), int(m.group(3))))
                continue
            m = re.match(r"site (\S+):(\d+): (.*)$", line)
            if m:
                current = (m.group(1), int(m.group(2)))
                ra[(name, version, current)] = (set(callers), m.group(3))
                callers = []

    tot = collections.Counter()
    for c, eid, site, ours in rows:
        if site is None:
            print(f"{c['id']}: not located")
            continue
        theirs, note = ra.get((c["crate"], c["version"], site), (set(), "ra-eval gave no answer"))
        # rust-analyzer paths are absolute for other crates; keep the crate-relative ones
        theirs = {(p, l) for p, l in theirs}
        both = ours & theirs
        tot["ours"] += len(ours)
        tot["ra"] += len(theirs)
        tot["both"] += len(both)
        tot["cases_ours"] += bool(ours)
        tot["cases_ra"] += bool(theirs)
        fmt = lambda s: ", ".join(f"{p}:{l}" for p, l in sorted(s, key=lambda x: (str(x[0]), x[1]))) or "-"
        print(f"{c['id']} [{site[0]}:{site[1]}] errdex {len(ours)}, rust-analyzer {len(theirs)}, both {len(both)}  ({note})")
        if ours - theirs:
            print(f"    errdex only: {fmt(ours - theirs)}")
        if theirs - ours:
            print(f"    rust-analyzer only: {fmt(theirs - ours)}")
    print(f"total caller lines: errdex {tot['ours']}, rust-analyzer {tot['ra']}, both {tot['both']}; "
          f"cases with a caller: errdex {tot['cases_ours']}, rust-analyzer {tot['cases_ra']} of {len(rows)}")


if __name__ == "__main__":
    main()
