"""Every example in examples/ runs as a reader would run it, and says something checkable.

The YAML examples run through the command line in a subprocess (from the repository, with the
package on PYTHONPATH, the output in a temporary folder); the Python ones through ``runpy``,
calling their ``main``. An example that needs a file from ../shared is skipped, with the reason,
when the file is missing. docs/examples.md lists them; ``test_gallery_lists_every_example``
keeps the two in step."""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from cloudsim_py.workload.shared_data import workflows_dir
from tests.conftest import REPO, traces_dir

EXAMPLES = REPO / "examples"


def run_cli(*args: str) -> str:
    """``cloudsim-py ARGS`` from the repository; its standard output (fails on an error)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO)] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    proc = subprocess.run([sys.executable, "-m", "cloudsim_py.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def metric_row(table: str, name: str) -> list[float]:
    """The numbers of one row of a `run` summary table (`avg wait (min)  1,126.8  351.2`)."""
    for line in table.splitlines():
        if line.startswith(name + " "):
            return [float(c.replace(",", "")) if c != "-" else float("nan")
                    for c in line[len(name):].split()]
    raise AssertionError(f"no row {name!r} in:\n{table}")


def header(table: str) -> list[str]:
    return next(line for line in table.splitlines() if line.startswith("metric")).split()[1:]


def _words(line: str) -> str:
    return " ".join(line.split())


def gallery_sample(command: str, doc: str = "examples.md") -> list[str]:
    """The output lines docs/DOC shows under ``$ COMMAND`` (up to the next ``$`` line or the
    block's end; a ``...`` line stands for rows left out)."""
    lines = (REPO / "docs" / doc).read_text().splitlines()
    start = lines.index(f"$ {command}") + 1
    sample = []
    for line in lines[start:]:
        if line.startswith("$ ") or line.startswith("```"):
            break
        if line != "...":
            sample.append(line)
    return sample


def check_gallery(command: str, output: str, doc: str = "examples.md") -> None:
    """Every line docs/DOC shows for ``command`` is in what it printed (spacing aside), so the
    sample outputs of the gallery and the tutorial cannot drift from what the examples print."""
    printed = {_words(line) for line in output.splitlines()}
    missing = [line for line in gallery_sample(command, doc) if _words(line) not in printed]
    assert not missing, f"docs/{doc} shows for `{command}` lines it no longer prints: {missing}"


def run_example(name: str, tmp_path: Path) -> str:
    """``cloudsim-py run examples/NAME``, checked against the gallery's sample output."""
    out = run_cli("run", f"examples/{name}", "--out", str(tmp_path / "out"))
    if f"$ cloudsim-py run examples/{name}" in (REPO / "docs" / "examples.md").read_text():
        check_gallery(f"cloudsim-py run examples/{name}", out)
    return out


def test_k1_backfilling_beats_fcfs(tmp_path):
    out = run_example("k1_backfilling.yaml", tmp_path)
    assert header(out) == ["fcfs", "easy", "conservative"]
    assert metric_row(out, "jobs finished") == [400, 400, 400]
    fcfs, easy, cons = metric_row(out, "avg wait (min)")
    assert easy < fcfs and cons < fcfs


def test_k2_consolidation_uses_the_background_tier(tmp_path):
    out = run_example("k2_consolidation.yaml", tmp_path)
    assert header(out) == ["fcfs", "easy", "ccfcfs", "acfcfs"]
    fcfs, easy, ccfcfs, acfcfs = metric_row(out, "avg bounded slowdown")
    assert max(ccfcfs, acfcfs) < min(fcfs, easy)


def test_mbf_family_preempts(tmp_path):
    out = run_example("mbf_family.yaml", tmp_path)
    assert header(out) == ["easy", "cmbf", "ambf", "cmcbf", "amcbf"]
    preemptions = metric_row(out, "preemptions")
    assert preemptions[0] == 0 and all(p > 0 for p in preemptions[1:])


def test_k4_ktcbf_runs_on_four_tiers(tmp_path):
    out = run_example("k4_ktcbf.yaml", tmp_path)
    assert header(out) == ["easy", "ktcbf"]
    easy, ktcbf = metric_row(out, "avg wait (min)")
    assert ktcbf < easy and metric_row(out, "jobs finished") == [400, 400]


def test_moldable_prio_pect_reports_classes(tmp_path):
    out = run_example("moldable_prio_pect.yaml", tmp_path)
    assert header(out) == ["prio", "pect"]
    assert metric_row(out, "preemptions")[1] > 0          # PECT's time slices suspend jobs
    summary = json.loads((tmp_path / "out" / "pect" / "summary.json").read_text())["summary"]
    # per-class metrics (metrics.classes): short, medium and long jobs, 400 in all
    assert sum(summary[f"count_{c}"] for c in "SML") == 400 and "avg_bsld_S" in summary


def test_leases_ar_best_effort_immediate(tmp_path):
    out = run_example("leases.yaml", tmp_path)
    assert "1 cloud(s): lab (8 x node)" in out
    assert metric_row(out, "leases finished") == [4]
    assert metric_row(out, "leases rejected") == [1]      # the immediate lease that cannot fit
    assert metric_row(out, "ARs finished") == [1]
    assert metric_row(out, "best-effort leases preempted") == [1]


def test_dags_over_two_clouds(tmp_path):
    out = run_example("dags_clouds.yaml", tmp_path)
    assert "east (16 x small), west (8 x big)" in out
    assert metric_row(out, "DAG jobs finished") == [24, 24]


def test_sweep_then_report(tmp_path):
    results = tmp_path / "sweep.csv"
    out = run_cli("sweep", "examples/sweep_load.yaml", "--results", str(results), "--jobs", "1", "-q")
    assert "18 runs; 18 run now (0 failed)" in out
    report = run_cli("report", str(results), "--rows", "workload.model.load", "--cols", "policy")
    assert re.search(r"^0\.8\s", report, re.M) and "ccfcfs" in report
    check_gallery("cloudsim-py report results/examples/sweep.csv --rows workload.model.load "
                  "--cols policy", report)


def test_trace_kth(tmp_path):
    if not (traces_dir() / "KTH-SP2-1996-2.1-cln.swf.gz").is_file():
        pytest.skip(f"KTH-SP2-1996-2.1-cln.swf.gz not in {traces_dir()} (set CLOUDSIM_PY_TRACES)")
    out = run_example("trace_kth.yaml", tmp_path)
    assert "100 hosts" in out and metric_row(out, "jobs finished") == [2000, 2000]


def test_workflows_over_clouds(tmp_path):
    needed = ["montage-chameleon-dss-05d-001.json", "helloworld-forkjoin-10-chameleon.json"]
    missing = [n for n in needed if not (Path(workflows_dir()) / n).is_file()]
    if missing:
        pytest.skip(f"{', '.join(missing)} not in {workflows_dir()} (set CLOUDSIM_PY_WORKFLOWS)")
    out = run_example("workflows_clouds.yaml", tmp_path)
    assert metric_row(out, "DAG jobs finished") == [2, 2]


def test_a_dax_workflow_over_clouds(tmp_path):
    out = run_example("dax_clouds.yaml", tmp_path)
    assert "east (3 x small), west (3 x small)" in out
    assert metric_row(out, "DAG jobs finished") == [2, 2] and metric_row(out, "tasks finished") == [20, 20]
    # no run beats the DAG's critical path without transfers: 13 + 3 x 16.667 ... = 61.001 s
    assert all(t >= 61.001 for t in metric_row(out, "avg job execution time (s)"))


def test_the_example_dax_file_holds_topcuoglus_dag_and_critical_path():
    from cloudsim_py.workload.dag import critical_path, runtime_cost
    from cloudsim_py.workload.dax import read_dax

    job = read_dax(EXAMPLES / "topcuoglu2002.dax").job
    assert (job.tasks, job.graph.number_of_edges()) == (10, 15)
    # with each edge's data at 1 MB/s: the paper's critical path n1, n2, n9, n10 of length 108
    # (108.001: the mean costs 50/3 and 44/3 rounded to 16.667 and 14.667)
    length, path = critical_path(job, runtime_cost(job), lambda u, v: job.graph.edges[u, v]["data_mb"])
    assert path == ["n1", "n2", "n9", "n10"] and length == pytest.approx(108.001, abs=1e-9)


def test_custom_listener_counts_background_starts(capsys):
    watch = runpy.run_path(str(EXAMPLES / "custom_listener.py"))["main"]()
    assert set(watch.starts) == {"fcfs", "easy", "ccfcfs", "acfcfs"}
    assert all(sum(c.values()) == 400 for c in watch.starts.values())
    assert set(watch.starts["fcfs"]) == {0} and watch.starts["ccfcfs"][1] > 0
    check_gallery("python examples/custom_listener.py", capsys.readouterr().out)


def test_custom_metric_in_memory_and_from_jobs_csv(tmp_path, capsys):
    main = runpy.run_path(str(EXAMPLES / "custom_metric.py"))["main"]
    in_memory = main()
    check_gallery("python examples/custom_metric.py", capsys.readouterr().out)
    assert set(in_memory) == {"fcfs", "easy", "conservative"}
    run_example("k1_backfilling.yaml", tmp_path)
    from_csv = main(str(tmp_path / "out" / "easy" / "jobs.csv"))
    assert list(from_csv.values()) == [pytest.approx(in_memory["easy"])]
    assert "wide-job p95 wait" in capsys.readouterr().out


def test_custom_broker_example_runs_and_sjf_starves_wide_jobs_more_than_easy(capsys):
    mod = runpy.run_path(str(EXAMPLES / "custom_broker.py"))
    out = mod["main"](200)
    check_gallery("python examples/custom_broker.py 200", capsys.readouterr().out)
    assert all(s["jobs_finished"] == 200 for s in out.values())
    # shortest-first with no reservation lets some wide job wait longer than EASY does
    assert out["sjf"]["max_wait"] > out["easy"]["max_wait"]


def test_step_by_step_example_runs_every_job():
    mod = runpy.run_path(str(EXAMPLES / "step_by_step.py"))
    trail = mod["main"]()
    assert trail[0] == (0.0, 4, 0) and len(trail) == 20


# the tutorial (docs/tutorial-broker.md), step by step

def test_tutorial_plugin_policy_runs_and_its_files_read_back(tmp_path, capsys):
    out = run_cli("run", "examples/tutorial/smallest_first.yaml", "--out", str(tmp_path / "sf"))
    assert header(out) == ["fcfs", "easy", "smallest-first"]
    check_gallery("cloudsim-py run examples/tutorial/smallest_first.yaml --out results/tutorial/sf",
                  out, "tutorial-broker.md")
    runs = runpy.run_path(str(EXAMPLES / "tutorial" / "read_results.py"))["main"](str(tmp_path / "sf"))
    assert set(runs) == {"fcfs", "easy", "smallest-first"}
    assert runs["smallest-first"]["avg_wait"] < runs["easy"]["avg_wait"]
    assert runs["smallest-first"]["longest_wait_procs"] == 64     # what the tutorial says
    check_gallery("python examples/tutorial/read_results.py results/tutorial/sf",
                  capsys.readouterr().out, "tutorial-broker.md")


def test_tutorial_reservation_policy_makes_easys_decisions(tmp_path):
    out = run_cli("run", "examples/tutorial/reserve_head.yaml", "--out", str(tmp_path / "rh"))
    assert header(out) == ["easy", "reserve-head", "smallest-first"]
    check_gallery("cloudsim-py run examples/tutorial/reserve_head.yaml --out results/tutorial/rh",
                  out, "tutorial-broker.md")
    for row in ("avg wait (min)", "max wait (min)", "avg bounded slowdown", "utilization"):
        easy, mine, _ = metric_row(out, row)
        assert mine == easy, row
    # the same schedule, job by job
    jobs = [(tmp_path / "rh" / label / "jobs.csv").read_text() for label in ("easy", "reserve-head")]
    assert jobs[0] == jobs[1]


def test_gallery_lists_every_example():
    gallery = (REPO / "docs" / "examples.md").read_text()
    files = sorted(p.relative_to(EXAMPLES).as_posix() for p in EXAMPLES.rglob("*")
                   if p.suffix in {".py", ".yaml", ".ipynb"} and "__pycache__" not in p.parts
                   and ".ipynb_checkpoints" not in p.parts)
    missing = [f for f in files if f"examples/{f}" not in gallery]
    assert not missing, f"docs/examples.md does not list {missing}"


def _blocks(markdown: str, languages: tuple[str, ...]) -> list[str]:
    return re.findall(r"^```(?:%s)\n(.*?)^```" % "|".join(languages), markdown, re.M | re.S)


def _in_order(lines: list[str], text: list[str]) -> bool:
    """``lines`` occur in ``text`` in this order (other lines may come between)."""
    it = iter(text)
    return all(any(line == t for t in it) for line in lines)


def test_tutorial_code_is_the_code_of_its_example_files():
    """Every Python and YAML block of the tutorial's steps is taken from a file in
    examples/tutorial/ (its lines, in order), so the tutorial cannot drift from what the tests
    above run."""
    tutorial = (REPO / "docs" / "tutorial-broker.md").read_text().split("## Reference")[0]
    sources = [[line.split("  # type: ignore")[0].rstrip() for line in p.read_text().splitlines()]
               for p in sorted((EXAMPLES / "tutorial").glob("*")) if p.suffix in {".py", ".yaml"}]
    blocks = _blocks(tutorial, ("python", "yaml"))
    assert len(blocks) >= 5
    for block in blocks:
        lines = [line.rstrip() for line in block.splitlines() if line.strip()]
        assert any(_in_order(lines, src) for src in sources), block[:200]


def test_learning_example_on_a_reduced_budget_beats_fcfs_on_the_held_out_workload(capsys):
    pytest.importorskip("gymnasium", reason="the [rl] extra (gymnasium) is not installed")
    main = runpy.run_path(str(EXAMPLES / "learn_scheduler.py"))["main"]
    out = main(["--iterations", "2", "--population", "6", "--episodes", "2", "--jobs", "256",
                "--test-jobs", "2000"])
    text = capsys.readouterr().out
    assert "iteration 2/2" in text and "held-out:" in text
    summaries = out["summaries"]
    assert list(summaries) == ["fcfs", "easy", "sjf-backfill", "learned"]
    assert all(s["jobs_finished"] == summaries["fcfs"]["jobs_finished"] for s in summaries.values())
    # even two iterations of six candidates find weights far better than FCFS's order
    assert summaries["learned"]["avg_bsld"] < summaries["fcfs"]["avg_bsld"] / 2
    assert len(out["history"]) == 2 and len(out["weights"]) == 4


def test_stable_baselines3_example_trains_and_runs_the_policy_as_a_broker(capsys):
    pytest.importorskip("stable_baselines3", reason="stable-baselines3 (and PyTorch) not installed")
    main = runpy.run_path(str(EXAMPLES / "learn_sb3.py"))["main"]
    out = main(["--steps", "300", "--test-jobs", "200"])
    assert set(out) >= {"fcfs", "easy"} and len(out) == 3
    assert all(s["jobs_finished"] + s["jobs_rejected"] == 200 for s in out.values())
