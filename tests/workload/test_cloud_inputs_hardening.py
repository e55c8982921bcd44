"""Bad cloud inputs (Haizea lease files, WfFormat workflows, DAG jobs): each is refused with an
error naming the file (and the line, the attribute or the key where there is one), in bounded
time and memory; nothing is silently dropped or changed (issue 16, item 7)."""

import gzip
import json
import re
import time
import tracemalloc
from contextlib import contextmanager

import numpy as np
import pytest

from cloudsim_py.errors import DAGError, LeaseError, ScenarioError, SpecError, TraceError
from cloudsim_py.scenario import load_scenario
from cloudsim_py.workload import lease as L
from cloudsim_py.workload.dag import build_dag_job, check_distinct_ids
from cloudsim_py.workload.dag_spec import DagWorkloadSpec
from cloudsim_py.workload.lease import LeaseMode, LeaseRequest
from cloudsim_py.workload.lwf import read_lwf, read_lwf_old, read_lwf_xml
from cloudsim_py.workload.models.dag_li import LiDagModel
from cloudsim_py.workload.wfformat import read_wfformat, workflow_from_dict

LWF_XML = """<?xml version="1.0"?>
<lease-workload name="t">
<lease-requests>
  <lease-request arrival="00:00:00">
    <lease id="1" preemptible="true">
      <nodes><node-set numnodes="1"><res type="CPU" amount="100"/><res type="Memory" amount="512"/></node-set></nodes>
      <start/>
      <duration time="01:00:00"/>
      <software><disk-image id="img" size="100"/></software>
    </lease>
  </lease-request>
</lease-requests>
</lease-workload>
"""

LWF_OLD = """# submit start duration real nodes cpu mem disk image size
0 3600 1800 1200 4 1 1024 0 'foo.img' 600
"""

LWF_READERS = [read_lwf, read_lwf_xml, read_lwf_old]


@contextmanager
def bounded(seconds=5.0, megabytes=50.0):
    """The block uses under ``seconds`` of this process's CPU time (not the wall clock, which a
    busy machine stretches; the inputs these tests guard against took minutes or never ended)
    and allocates at most ``megabytes`` at its peak."""
    tracemalloc.start()
    start = time.process_time()
    try:
        yield
    finally:
        elapsed = time.process_time() - start
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        assert elapsed < seconds, f"took {elapsed:.2f} s"
        assert peak < megabytes, f"peaked at {peak:.0f} MB"


def write(tmp_path, data, name="w.lwf"):
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# -- LWF files that are not UTF-8 text ---------------------------------------------------------

@pytest.mark.parametrize("reader", LWF_READERS)
def test_a_latin1_xml_lease_file_names_the_line_and_the_byte(tmp_path, reader):
    path = write(tmp_path, LWF_XML.replace('id="img"', 'id="caf\u00e9"').encode("latin-1"))
    with pytest.raises(TraceError, match=r"w\.lwf:9: not UTF-8 text \(byte 0xe9 at column 36\)"):
        reader(path)


@pytest.mark.parametrize("reader", [read_lwf, read_lwf_old])
def test_a_latin1_old_format_lease_file_names_the_line_and_the_byte(tmp_path, reader):
    path = write(tmp_path, (LWF_OLD + "# caf\u00e9\n").encode("latin-1"))
    with pytest.raises(TraceError, match=r"w\.lwf:3: not UTF-8 text \(byte 0xe9 at column 6\)"):
        reader(path)


@pytest.mark.parametrize("reader", LWF_READERS)
def test_a_binary_lease_file_is_refused_as_binary(tmp_path, reader):
    path = write(tmp_path, LWF_OLD.encode() + bytes(range(256)))
    with pytest.raises(TraceError, match=r"w\.lwf:3: binary data \(a NUL byte at column 1\), not a text file"):
        reader(path)


@pytest.mark.parametrize("reader", LWF_READERS)
def test_a_lease_file_of_nul_bytes_is_refused_as_binary(tmp_path, reader):
    path = write(tmp_path, b"\0" * 1000)
    with pytest.raises(TraceError, match=r"w\.lwf:1: binary data"):
        reader(path)


@pytest.mark.parametrize("reader", LWF_READERS)
def test_a_gzip_lease_file_is_refused_as_compressed(tmp_path, reader):
    path = write(tmp_path, gzip.compress(LWF_XML.encode()), name="w.lwf.gz")
    with pytest.raises(TraceError, match=r"w\.lwf\.gz: gzip-compressed data, not text; decompress it first"):
        reader(path)


@pytest.mark.parametrize("reader", LWF_READERS)
@pytest.mark.parametrize("data", [b"", b" \n\n\t\n"], ids=["zero bytes", "blank"])
def test_an_empty_lease_file_is_refused(tmp_path, reader, data):
    with pytest.raises(TraceError, match=r"w\.lwf: empty file"):
        reader(write(tmp_path, data))


def test_a_utf8_lease_file_with_a_byte_order_mark_reads(tmp_path):
    assert len(read_lwf(write(tmp_path, "\ufeff" + LWF_XML))) == 1


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"], ids=["LF", "CRLF", "CR"])
def test_old_format_lines_end_at_any_newline_as_in_text_mode(tmp_path, newline):
    w = read_lwf(write(tmp_path, (LWF_OLD + LWF_OLD.splitlines()[1] + "\n").replace("\n", newline)))
    assert w.lines == (2, 3)


# -- LWF XML that would take unbounded time or memory ------------------------------------------

def test_xml_nested_20000_deep_is_refused_at_depth_64_naming_file_line_and_element(tmp_path):
    depth = 20_000
    path = write(tmp_path, "<lease-workload>\n" + "<a>" * depth + "</a>" * depth + "\n</lease-workload>\n")
    with bounded(), pytest.raises(TraceError, match=r"w\.lwf:2: <a>: elements nested more than 64 deep "
                                                    r"\(an LWF file needs at most 7\)"):
        read_lwf(path)


def test_ten_thousand_sibling_elements_are_read_in_linear_time(tmp_path):
    # each element's path names its position among its siblings of the same tag (<x[1]/y[10000]>)
    path = write(tmp_path, "<lease-workload><lease-requests/><x>" + "<y/>" * 10_000 + "</x></lease-workload>")
    with bounded():
        assert len(read_lwf(path)) == 0


def test_an_xml_entity_declaration_is_refused_naming_the_line(tmp_path):
    # the "billion laughs": ten entities of ten references each expand to 10**9 copies of "lol"
    entities = "".join(f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, 10))
    path = write(tmp_path, f'<?xml version="1.0"?>\n<!DOCTYPE w [\n<!ENTITY lol0 "lol">{entities}]>\n'
                           '<lease-workload name="&lol9;"><lease-requests/></lease-workload>\n')
    with bounded(), pytest.raises(TraceError, match=r"w\.lwf:3: entity declaration 'lol0': an LWF file "
                                                    r"declares no entities"):
        read_lwf(path)


# -- LWF numbers: finite, and not negative where a duration, count or size is meant ------------

BIG = "9" * 5000     # a 5,000-digit number: Python refuses to make an int of it, float() gives inf
LEASE = "lease-workload/lease-requests[1]/lease-request[1]"


@pytest.mark.parametrize("old, new, line, element, attribute, reason", [
    ('type="Memory" amount="512"', 'type="Memory" amount="inf"', 6, "lease[1]/nodes[1]/node-set[1]/res[2]", "amount",
     "must be a finite number >= 0"),
    ('type="CPU" amount="100"', 'type="CPU" amount="nan"', 6, "lease[1]/nodes[1]/node-set[1]/res[1]", "amount",
     "must be a finite number >= 0"),
    ('<res type="Memory" amount="512"/>', '<res type="Memory" amount="512"/><res type="Disk" amount="1e400"/>', 6,
     "lease[1]/nodes[1]/node-set[1]/res[3]", "amount", "must be a finite number >= 0"),
    ('size="100"', 'size="Infinity"', 9, "lease[1]/software[1]/disk-image[1]", "size", "must be a finite number >= 0"),
    ('time="01:00:00"', f'time="{"9" * 400}:00:00"', 8, "lease[1]/duration[1]", "time", "is too large"),
    ('arrival="00:00:00"', f'arrival="00:00:{"9" * 400}"', 4, "", "arrival", "is too large"),
    ("<start/>", f'<start><exact time="{"9" * 400}:00:00:00"/></start>', 7, "lease[1]/start[1]/exact[1]", "time",
     "is too large"),
], ids=["inf memory", "nan CPU", "1e400 disk", "Infinity image size", "huge duration", "huge arrival",
        "huge start"])
def test_a_non_finite_xml_number_names_file_line_element_and_attribute(tmp_path, old, new, line, element,
                                                                        attribute, reason):
    path = write(tmp_path, LWF_XML.replace(old, new))
    where = f"{LEASE}/{element}" if element else LEASE
    with pytest.raises(TraceError) as exc:
        read_lwf(path)
    message = str(exc.value)
    assert message.startswith(f"{path}:{line}: <{where}>: attribute {attribute!r} = ")
    assert "is invalid (" in message and reason in message
    assert len(message) < 400                 # the 400-digit text is not echoed whole


def test_a_negative_xml_real_duration_is_refused_naming_the_attribute(tmp_path):
    path = write(tmp_path, LWF_XML.replace('arrival="00:00:00">', 'arrival="00:00:00"><realduration time="-00:10:00"/>'))
    with pytest.raises(TraceError, match=rf"w\.lwf:4: <{re.escape(LEASE)}/realduration\[1\]>: attribute 'time' = "
                                         r"'-00:10:00' is invalid"):
        read_lwf(path)


@pytest.mark.parametrize("attribute", ['numnodes="1"', 'id="1"'])
def test_a_5000_digit_xml_integer_is_refused_naming_the_attribute_without_echoing_it(tmp_path, attribute):
    key = attribute.split("=")[0]
    path = write(tmp_path, LWF_XML.replace(attribute, f'{key}="{BIG}"'))
    with pytest.raises(TraceError, match=rf"attribute '{key}' = '9{{40}}'\.\.\. \(5,000 characters\) is invalid "
                                         r"\(must be an integer of at most 18 digits\)"):
        read_lwf(path)


OLD_LINE = "0 3600 1800 1200 4 1 1024 0 'foo.img' 600"
OLD_NAMES = ["submit", "start", "duration", "real_duration", "nodes", "cpu", "memory_mb", "disk_mb", "image_id",
             "image_mb"]


def old_line(**fields):
    parts = OLD_LINE.split()
    for name, value in fields.items():
        parts[OLD_NAMES.index(name)] = value
    return "# a lease\n" + " ".join(parts) + "\n"


@pytest.mark.parametrize("field", ["submit", "start", "duration", "real_duration", "cpu", "memory_mb", "disk_mb",
                                   "image_mb"])
@pytest.mark.parametrize("value", ["inf", "nan", "-Infinity", "1e400"])
def test_a_non_finite_old_format_field_names_file_line_and_field(tmp_path, field, value):
    path = write(tmp_path, old_line(**{field: value}))
    number = OLD_NAMES.index(field) + 1
    with pytest.raises(TraceError, match=rf"w\.lwf:2: field {number} \({field}\) is not a finite number: '{value}'"):
        read_lwf(path)


def test_a_negative_old_format_real_duration_is_refused_naming_the_field(tmp_path):
    path = write(tmp_path, old_line(real_duration="-1"))
    with pytest.raises(TraceError, match=r"w\.lwf:2: field 4 \(real_duration\) must be >= 0: '-1'"):
        read_lwf(path)


@pytest.mark.parametrize("field", ["duration", "nodes", "cpu", "memory_mb", "disk_mb", "image_mb"])
def test_a_negative_old_format_duration_count_or_size_is_refused_naming_the_field(tmp_path, field):
    path = write(tmp_path, old_line(**{field: "-5"}))
    with pytest.raises(TraceError, match=rf"w\.lwf:2: field {OLD_NAMES.index(field) + 1} \({field}\) must be >= 0"):
        read_lwf(path)


def test_a_5000_digit_old_format_node_count_is_refused_without_echoing_it(tmp_path):
    path = write(tmp_path, old_line(nodes=BIG))
    with pytest.raises(TraceError, match=r"w\.lwf:2: field 5 \(nodes\) must be an integer of at most 18 digits: "
                                         r"'9{40}'\.\.\. \(5,000 characters\)$"):
        read_lwf(path)


def test_old_format_start_minus_one_is_still_best_effort(tmp_path):
    [lease] = read_lwf(write(tmp_path, old_line(start="-1"))).leases
    assert (lease.mode.value, lease.start) == ("best-effort", None)


# -- the same values through the Python API: LeaseRequest --------------------------------------

def ar_lease(**kw):
    args = dict(id=2, submit_time=900.0, mode=LeaseMode.AR, start=1800.0, duration=1800.0, real_duration=1200.0,
                nodes=4, memory_mb=1024.0, image_mb=600.0, disk_mb=0.0)
    args.update(kw)
    return LeaseRequest(**args)


@pytest.mark.parametrize("key, reason", [
    ("submit_time", L.BAD_TIME), ("start", L.BAD_START), ("duration", L.BAD_DURATION),
    ("real_duration", L.BAD_REAL_DURATION), ("cpus_per_node", L.BAD_RESOURCES), ("memory_mb", L.BAD_RESOURCES),
    ("image_mb", L.BAD_RESOURCES), ("disk_mb", L.BAD_RESOURCES)])
@pytest.mark.parametrize("value", [float("inf"), float("nan"), "10"], ids=["inf", "nan", "a string"])
def test_a_lease_request_refuses_a_value_that_is_not_a_finite_number_naming_the_key(key, reason, value):
    with pytest.raises(LeaseError) as exc:
        ar_lease(**{key: value})
    assert exc.value.reason == reason
    assert str(exc.value).startswith("lease 2: ") and key in str(exc.value)


def test_a_lease_request_refuses_a_negative_real_duration():
    with pytest.raises(LeaseError, match=r"lease 2: real_duration -1 must be > 0 and at most the requested duration"):
        ar_lease(real_duration=-1)


# -- WfFormat files: text, depth, numbers ------------------------------------------------------

WORKFLOW = {
    "name": "tiny", "schemaVersion": "1.5",
    "workflow": {
        "specification": {
            "tasks": [
                {"name": "a", "id": "a", "parents": [], "children": ["b"], "inputFiles": [], "outputFiles": ["f"]},
                {"name": "b", "id": "b", "parents": ["a"], "children": [], "inputFiles": ["f"], "outputFiles": []},
            ],
            "files": [{"id": "f", "sizeInBytes": 3000000}],
        },
        "execution": {
            "makespanInSeconds": 10.0,
            "tasks": [{"id": "a", "runtimeInSeconds": 2.0, "coreCount": 2, "machines": ["m"]},
                      {"id": "b", "runtimeInSeconds": 3.0, "machines": ["m"]}],
            "machines": [{"nodeName": "m", "cpu": {"coreCount": 48, "speedInMHz": 1200}, "memoryInBytes": 1000000}],
        },
    },
}
WORKFLOW_TEXT = json.dumps(WORKFLOW, indent=1)


def workflow(tmp_path, old="", new="", name="w.json"):
    assert old in WORKFLOW_TEXT
    return write(tmp_path, WORKFLOW_TEXT.replace(old, new, 1), name=name)


def line_of(text, fragment):
    return text[:text.index(fragment)].count("\n") + 1


def test_the_wfformat_test_document_reads(tmp_path):
    assert read_wfformat(workflow(tmp_path)).job.tasks == 2


def test_a_latin1_wfformat_file_names_the_line_and_the_byte(tmp_path):
    path = write(tmp_path, WORKFLOW_TEXT.replace('"tiny"', '"caf\u00e9"').encode("latin-1"), name="w.json")
    with pytest.raises(TraceError, match=r"w\.json:2: not UTF-8 text \(byte 0xe9 at column 14\)"):
        read_wfformat(path)


def test_a_binary_wfformat_file_is_refused_as_binary(tmp_path):
    path = write(tmp_path, WORKFLOW_TEXT.encode() + bytes(range(256)), name="w.json")
    with pytest.raises(TraceError, match=rf"w\.json:{WORKFLOW_TEXT.count(chr(10)) + 1}: binary data \(a NUL byte"):
        read_wfformat(path)


def test_a_gzip_wfformat_file_is_refused_as_compressed(tmp_path):
    path = write(tmp_path, gzip.compress(WORKFLOW_TEXT.encode()), name="w.json.gz")
    with pytest.raises(TraceError, match=r"w\.json\.gz: gzip-compressed data, not text; decompress it first"):
        read_wfformat(path)


@pytest.mark.parametrize("data", [b"", b"\n \n", b"\0" * 100], ids=["zero bytes", "blank", "NUL bytes"])
def test_an_empty_or_nul_wfformat_file_is_refused(tmp_path, data):
    with pytest.raises(TraceError, match=r"w\.json(:1)?: (empty file|binary data)"):
        read_wfformat(write(tmp_path, data, name="w.json"))


@pytest.mark.parametrize("opening, closing", [("[", "]"), ('{"a": ', "}")], ids=["arrays", "objects"])
def test_json_nested_100000_deep_is_refused_naming_the_file_and_line(tmp_path, opening, closing):
    depth = 100_000
    path = write(tmp_path, '{"name": "deep",\n "x": ' + opening * depth + "1" * (opening == '{"a": ')
                 + closing * depth + "}\n", name="w.json")
    with bounded(), pytest.raises(TraceError, match=r"w\.json:2: JSON nested too deeply to read \(more than 100 "
                                                    r"levels here; a WfFormat document needs 6\)"):
        read_wfformat(path)


def test_brackets_inside_strings_do_not_count_as_nesting(tmp_path):
    depth = 100_000
    path = write(tmp_path, '{"s": "' + "[" * 200 + '",\n"x": ' + "[" * depth + "]" * depth + "}", name="w.json")
    with bounded(), pytest.raises(TraceError, match=r"w\.json:2: JSON nested too deeply"):
        read_wfformat(path)


RUNTIME = '"runtimeInSeconds": 2.0'


@pytest.mark.parametrize("old, new, key, shown", [
    (RUNTIME, '"runtimeInSeconds": 1e400', "workflow.execution.tasks[a].runtimeInSeconds", "1e400"),
    (RUNTIME, f'"runtimeInSeconds": {BIG}', "workflow.execution.tasks[a].runtimeInSeconds", "a 5,000-digit number"),
    ('"sizeInBytes": 3000000', f'"sizeInBytes": -{BIG}', "workflow.specification.files[0].sizeInBytes",
     "a 5,000-digit number"),
    ('"makespanInSeconds": 10.0', '"makespanInSeconds": 1.5e309', "workflow.execution.makespanInSeconds", "1.5e309"),
    ('"coreCount": 48', '"coreCount": 1e400', "workflow.execution.machines[0].cpu.coreCount", "1e400"),
    ('"memoryInBytes": 1000000', f'"memoryInBytes": {BIG}', "workflow.execution.machines[0].memoryInBytes",
     "a 5,000-digit number"),
], ids=["1e400 runtime", "5000-digit runtime", "5000-digit size", "1.5e309 makespan", "1e400 machine cores",
        "5000-digit machine memory"])
def test_a_number_no_float_holds_is_refused_naming_file_and_key(tmp_path, old, new, key, shown):
    with pytest.raises(TraceError) as exc:
        read_wfformat(workflow(tmp_path, old, new))
    assert str(exc.value) == f"{tmp_path / 'w.json'}: key {key} = {shown} is too large (beyond the largest float, " \
                             "about 1.8e308)"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_a_non_json_constant_is_refused_naming_file_and_key(tmp_path, constant):
    with pytest.raises(TraceError, match=rf"w\.json: key workflow\.execution\.tasks\[a\]\.runtimeInSeconds = "
                                         rf"{constant} is not a finite number$"):
        read_wfformat(workflow(tmp_path, RUNTIME, f'"runtimeInSeconds": {constant}'))


@pytest.mark.parametrize("value, shown", [(float("inf"), "inf"), (float("nan"), "nan"),
                                          (10 ** 5000, "an integer of about 5,000 digits")],
                         ids=["inf", "nan", "10**5000"])
def test_a_document_built_in_python_refuses_an_infinite_or_huge_runtime(value, shown):
    d = json.loads(WORKFLOW_TEXT)
    d["workflow"]["execution"]["tasks"][0]["runtimeInSeconds"] = value
    with pytest.raises(TraceError, match=rf"^d\.json: key workflow\.execution\.tasks\[a\]\.runtimeInSeconds = "
                                         rf"{shown} must be a finite number >= 0$"):
        workflow_from_dict(d, source="d.json")


def test_fractional_machine_cores_are_refused_not_truncated(tmp_path):
    with pytest.raises(TraceError, match=r"key workflow\.execution\.machines\[0\]\.cpu\.coreCount = 2\.5 must be "
                                         r"a whole number"):
        read_wfformat(workflow(tmp_path, '"coreCount": 48', '"coreCount": 2.5'))


# -- DAG job ids are distinct ------------------------------------------------------------------

def inline_job(job_id=None):
    job = {"tasks": {"a": {"runtime": 1.0}}}
    if job_id is not None:
        job["id"] = job_id
    return job


def spec_error(**kw):
    with pytest.raises(SpecError) as exc:
        DagWorkloadSpec(**kw)
    return exc.value


def test_two_inline_dag_jobs_with_one_id_are_refused_naming_the_id_and_both_entries():
    err = spec_error(jobs=[inline_job("x"), inline_job("y"), inline_job("x")])
    assert (err.path, err.message) == ("jobs.2.id", "job id 'x' is used twice: jobs.0 and jobs.2")


def test_an_inline_dag_job_id_equal_to_the_position_of_one_without_id_is_refused():
    err = spec_error(jobs=[inline_job(), inline_job(0)])
    assert (err.path, err.message) == ("jobs.1.id", "job id 0 is used twice: jobs.0 and jobs.1 (an entry without "
                                                    "id is numbered by its position)")


def test_an_inline_dag_job_id_must_be_a_string_or_an_integer():
    err = spec_error(jobs=[inline_job(["x"])])
    assert (err.path, err.message) == ("jobs.0.id", "expected a job id (a string or an integer), got a list")


def test_two_workflows_with_one_id_are_refused_naming_the_id_and_both_entries(tmp_path):
    path = str(workflow(tmp_path))
    err = spec_error(workflows=[{"path": path, "id": "w"}, path, {"path": path, "id": "w"}])
    assert (err.path, err.message) == ("workflows.2.id", "job id 'w' is used twice: workflows.0 and workflows.2")


def test_dag_jobs_built_in_python_with_one_id_are_refused_by_the_workload_spec():
    jobs = tuple(build_dag_job(job_id, {"a": {"runtime": 1.0}}, []) for job_id in ("x", "y", "y"))
    err = spec_error(jobs=jobs)
    assert (err.path, err.message) == ("jobs.2.id", "job id 'y' is used twice: jobs.1 and jobs.2")


def test_check_distinct_ids_names_the_id_and_both_positions():
    jobs = [build_dag_job(job_id, {"a": {"runtime": 1.0}}, []) for job_id in (3, 1, 3)]
    with pytest.raises(DAGError, match=r"^job id 3 is used twice: jobs\[0\] and jobs\[2\]$"):
        check_distinct_ids(jobs)


def test_li_model_jobs_are_numbered_0_to_n_minus_1_so_their_ids_differ():
    jobs = LiDagModel().generate(300, np.random.default_rng(5))
    assert [job.id for job in jobs] == list(range(300))


def test_a_scenario_with_two_dag_jobs_of_one_id_names_file_line_and_key(tmp_path):
    text = """\
federation:
  vm_types: {v: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 32}}
  clouds: [{name: c, vm_type: v, vms: 2}]
dags:
  jobs:
    - {id: j, tasks: {a: {runtime: 1}}}
    - {id: j, tasks: {a: {runtime: 2}}}
"""
    with pytest.raises(ScenarioError, match=r"s\.yaml:7: dags\.jobs\.1\.id: job id 'j' is used twice: jobs\.0 and "
                                            r"jobs\.1$"):
        load_scenario(write(tmp_path, text, name="s.yaml"))
