#!/usr/bin/env python3
"""Share of an analysed crate's library errors whose page a user can act on.

Usage: python3 tools/page_coverage.py DB CRATE [CRATE ...] [--json] [--missing N]

Reads the catalogue DB (SQLite) after `errdex --db DB analyze crate:NAME`:
the last whole-snapshot rules run of each snapshot of `crate:NAME` lists
every error with its facts hash and whether it has a site outside tests
("library"); each such error's cached page is read and counted as having

- When and Solutions: both sections hold at least one sentence;
- Example fix: the section holds code.

`--missing N` prints, per crate, N library errors whose page lacks When or
Solutions (id, kind, template), to read them with `errdex show ID`.
"""
import argparse
import json
import sqlite3
import sys


def pages(conn, slug):
    """(revision, [(error_id, kind, template, analysis)]) of each snapshot of slug."""
    out = []
    for sid, rev in conn.execute(
            "SELECT s.id, s.revision FROM snapshots s JOIN repos r ON r.id = s.repo_id "
            "WHERE r.slug = ? ORDER BY s.id", (slug,)):
        row = conn.execute(
            "SELECT hashes FROM analysis_runs WHERE snapshot_id = ? AND model = 'rules'",
            (sid,)).fetchone()
        if row is None:
            continue
        entries = []
        for eid, h, library in json.loads(row[0]):
            if not library:
                continue
            a = conn.execute(
                "SELECT json FROM analyses WHERE error_id = ? AND facts_hash = ? AND model = 'rules'",
                (eid, h)).fetchone()
            k = conn.execute("SELECT kind, template FROM errors WHERE id = ?", (eid,)).fetchone()
            entries.append((eid, k[0] if k else "?", k[1] if k else "?",
                            json.loads(a[0]) if a else None))
        out.append((rev, entries))
    return out


def sections(analysis):
    """name -> section of a stored analysis."""
    return {s["name"]: s for s in (analysis or {}).get("sections", [])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("crates", nargs="+")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--missing", type=int, default=0)
    args = ap.parse_args()
    conn = sqlite3.connect(args.db)
    rows = []
    for name in args.crates:
        slug = name if ":" in name else f"crate:{name}"
        for rev, entries in pages(conn, slug):
            n = len(entries)
            ws = fix = 0
            missing = []
            for eid, kind, template, a in entries:
                s = sections(a)
                has_when = bool(s.get("when", {}).get("sentences"))
                has_sol = bool(s.get("solutions", {}).get("sentences"))
                if has_when and has_sol:
                    ws += 1
                else:
                    missing.append((eid, kind, template, has_when, has_sol))
                if s.get("example_fix", {}).get("code"):
                    fix += 1
            rows.append({"crate": slug, "version": rev, "library_errors": n,
                         "when_and_solutions": ws, "example_fix": fix})
            if args.missing and not args.json:
                print(f"# {slug}@{rev}: lacking When or Solutions")
                for eid, kind, template, w, so in missing[:args.missing]:
                    print(f"{eid}\t{kind}\twhen={int(w)} solutions={int(so)}\t{template[:90]}")
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return
    print("| crate | version | library errors | When and Solutions | Example fix |")
    print("|---|---|---:|---:|---:|")
    for r in rows:
        n = r["library_errors"] or 1
        print(f"| {r['crate'].removeprefix('crate:')} | {r['version']} | {r['library_errors']} "
              f"| {r['when_and_solutions']} ({100 * r['when_and_solutions'] / n:.1f}%) "
              f"| {r['example_fix']} ({100 * r['example_fix'] / n:.1f}%) |")


if __name__ == "__main__":
    main()
