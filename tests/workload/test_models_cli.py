"""``workload generate`` and ``workload stats`` (commands.py), through their argparse parsers."""

from __future__ import annotations

import argparse
import gzip

import numpy as np
import pytest

from cloudsim_py.commands.workload import add_workload_commands, parse_params
from cloudsim_py.workload.swf import read_header
from cloudsim_py.workload.table import read_table


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="cloudsim-py")
    add_workload_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.func(args)


def test_generate_writes_a_valid_swf_with_model_parameters_and_seed(tmp_path, capsys):
    out = tmp_path / "out.swf"
    assert run("workload", "generate", "--model", "lublin03", "--jobs", "10000", "--procs", "128",
               "--load", "0.8", "--seed", "1", "-o", str(out)) == 0
    table = read_table(out)
    h = read_header(out)
    assert len(table) == 10_000 and h.max_procs == 128
    assert h.fields["Model"] == "lublin03" and h.fields["Seed"] == "1"
    assert h.fields["Param_load"] == "0.8" and float(h.fields["OfferedLoad"]) == pytest.approx(0.8, abs=1e-3)
    assert "offered load 0.800" in capsys.readouterr().out


def test_same_seed_same_file(tmp_path):
    a, b = tmp_path / "a.swf", tmp_path / "b.swf"
    for path in (a, b):
        assert run("workload", "generate", "--model", "feitelson96", "--jobs", "500", "--seed", "3", "-o", str(path)) == 0
    assert a.read_bytes() == b.read_bytes()


def test_param_values_are_yaml_and_dotted_keys_nest():
    assert parse_params(["typed=false", "batch.serial_prob=0.3", "batch.uprob=0.8", "fit=CTC-SP2-1996"]) == {
        "typed": False, "batch": {"serial_prob": 0.3, "uprob": 0.8}, "fit": "CTC-SP2-1996"}


def test_generate_with_params_and_tsafrir_estimates(tmp_path):
    out = tmp_path / "j.swf"
    assert run("workload", "generate", "--model", "lublin03", "--jobs", "2000", "--param", "typed=false",
               "--param", "typeless.serial_prob=0.5", "--param", "typeless.pow2_prob=0.4",
               "--estimates", "tsafrir05", "-o", str(out)) == 0
    t = read_table(out)
    assert np.mean(t.col("alloc_procs") == 1) == pytest.approx(0.5, abs=0.04)
    assert np.all(t.col("req_time") >= t.col("run"))
    assert read_header(out).fields["Param_typeless_serial_prob"] == "0.5"


def test_bad_model_parameter_is_a_clear_error(tmp_path, capsys):
    assert run("workload", "generate", "--model", "lublin03", "--jobs", "10", "--load", "0",
               "-o", str(tmp_path / "x.swf")) == 2
    assert "model.load: must be in (0, 1.5]" in capsys.readouterr().err
    assert run("workload", "generate", "--model", "nope", "--jobs", "10", "-o", str(tmp_path / "x.swf")) == 2
    assert "unknown workload model 'nope'" in capsys.readouterr().err


def test_stats_prints_counts_load_summaries_and_the_short_job_table(tmp_path, capsys):
    out = tmp_path / "out.swf"
    run("workload", "generate", "--model", "jann97", "--jobs", "3000", "--load", "0.7", "-o", str(out))
    capsys.readouterr()
    assert run("workload", "stats", str(out)) == 0
    text = capsys.readouterr().out
    assert "jobs            3000 of 3000 records" in text
    assert "machine         322 processors (header MaxProcs)" in text
    assert "offered load    0.700" in text
    assert "% of short" in text and "(64,128]" in text and "runtime (s)" in text


def _write(path, header, jobs):
    lines = [f"; {k}: {v}" for k, v in header.items()]
    for i, (submit, procs, run_) in enumerate(jobs, 1):
        lines.append(f"{i} {submit} -1 {run_} {procs} -1 -1 {procs} -1 -1 1 -1 -1 -1 -1 -1 -1 -1")
    path.write_text("\n".join(lines) + "\n")


def test_stats_warns_naming_the_line_of_a_job_larger_than_maxprocs(tmp_path, capsys):
    f = tmp_path / "bad.swf"
    _write(f, {"MaxProcs": 8}, [(0, 4, 10), (5, 16, 10), (9, 2, 10)])
    assert run("workload", "stats", str(f)) == 0
    err = capsys.readouterr().err
    assert f"warning: {f}:3: job 2 uses 16 processors, more than the header's MaxProcs 8" in err
    assert run("workload", "stats", "--strict", str(f)) == 1
    assert f"error: {f}:3: job 2" in capsys.readouterr().err


def test_stats_on_a_broken_file_is_an_error_naming_the_line(tmp_path, capsys):
    f = tmp_path / "broken.swf"
    f.write_text("; MaxProcs: 8\n1 0 -1 10 4\n")
    assert run("workload", "stats", str(f)) == 2
    assert f"{f}:2: expected 18 SWF fields" in capsys.readouterr().err


def test_stats_reads_gzip_files(tmp_path, capsys):
    f = tmp_path / "w.swf"
    _write(f, {"MaxProcs": 8}, [(0, 1, 10), (100, 2, 30), (200, 8, 400)])
    gz = tmp_path / "w.swf.gz"
    gz.write_bytes(gzip.compress(f.read_bytes()))
    assert run("workload", "stats", str(gz)) == 0
    # work 1x10 + 2x30 + 8x400 = 3270 over 8 processors x 200 s -> 2.044
    assert "offered load    2.044" in capsys.readouterr().out


def test_generate_refuses_more_jobs_than_memory_holds_naming_the_option(tmp_path, capsys, monkeypatch):
    # once a MemoryError: --jobs 1000000000000 was allocated before anything was checked
    monkeypatch.setenv("CLOUDSIM_PY_MEMORY_LIMIT", "64M")
    out = tmp_path / "out.swf"
    assert run("workload", "generate", "--model", "lublin03", "--jobs", "1000000000000", "-o", str(out)) == 2
    assert capsys.readouterr().err == ("cloudsim-py: error: --jobs: 1,000,000,000,000 jobs need about 466 TiB of memory, "
                                       "more than the limit of 64 MiB ($CLOUDSIM_PY_MEMORY_LIMIT)\n")
    assert not out.exists()


def test_stats_of_one_job_says_so_instead_of_printing_nan(tmp_path, capsys):
    f = tmp_path / "one.swf"
    _write(f, {"MaxProcs": 8}, [(0, 4, 100)])
    assert run("workload", "stats", str(f)) == 0
    out = capsys.readouterr().out
    assert "span            0.0 days, one job\n" in out
    assert "offered load    n/a (one job)\n" in out
    assert "corr n/a (size or runtime constant)" in out
    assert "nan" not in out and "inf" not in out


def test_stats_of_jobs_submitted_at_one_time_has_no_rate_or_load(tmp_path, capsys):
    f = tmp_path / "burst.swf"
    _write(f, {"MaxProcs": 8}, [(0, 1, 10), (0, 2, 30)])
    assert run("workload", "stats", str(f)) == 0
    out = capsys.readouterr().out
    assert "span            0.0 days, every job submitted at one time\n" in out
    assert "offered load    n/a (every job submitted at one time)\n" in out
    assert "corr +1.000" in out             # two points on a line


DAX_TWO = """<adag version="2.1" name="two">
  <job id="a" name="split" runtime="2"><uses file="f" link="output" size="3000000"/></job>
  <job id="b" name="join" runtime="3.5"><uses file="f" link="input" size="3000000"/></job>
  <child ref="b"><parent ref="a"/></child>
</adag>
"""


def test_workflow_describes_a_dax_file(tmp_path, capsys):
    f = tmp_path / "two.xml"
    f.write_text(DAX_TWO)
    assert run("workload", "workflow", str(f)) == 0
    out = capsys.readouterr().out
    assert "workflow        two (DAX 2.1)\n" in out
    assert "tasks           2, 1 edges, 3.0 MB of data on the edges\n" in out
    assert "critical path   5.500 s over 2 tasks" in out           # 2 + 3.5
    assert "makespan        not in the file\n" in out and "machines        not in the file\n" in out


def test_workflow_describes_a_wfformat_file_with_its_measured_makespan(tmp_path, capsys):
    f = tmp_path / "one.json"
    f.write_text('{"name": "one", "schemaVersion": "1.4", "workflow": {"makespanInSeconds": 9, "machines": '
                 '[{"nodeName": "m", "cpu": {"count": 4}}], "tasks": [{"name": "t", "parents": [], '
                 '"runtimeInSeconds": 7, "machine": "m"}]}}')
    assert run("workload", "workflow", str(f)) == 0
    out = capsys.readouterr().out
    assert "workflow        one (WfFormat 1.4)\n" in out and "critical path   7.000 s over 1 tasks" in out
    assert "makespan        9.000 s measured\n" in out and "machines        m (4 cores)\n" in out


def test_workflow_says_a_zero_makespan_under_a_longer_critical_path_is_no_measurement(tmp_path, capsys):
    # WfCommons' generator writes makespanInSeconds 0 into its synthetic instances
    f = tmp_path / "gen.json"
    f.write_text('{"name": "gen", "schemaVersion": "1.4", "workflow": {"makespanInSeconds": 0, "machines": [], '
                 '"tasks": [{"name": "t", "parents": [], "runtimeInSeconds": 7}]}}')
    assert run("workload", "workflow", str(f)) == 0
    assert "makespan        0 in the file: not a measurement (a generated instance?)\n" in capsys.readouterr().out


def test_workflow_on_a_bad_file_is_an_error_naming_it(tmp_path, capsys):
    good, bad = tmp_path / "two.xml", tmp_path / "bad.xml"
    good.write_text(DAX_TWO)
    bad.write_text(DAX_TWO.replace('runtime="2"', 'runtime="-2"'))
    assert run("workload", "workflow", str(good), str(bad)) == 2
    captured = capsys.readouterr()
    assert "two (DAX 2.1)" in captured.out
    assert f"cloudsim-py: error: {bad}:2: <adag/job[1]>: attribute 'runtime' = '-2' is invalid" in captured.err
