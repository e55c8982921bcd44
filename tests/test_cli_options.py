"""Command-line options are checked before anything is done with them, and a refused option or
an output file that cannot be written is a one-line error naming the option or the file, with
a non-zero exit (issue 17, "Silently wrong")."""

import os

import pytest

from cloudsim_py.cli import main


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf"])
def test_traces_fetch_refuses_a_timeout_that_is_not_a_positive_finite_number(value, tmp_path, capsys):
    code = main(["traces", "fetch", "KTH-SP2", "--timeout", value, "--cache", str(tmp_path),
                 "--base-url", "http://127.0.0.1:9/"])
    assert code == 2
    assert capsys.readouterr().err == f"cloudsim-py: error: --timeout must be a finite number of seconds > 0, got {value}\n"
    assert list(tmp_path.iterdir()) == []     # nothing was fetched


def test_workload_generate_refuses_a_negative_seed_naming_it(tmp_path, capsys):
    out = tmp_path / "w.swf"
    code = main(["workload", "generate", "--model", "lublin03", "--jobs", "10", "--seed", "-1", "-o", str(out)])
    assert code == 2
    assert capsys.readouterr().err == "cloudsim-py: error: --seed must be >= 0, got -1\n"
    assert not out.exists()


def test_workload_generate_into_a_missing_folder_names_the_output_file(tmp_path, capsys):
    out = tmp_path / "missing" / "w.swf"
    code = main(["workload", "generate", "--model", "lublin03", "--jobs", "10", "-o", str(out)])
    assert code == 2
    assert capsys.readouterr().err == f"cloudsim-py: error: -o {out}: cannot write (No such file or directory)\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_workload_generate_onto_a_full_disk_names_the_output_file(capsys):
    code = main(["workload", "generate", "--model", "lublin03", "--jobs", "10", "-o", "/dev/full"])
    assert code == 2
    assert capsys.readouterr().err == "cloudsim-py: error: -o /dev/full: cannot write (No space left on device)\n"
