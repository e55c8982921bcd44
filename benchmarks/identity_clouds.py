#!/usr/bin/env python3
"""Identity of cloud-system outputs between this checkout and another commit (issue 16, item 6).

    python benchmarks/identity_clouds.py --base e653a4c               # every case
    python benchmarks/identity_clouds.py --base e653a4c --only blue,li-2000
    python benchmarks/identity_clouds.py --base e653a4c --li-jobs 10000 --tasks 10000

Each case runs in a fresh process per tree (``PYTHONPATH`` set to the tree, the same
interpreter), writes its outputs to a temporary folder, and every file is hashed (sha256):
``jobs.csv``, ``intervals.csv``, ``dag_jobs.csv`` as written, ``summary.json`` with
``wall_seconds`` removed (wherever it occurs). The cases: the scenarios
``scenarios/haizea-blue-ar.yaml`` (Haizea preset as the file says, and the project's discipline
``broker.params={preemption: suspend}`` as ``bench_clouds.py``'s blue-leases case runs it),
``scenarios/li-feedback-tight.yaml`` (as written, and at ``--li-jobs`` jobs with mean gap 120 s,
the bench's li case), ``examples/leases.yaml``, ``examples/dags_clouds.yaml``,
``examples/workflows_clouds.yaml``; and ``bench_clouds.py``'s generated layered and WfFormat
DAGs (``--tasks``) under fdls and fdmms, through ``run_system`` with ``jobs.csv`` and
``intervals.csv`` written by the package's writers. Exit code 1 if any hash differs.

The base tree is a temporary ``git worktree`` of ``--base`` (removed afterwards).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

CHILD = r"""
import json, os, sys
tree, kind, out = sys.argv[1], sys.argv[2], sys.argv[3]
args = sys.argv[4:]
if kind == "scenario":
    from cloudsim_py.cli import main
    path, sets = args[0], args[1:]
    argv = ["run", os.path.join(tree, path), "--out", out, "-q", "--force"]
    for s in sets:
        argv += ["--set", s]
    rc = main(argv)
    sys.exit(rc or 0)
else:
    sys.path.insert(0, os.path.join(tree, "benchmarks"))
    import bench_clouds as b
    from cloudsim_py.outputs import JobsCsv
    from cloudsim_py.runner import run_system
    from cloudsim_py.systems.clouds import build_dag_system
    tasks, policy = int(args[0]), args[1]
    if kind == "layered":
        dags, clouds = b.layered_dags(tasks, seed=1), [b.layered_cloud(64)]
    else:
        wf = b.read_workflows(None)
        dags, clouds = b.wfformat_dags(tasks, wf), b.wfformat_clouds(wf)
    result = run_system(build_dag_system(dags, clouds, policy=policy), label=policy)
    w = JobsCsv(os.path.join(out, "jobs.csv"))
    w(result.records.columns)
    w.close(result.world.log, list(result.run.rows()))
    result.run.write_files(out)
    s = dict(result.summary)
    s.pop("wall_seconds", None)
    with open(os.path.join(out, "summary.json"), "w") as fh:
        json.dump(s, fh, sort_keys=True)
"""


def cases(li_jobs: int, tasks: int) -> dict[str, tuple[str, list[str]]]:
    blue = "scenarios/haizea-blue-ar.yaml"
    li = "scenarios/li-feedback-tight.yaml"
    out: dict[str, tuple[str, list[str]]] = {
        "blue": ("scenario", [blue, "broker.params={preemption: suspend}"]),
        "blue-haizea": ("scenario", [blue]),
        "li-tight": ("scenario", [li]),
        f"li-{li_jobs}": ("scenario", [li, f"dags.model.jobs={li_jobs}", "dags.model.arrivals=120"]),
        "ex-leases": ("scenario", ["examples/leases.yaml"]),
        "ex-dags": ("scenario", ["examples/dags_clouds.yaml"]),
        "ex-workflows": ("scenario", ["examples/workflows_clouds.yaml"]),
    }
    for kind in ("layered", "wfformat"):
        for p in ("fdls", "fdmms"):
            out[f"{kind}-{p}"] = (kind, [str(tasks), p])
    return out


def _clean(doc: object) -> object:
    if isinstance(doc, dict):
        return {k: _clean(v) for k, v in doc.items() if k != "wall_seconds"}
    if isinstance(doc, list):
        return [_clean(v) for v in doc]
    return doc


def hashes(folder: str) -> dict[str, str]:
    out = {}
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, folder)
            with open(p, "rb") as fh:
                data = fh.read()
            if f == "summary.json":
                doc = _clean(json.loads(data))
                # the rerun record names the tree's own paths
                if isinstance(doc, dict):
                    doc.pop("rerun", None)
                    for run in (doc.get("runs") or {}).values():
                        if isinstance(run, dict):
                            run.pop("rerun", None)
                data = json.dumps(doc, sort_keys=True).encode()
            out[rel] = hashlib.sha256(data).hexdigest()
    return out


def run_case(tree: str, kind: str, args: list[str]) -> dict[str, str]:
    out = tempfile.mkdtemp(prefix="cloudsim-id-")
    try:
        env = {**os.environ, "PYTHONPATH": tree}
        # the base tree is a temporary folder: the shared data is named from this tree's place
        for var, sub in (("CLOUDSIM_PY_LEASES", "leases"), ("CLOUDSIM_PY_WORKFLOWS", "workflows"),
                         ("CLOUDSIM_PY_TRACES", "traces")):
            env.setdefault(var, os.path.join(os.path.dirname(REPO), "shared", sub))
        r = subprocess.run([sys.executable, "-c", CHILD, tree, kind, out, *args], env=env,
                           cwd=tree, capture_output=True, text=True)
        if r.returncode != 0:
            return {"<error>": r.stderr[-2000:]}
        return hashes(out)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the commit to compare with")
    ap.add_argument("--only", help="comma-separated case names")
    ap.add_argument("--li-jobs", type=int, default=2000)
    ap.add_argument("--tasks", type=int, default=10_000)
    a = ap.parse_args()
    base = tempfile.mkdtemp(prefix="cloudsim-base-")
    os.rmdir(base)
    subprocess.run(["git", "-C", REPO, "worktree", "add", "--detach", base, a.base], check=True,
                   capture_output=True)
    bad = 0
    try:
        selected = cases(a.li_jobs, a.tasks)
        if a.only:
            names = a.only.split(",")
            selected = {k: v for k, v in selected.items() if k in names}
        for name, (kind, args) in selected.items():
            h_base = run_case(base, kind, args)
            h_here = run_case(REPO, kind, args)
            same = h_base == h_here and "<error>" not in h_here
            bad += not same
            print(f"{name:<16} {'identical' if same else 'DIFFERENT'}", flush=True)
            for f in sorted(set(h_base) | set(h_here)):
                b, h = h_base.get(f, "-"), h_here.get(f, "-")
                mark = "" if b == h else "   <-- base " + b[:300]
                print(f"    {f:<28} {h[:300] if f == '<error>' else h[:16]}{mark}", flush=True)
    finally:
        subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", base], capture_output=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
