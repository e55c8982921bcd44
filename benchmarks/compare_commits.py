#!/usr/bin/env python3
"""Compare this checkout with another commit: identical schedules, and speed in one interleaved run.

    python benchmarks/compare_commits.py --base 08e831d                 # outputs + speed
    python benchmarks/compare_commits.py --base 08e831d --only outputs  # jobs.csv identity only
    python benchmarks/compare_commits.py --base 08e831d --only outputs \
        --outputs-trace CTC-SP2-1996-3.1-cln.swf.gz:338:conservative        # ... and on CTC too
    python benchmarks/compare_commits.py --base 08e831d --only outputs \
        --outputs-trace CTC-SP2-1996-3.1-cln.swf.gz:338:cmcbf,acfcfs:2      # ... two tiers
    python benchmarks/compare_commits.py --base 08e831d --only speed --repeat 5
    python benchmarks/compare_commits.py --base 08e831d --only instructions --match lublin256

*outputs*: ``jobs.csv`` of KTH-SP2 (seed 1) under FCFS, EASY, conservative, CCFCFS, ACFCFS,
AMCBF and KTCBF (2 and 4 tiers), computed by both trees, must be byte-identical (sha256 shown)
in what the older tree wrote: the 16 columns ``id ... lost_work`` of the finished jobs' rows,
sorted by (submit, id). Columns added later (``state``, ``reason``) and the rows of jobs that did
not finish (rejected, unfinished, skipped: issue 11) are left out of the comparison, and so is
the row order (a tree that streams ``jobs.csv`` writes finished jobs in finish order). A tree
with ``cloudsim_py.outputs.JobsCsv`` is compared through that streamed writer, the file a
scenario run writes; an older one through ``records.to_csv()``.
*speed*: the configurations of ``bench_policies.py`` and ``bench_consolidation.py``, each timed
in a fresh process per tree (whole run: read + clean + simulate + metrics, in CPU seconds of the
process, so interpreter start-up and other processes' use of the machine are left out), the two
trees alternating run by run so that the machine's noise hits both alike; best of ``--repeat``.
*instructions*: the same configurations, counted instead of timed: the simulation's machine
instructions under valgrind's ``callgrind`` (the process's count with the simulation minus its
count without; a short warm-up run first, so lazy imports are not counted; numpy's thread
pools held to one thread, whose spinning would be counted). Deterministic, so it is not
disturbed by other work on the machine and tells differences of 1 % apart, which timings on a
busy machine cannot; about 50 times slower than a run (pick configurations with ``--match``).
Exit code 1 if an output differs, except for policies named with ``--changed``.

The base tree is a temporary ``git worktree`` of ``--base``; both run with ``PYTHONPATH`` set to
their tree and the same interpreter. Traces come from ``$CLOUDSIM_PY_TRACES``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)

from cloudsim_py.experiments.liu2015 import traces_dir  # noqa: E402

KTH = ("KTH-SP2-1996-2.1-cln.swf.gz", 100)
#: (policy, tiers) whose KTH-SP2 jobs.csv must not change
OUTPUTS = [("fcfs", 1), ("easy", 1), ("conservative", 1), ("ccfcfs", 2), ("acfcfs", 2),
           ("amcbf", 2), ("ktcbf", 2), ("ktcbf", 4)]
#: (trace, processors, policy, tiers): bench_policies.py and bench_consolidation.py
SPEED = (
    [(t, p, pol, 1) for t, p in (("normalized/kth.swf", 100), ("normalized/lublin256.swf", 256),
                                 KTH) for pol in ("fcfs", "easy", "conservative")]
    + [("CTC-SP2-1996-3.1-cln.swf.gz", 338, pol, 1) for pol in ("fcfs", "easy", "conservative")]
    + [(t, p, pol, tiers) for t, p in (KTH, ("NASA-iPSC-1993-3.1-cln.swf.gz", 128),
                                       ("SDSC-Par-1996-3.1-cln.swf.gz", 400))
       for pol, tiers in (("ccfcfs", 2), ("acfcfs", 2), ("cmbf", 1), ("ambf", 1), ("cmcbf", 2),
                          ("amcbf", 2), ("ktcbf", 2))]
    # issue 19 compares the consolidation policies with EASY on KTH, CTC and NASA
    + [("NASA-iPSC-1993-3.1-cln.swf.gz", 128, "easy", 1)]
    + [("CTC-SP2-1996-3.1-cln.swf.gz", 338, pol, tiers)
       for pol, tiers in (("ccfcfs", 2), ("acfcfs", 2), ("amcbf", 2), ("ktcbf", 2))]
)

CHILD = r"""
import hashlib, os, sys, tempfile, time
from cloudsim_py import prepare, read_table, simulate
path, procs, policy, tiers, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
try:
    from cloudsim_py.outputs import JobsCsv
except ImportError:
    JobsCsv = None
t0 = time.process_time()
table = prepare(read_table(path), procs, "trace")
if out != "-" and JobsCsv is not None:
    # the streamed jobs.csv, as a scenario run writes it
    from cloudsim_py.brokers.spec import BrokerSpec
    from cloudsim_py.infrastructure.spec import DatacenterSpec
    from cloudsim_py.runner import build, results
    world = build(table, datacenter=DatacenterSpec(hosts=procs, tiers=tiers), broker=BrokerSpec(policy), seed=1)
    tmp = tempfile.mkdtemp()
    writer = JobsCsv(os.path.join(tmp, "jobs.csv"))
    world.log.sinks.append(writer)
    world.run()
    summary, _ = results(world)
    writer.close(world.log)
    t1 = time.process_time()
    with open(os.path.join(tmp, "jobs.csv")) as fh:
        text = fh.read()
    import shutil
    shutil.rmtree(tmp)
else:
    r = simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1)
    summary = r.summary
    t1 = time.process_time()
    text = r.records.to_csv()
# what the older tree wrote: the first 16 columns of the finished jobs' rows, by (submit, id)
lines = text.splitlines()
head = lines[0].split(",")
n = head.index("state") if "state" in head else len(head)
rows = [line.split(",") for line in lines[1:]]
rows = [r[:n] for r in rows if n == len(head) or r[n] == "finished"]
rows.sort(key=lambda r: (float(r[1]), int(r[0])))
text = "\n".join([",".join(head[:n])] + [",".join(r) for r in rows]) + "\n"
if out != "-":
    with open(out, "w") as fh:
        fh.write(text)
print(t1 - t0, summary["jobs_finished"], summary["events"], hashlib.sha256(text.encode()).hexdigest())
"""


IR_CHILD = r"""
import sys
from cloudsim_py import prepare, read_table, simulate
path, procs, policy, tiers, full = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
table = prepare(read_table(path), procs, "trace")
# warm-up up to the 50th arrival: whatever a run imports or caches on first use is not counted
simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1,
         until=float(table.data[min(50, table.data.shape[0] - 1), 1]))
if full == "1":
    simulate(table, hosts=procs, tiers=tiers, policy=policy, seed=1)
"""


def instructions(tree: str, path: str, procs: int, policy: str, tiers: int) -> int:
    """Machine instructions of one simulation, by callgrind: with it minus without it."""
    env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    counts = []
    for full in ("0", "1"):
        res = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                              sys.executable, "-c", IR_CHILD, path, str(procs), policy, str(tiers), full],
                             env=env, capture_output=True, text=True, cwd=tree)
        found = re.search(r"Collected : (\d+)", res.stderr)
        if res.returncode != 0 or found is None:
            raise SystemExit(f"{tree}: callgrind of {policy} on {path} failed:\n{res.stderr[-2000:]}")
        counts.append(int(found.group(1)))
    return counts[1] - counts[0]


def run(tree: str, path: str, procs: int, policy: str, tiers: int, out: str = "-") -> tuple[float, int, int, str]:
    env = dict(os.environ, PYTHONPATH=tree)
    res = subprocess.run([sys.executable, "-c", CHILD, path, str(procs), policy, str(tiers), out],
                         env=env, capture_output=True, text=True, cwd=tree)
    if res.returncode != 0:
        raise SystemExit(f"{tree}: {policy} on {path} failed:\n{res.stderr}")
    secs, jobs, events, digest = res.stdout.split()
    return float(secs), int(jobs), int(events), digest


def speed_configs(match: str | None):
    """The SPEED configurations whose trace or policy matches, with their trace's path; a
    missing trace is reported and left out."""
    for name, procs, policy, tiers in SPEED:
        if match and match not in name and match != policy:
            continue
        path = os.path.join(traces_dir(), name)
        if not os.path.isfile(path):
            print(f"{name:32} (missing, skipped)")
            continue
        yield name, procs, policy, tiers, path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="commit to compare against")
    ap.add_argument("--only", choices=("outputs", "speed", "instructions"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="write both trees' jobs.csv files into this folder")
    ap.add_argument("--outputs-trace", action="append", default=[], metavar="FILE:PROCS:POLICY[,POLICY][:TIERS]",
                    help="also compare jobs.csv on this trace (on TIERS tiers, default one), e.g. "
                         "CTC-SP2-1996-3.1-cln.swf.gz:338:conservative or "
                         "CTC-SP2-1996-3.1-cln.swf.gz:338:cmcbf,acfcfs:2 (repeatable)")
    ap.add_argument("--match", help="only speed configurations whose trace or policy contains this")
    ap.add_argument("--changed", action="append", default=[], metavar="POLICY",
                    help="a policy whose schedule changed on purpose since --base (e.g. "
                         "conservative since the fixes of issue 11): a difference is reported, "
                         "not a failure")
    args = ap.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    base_dir = tempfile.mkdtemp(prefix="cloudsim-base-")
    os.makedirs(base_dir + "-out", exist_ok=True)
    subprocess.run(["git", "-C", REPO, "worktree", "add", "--detach", base_dir, args.base],
                   check=True, capture_output=True)
    trees = (("base", base_dir), ("head", REPO))
    failed = False
    try:
        if args.only in (None, "outputs"):
            print(f"# jobs.csv on {KTH[0]}, seed 1: base {args.base} vs this checkout")
            checks = [(KTH[0], KTH[1], policy, tiers) for policy, tiers in OUTPUTS]
            for spec in args.outputs_trace:
                name, procs, policies, *tiers = spec.split(":")
                checks += [(name, int(procs), policy, int(tiers[0]) if tiers else 1)
                           for policy in policies.split(",")]
            for name, procs, policy, tiers in checks:
                digests = []
                stem = f"{os.path.basename(name).split('.')[0]}-{policy}-{tiers}"
                for label, tree in trees:
                    out = os.path.join(args.keep, f"{stem}-{label}.csv") if args.keep else \
                        os.path.join(base_dir + "-out", f"{stem}-{label}.csv")
                    digests.append(run(tree, os.path.join(traces_dir(), name), procs, policy, tiers, out)[3])
                same = digests[0] == digests[1]
                expected = policy in args.changed
                failed |= not same and not expected
                verdict = "identical" if same else ("changed (expected)" if expected else "DIFFERENT")
                where = "" if name == KTH[0] else f"  ({name})"
                print(f"{policy:13} tiers={tiers}  {verdict}  "
                      f"{digests[0][:16]}  {digests[1][:16]}{where}", flush=True)
        if args.only in (None, "speed"):
            print(f"\n# whole-run CPU seconds, best of {args.repeat}, interleaved; {sys.version.split()[0]}")
            print(f"{'trace':32} {'policy':13} {'tiers':>5} {'jobs':>7} {'base s':>7} {'head s':>7} "
                  f"{'head/base':>9} {'head jobs/s':>11}")
            for name, procs, policy, tiers, path in speed_configs(args.match):
                best = {"base": float("inf"), "head": float("inf")}
                jobs = 0
                for _ in range(args.repeat):
                    for label, tree in trees:
                        secs, jobs, _, _ = run(tree, path, procs, policy, tiers)
                        best[label] = min(best[label], secs)
                print(f"{name:32} {policy:13} {tiers:5d} {jobs:7d} {best['base']:7.2f} "
                      f"{best['head']:7.2f} {best['head'] / best['base']:9.3f} "
                      f"{jobs / best['head']:11,.0f}", flush=True)
        if args.only == "instructions":
            if shutil.which("valgrind") is None:
                raise SystemExit("--only instructions needs valgrind (apt install valgrind)")
            print(f"\n# simulation instructions (callgrind), millions; {sys.version.split()[0]}")
            print(f"{'trace':32} {'policy':13} {'tiers':>5} {'base M':>9} {'head M':>9} {'head/base':>9}")
            for name, procs, policy, tiers, path in speed_configs(args.match):
                base_ir, head_ir = (instructions(tree, path, procs, policy, tiers) for _, tree in trees)
                print(f"{name:32} {policy:13} {tiers:5d} {base_ir / 1e6:9,.0f} {head_ir / 1e6:9,.0f} "
                      f"{head_ir / base_ir:9.3f}", flush=True)
    finally:
        subprocess.run(["git", "-C", REPO, "worktree", "remove", "--force", base_dir], capture_output=True)
        shutil.rmtree(base_dir + "-out", ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
