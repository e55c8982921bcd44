#!/usr/bin/env python3
"""What starting a run costs (issue 19, *a fast start*: the imports of a run under 0.15 s).

Times, as CPU seconds (user + system, every thread) of fresh processes, alternating, best of
``--repeat`` after an untimed warm-up round (the bytecode cache written, as in an installed
package):

- a bare interpreter (``python -c pass``), subtracted from the others;
- a ``cloudsim-py run`` of a three-job datacenter scenario (``python -c "from cloudsim_py.cli
  import main; main([...])"``: the imports, the scenario read, three jobs simulated, the outputs
  written);
- *the imports of a run*: a process that imports, with one BLAS thread as the command line
  has, every module that such a run had loaded and a bare interpreter had not (found by a first
  child process; the few that C extensions register under names of their own are left to
  them), and does nothing else;
- ``import numpy`` alone, with and without ``OPENBLAS_NUM_THREADS=1`` (which the command line
  sets for itself: :func:`cloudsim_py.cli.one_blas_thread`).

    python benchmarks/bench_imports.py --repeat 7
    PYTHONPATH=/path/to/other/tree python benchmarks/bench_imports.py   # another tree

The modules a run imports, and what each costs, are shown by
``python -X importtime -m cloudsim_py.cli run SCENARIO --quiet 2> imports.txt``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

SCENARIO = "name: start\ndatacenter: {hosts: 4}\nworkload: {trace: %s}\nbroker: easy\n"
TRACE = "".join(f"{i} {10 * i} 0 {50 + i} {1 + i % 4} -1 -1 {1 + i % 4} {100 + i} -1 1 1 1 1 1 1 -1 -1\n"
                for i in range(1, 4))


def cpu_of(cmd: list[str], env: dict[str, str], cwd: str) -> float:
    """CPU seconds (user + system) of one fresh child process, run in ``cwd`` (a ``python -c``
    child puts its working folder first on ``sys.path``: run from a checkout it would import
    that checkout's package whatever ``PYTHONPATH`` says)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "t.swf")
        with open(trace, "w") as f:
            f.write(TRACE)
        scenario = os.path.join(tmp, "s.yaml")
        with open(scenario, "w") as f:
            f.write(SCENARIO % trace)
        out = os.path.join(tmp, "out")
        call = f"main(['run', {scenario!r}, '--quiet', '--force', '--out', {out!r}])"
        run = f"from cloudsim_py.cli import main\nraise SystemExit({call})\n"
        env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        env.pop("PYTHONDONTWRITEBYTECODE", None)          # bytecode cached, as once installed
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pyc")
        one = dict(env, OPENBLAS_NUM_THREADS="1")
        listed = os.path.join(tmp, "modules.txt")
        show = "import sys\nopen({!r}, 'w').write(' '.join(sorted(sys.modules)))\n"
        cpu_of([args.python, "-c", show.format(listed + ".bare")], env, tmp)
        cpu_of([args.python, "-c", f"from cloudsim_py.cli import main\ncode = {call}\n{show.format(listed)}"
                                   "raise SystemExit(code)\n"], env, tmp)
        with open(listed) as f, open(listed + ".bare") as g:
            modules = sorted(set(f.read().split()) - set(g.read().split()) - {"__main__"})
        # (a few are not importable by name: modules that C extensions register themselves)
        imports = (f"import importlib\nfor m in {modules!r}:\n    try:\n        importlib.import_module(m)\n"
                   "    except ImportError:\n        pass\n")
        cases = {
            "bare interpreter": ([args.python, "-c", "pass"], env),
            "cloudsim-py run (3 jobs)": ([args.python, "-c", run], env),
            f"imports of a run ({len(modules)})": ([args.python, "-c", imports], one),
            "import numpy": ([args.python, "-c", "import numpy"], env),
            "import numpy, 1 BLAS thread": ([args.python, "-c", "import numpy"], one),
        }
        for cmd, e in cases.values():                      # warm-up: the bytecode cache
            cpu_of(cmd, e, tmp)
        best = {name: float("inf") for name in cases}
        for _ in range(max(1, args.repeat)):
            for name, (cmd, e) in cases.items():
                best[name] = min(best[name], cpu_of(cmd, e, tmp))
    bare = best["bare interpreter"]
    print(f"# CPU s of fresh processes, best of {args.repeat} after a warm-up round, alternating; "
          f"{args.python}")
    print(f"{'process':<30} {'CPU s':>7} {'over bare':>10}")
    for name, secs in best.items():
        print(f"{name:<30} {secs:7.3f} {secs - bare:10.3f}")


if __name__ == "__main__":
    main()
