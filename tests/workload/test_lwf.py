"""Haizea lease workloads: LWF XML and the old whitespace format, on every shared file and on
malformed input (errors name file, line, element and attribute)."""

import glob
import os

import pytest

from cloudsim_py.errors import TraceError
from cloudsim_py.workload import lease as L
from cloudsim_py.workload.lease import LeaseMode
from cloudsim_py.workload.lwf import parse_time, read_lwf, read_lwf_old, read_lwf_xml
from cloudsim_py.workload.shared_data import leases_dir

AR, BE, IM = LeaseMode.AR, LeaseMode.BEST_EFFORT, LeaseMode.IMMEDIATE


# -- times -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, seconds", [("01:00:00.00", 3600.0), ("00:07:30.00", 450.0),
                                           ("00:00:00", 0.0), ("1:02:03:04.5", 93784.5)])
def test_times_are_dd_hh_mm_ss(text, seconds):
    assert parse_time(text) == seconds


@pytest.mark.parametrize("text", ["1:00", "00:-1:00", "aa:00:00", "00:00.5:00", "1:2:3:4:5"])
def test_malformed_times_are_value_errors(text):
    with pytest.raises(ValueError):
        parse_time(text)


# -- every shared XML file, counted by reading it -----------------------------------------------

#: file: (AR, best-effort, immediate, leases with a <realduration>, site nodes)
#: counted by hand from the files in ../shared/leases/haizea-tests/
XML_FILES = {
    "inj1.lwf": (13, 0, 0, 0, None),
    "inj2.lwf": (13, 0, 0, 0, None),
    "migrate.lwf": (2, 1, 0, 0, 4),
    "preemption.lwf": (1, 1, 0, 0, 4),
    "preemption_prematureend.lwf": (1, 1, 0, 1, 4),
    "preemption_prematureend2.lwf": (1, 1, 0, 2, 4),
    "reservation.lwf": (0, 2, 0, 0, 4),
    "reservation_prematureend.lwf": (0, 2, 0, 1, 4),
    "reuse1.lwf": (1, 1, 0, 0, 4),
    "reuse2.lwf": (2, 1, 0, 0, 4),
    "sample.lwf": (0, 0, 0, 0, None),        # its two requests are commented out
    "wait.lwf": (0, 8, 0, 0, 4),
    "withoutprematureend.lwf": (0, 139, 0, 0, None),
    "withprematureend.lwf": (0, 139, 0, 139, None),
}


def test_the_table_lists_every_shared_haizea_test_file():
    folder = os.path.join(leases_dir(), "haizea-tests")
    if not os.path.isdir(folder):
        pytest.skip(f"{folder} not found (set CLOUDSIM_PY_LEASES)")
    assert sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.lwf"))) == sorted(XML_FILES)


@pytest.mark.parametrize("name", sorted(XML_FILES))
def test_every_shared_xml_file_parses_with_the_expected_counts(lease_file, name):
    w = read_lwf(lease_file(f"haizea-tests/{name}"))
    ar, be, im, real, site = XML_FILES[name]
    assert (w.count(AR), w.count(BE), w.count(IM)) == (ar, be, im)
    assert sum(lease.real_duration is not None for lease in w.leases) == real
    assert (w.site.nodes if w.site else None) == site
    assert w.report.records == w.report.kept == len(w) and w.report.skipped_total == 0


def test_preemption_lwf_reads_exactly(lease_file):
    # 4 nodes of 100 % CPU and 1024 MB; a 1-node best-effort lease at 00:00 for 1 h and a 4-node
    # AR submitted at 00:15 for 00:30-01:00, each with its own 1024 MB image.
    w = read_lwf_xml(lease_file("haizea-tests/preemption.lwf"))
    [ns] = w.site.node_sets
    assert (ns.count, ns.cpus, ns.memory_mb) == (4, 1.0, 1024.0)
    be, ar = w.leases
    assert (be.id, be.mode, be.submit_time, be.duration, be.nodes, be.cpus_per_node, be.memory_mb,
            be.image_id, be.image_mb, be.preemptible) == (1, BE, 0.0, 3600.0, 1, 1.0, 1024.0, "foobar1.img", 1024.0, True)
    assert (ar.id, ar.mode, ar.submit_time, ar.start, ar.duration, ar.nodes, ar.image_id, ar.preemptible) == \
        (2, AR, 900.0, 1800.0, 1800.0, 4, "foobar2.img", False)
    assert w.lines == (19, 34)   # the <lease-request> lines


def test_premature_ends_are_real_durations(lease_file):
    # preemption_prematureend2.lwf: the best-effort lease really runs 45 of 60 min, the AR 10 of 15
    be, ar = read_lwf_xml(lease_file("haizea-tests/preemption_prematureend2.lwf")).leases
    assert (be.duration, be.run_time, ar.duration, ar.run_time) == (3600.0, 2700.0, 900.0, 600.0)


def test_inj1_ars_start_15_minutes_after_submission_and_last_7_5_minutes(lease_file):
    w = read_lwf_xml(lease_file("haizea-tests/inj1.lwf"))
    assert [lease.nodes for lease in w.leases] == [2, 2, 1, 2, 1, 2, 2, 2, 1, 1, 1, 1, 1]
    assert all(lease.start - lease.submit_time == 900.0 and lease.duration == 450.0 for lease in w.leases)
    assert [lease.submit_time for lease in w.leases] == [3600.0 * h for h in range(1, 14)]


def test_quoted_image_ids_are_unquoted(lease_file):
    w = read_lwf_xml(lease_file("haizea-tests/withprematureend.lwf"))
    assert {lease.image_id for lease in w.leases} == {"foobar.img"}   # written as 'foobar.img'


# -- XML readings and errors ------------------------------------------------------------------

LEASE = """  <lease-request arrival="{arrival}">{real}
    <lease{id} preemptible="{pre}">
      <nodes><node-set numnodes="{nodes}"><res type="CPU" amount="{cpu}"/><res type="Memory" amount="512"/></node-set></nodes>
      <start>{start}</start>
      <duration time="{duration}"/>
      <software>{software}</software>
    </lease>
  </lease-request>
"""


def lease_xml(**kw):
    args = dict(arrival="00:00:00", real="", id=' id="1"', pre="true", nodes=1, cpu=100, start="",
                duration="01:00:00", software='<disk-image id="img" size="100"/>')
    args.update(kw)
    return LEASE.format(**args)


def write_xml(tmp_path, *leases, name="w.lwf"):
    path = tmp_path / name
    path.write_text('<?xml version="1.0"?>\n<lease-workload name="t">\n<lease-requests>\n' + "".join(leases)
                    + "</lease-requests>\n</lease-workload>\n")
    return path


def test_now_start_is_an_immediate_lease_and_none_software_has_no_image(tmp_path):
    w = read_lwf_xml(write_xml(tmp_path, lease_xml(start="<now/>", pre="false", software="<none/>")))
    [lease] = w.leases
    assert (lease.mode, lease.image_id, lease.image_mb, lease.memory_mb) == (IM, None, 0.0, 512.0)


def test_cpu_amount_is_a_percent_of_one_cpu(tmp_path):
    [lease] = read_lwf_xml(write_xml(tmp_path, lease_xml(cpu=250))).leases
    assert lease.cpus_per_node == 2.5


def test_a_lease_without_id_gets_its_position(tmp_path):
    w = read_lwf_xml(write_xml(tmp_path, lease_xml(id=' id="7"'), lease_xml(id="")))
    assert [lease.id for lease in w.leases] == [7, 2]


def test_missing_preemptible_takes_the_default_of_the_mode(tmp_path):
    text = lease_xml(start='<exact time="00:10:00"/>').replace(' preemptible="true"', "")
    [lease] = read_lwf_xml(write_xml(tmp_path, text)).leases
    assert (lease.mode, lease.preemptible) == (AR, False)


def test_node_sets_with_the_same_resources_are_summed(tmp_path):
    two = lease_xml().replace('<node-set numnodes="1">', '<node-set numnodes="1"><res type="CPU" amount="100"/>'
                                                         '<res type="Memory" amount="512"/></node-set><node-set numnodes="2">')
    [lease] = read_lwf_xml(write_xml(tmp_path, two)).leases
    assert lease.nodes == 3


def test_node_sets_with_different_resources_are_an_error(tmp_path):
    two = lease_xml().replace('<node-set numnodes="1">', '<node-set numnodes="1"><res type="CPU" amount="50"/>'
                                                         '<res type="Memory" amount="512"/></node-set><node-set numnodes="2">')
    with pytest.raises(TraceError, match=r"w\.lwf:5: <lease-workload/lease-requests\[1\]/lease-request\[1\]/lease\[1\]>: "
                                         r"lease 1: node sets with different resources"):
        read_lwf_xml(write_xml(tmp_path, two))


def test_missing_duration_names_file_line_and_element(tmp_path):
    text = lease_xml().replace('<duration time="01:00:00"/>', "")
    with pytest.raises(TraceError, match=r"w\.lwf:5: <lease-workload/lease-requests\[1\]/lease-request\[1\]/lease\[1\]>: "
                                         r"expected one <duration> element, found 0"):
        read_lwf_xml(write_xml(tmp_path, text))


def test_malformed_time_attribute_names_line_element_and_attribute(tmp_path):
    path = write_xml(tmp_path, lease_xml(), lease_xml(id=' id="2"', duration="1h"))
    with pytest.raises(TraceError, match=r"w\.lwf:16: <.*lease-request\[2\]/lease\[1\]/duration\[1\]>: "
                                         r"attribute 'time' = '1h' is invalid"):
        read_lwf_xml(path)


def test_missing_arrival_names_the_attribute(tmp_path):
    text = lease_xml().replace(' arrival="00:00:00"', "")
    with pytest.raises(TraceError, match=r"w\.lwf:4: <.*lease-request\[1\]>: attribute 'arrival' is missing"):
        read_lwf_xml(write_xml(tmp_path, text))


def test_unknown_resource_type_is_an_error(tmp_path):
    text = lease_xml().replace('type="Memory"', 'type="GPU"')
    with pytest.raises(TraceError, match=r"w\.lwf:6: <.*res\[2\]>: unknown resource type 'GPU' \(known: CPU, Memory, Disk\)"):
        read_lwf_xml(write_xml(tmp_path, text))


def test_unknown_start_element_is_an_error(tmp_path):
    with pytest.raises(TraceError, match=r"w\.lwf:7: <.*start\[1\]>: expected an empty <start/>, <exact time=..> "
                                         r"or <now/>, found <later>"):
        read_lwf_xml(write_xml(tmp_path, lease_xml(start="<later/>")))


def test_bad_preemptible_value_is_an_error(tmp_path):
    with pytest.raises(TraceError, match=r"attribute 'preemptible' = 'yes' is invalid \(must be true or false\)"):
        read_lwf_xml(write_xml(tmp_path, lease_xml(pre="yes")))


def test_duplicate_lease_id_is_an_error_naming_both_lines(tmp_path):
    with pytest.raises(TraceError, match=r"w\.lwf:12: .*lease id 1 already used on line 4"):
        read_lwf_xml(write_xml(tmp_path, lease_xml(), lease_xml()))


def test_malformed_xml_names_the_line(tmp_path):
    path = tmp_path / "bad.lwf"
    path.write_text("<lease-workload>\n<lease-requests>\n<lease-request>\n</lease-workload>\n")
    with pytest.raises(TraceError, match=r"bad\.lwf:4: malformed XML: mismatched tag"):
        read_lwf_xml(path)


def test_wrong_root_element_is_an_error(tmp_path):
    path = tmp_path / "x.lwf"
    path.write_text("<workload/>\n")
    with pytest.raises(TraceError, match=r"x\.lwf:1: <workload>: the root element must be <lease-workload>"):
        read_lwf_xml(path)


def test_an_ar_starting_before_its_arrival_is_skipped_and_counted(tmp_path):
    path = write_xml(tmp_path, lease_xml(arrival="00:20:00", start='<exact time="00:10:00"/>', pre="false"),
                     lease_xml(id=' id="2"'))
    w = read_lwf_xml(path)
    assert [lease.id for lease in w.leases] == [2]
    assert (w.report.records, w.report.kept, w.report.skipped) == (2, 1, {L.AR_BEFORE_SUBMIT: 1})


def test_strict_mode_makes_an_invalid_lease_an_error_naming_file_and_line(tmp_path):
    path = write_xml(tmp_path, lease_xml(arrival="00:20:00", start='<exact time="00:10:00"/>', pre="false"))
    with pytest.raises(TraceError, match=r"w\.lwf:4: .*lease 1: advance reservation starts at 600 s, before its "
                                         r"submission at 1200 s \(strict mode\)"):
        read_lwf_xml(path, strict=True)


# -- the old whitespace format -----------------------------------------------------------------

OLD = """# submit start duration real nodes cpu mem disk image size
0 3600 1800 1200 4 1 1024 0 'foo.img' 600

100 -1 600 600 2 1 512 10 bar.img 300
"""


def test_old_format_start_minus_one_is_best_effort_else_ar(tmp_path):
    path = tmp_path / "old.lwf"
    path.write_text(OLD)
    w = read_lwf_old(path)
    ar, be = w.leases
    assert (ar.id, ar.mode, ar.submit_time, ar.start, ar.duration, ar.real_duration, ar.nodes, ar.cpus_per_node,
            ar.memory_mb, ar.image_id, ar.image_mb, ar.preemptible) == \
        (1, AR, 0.0, 3600.0, 1800.0, 1200.0, 4, 1.0, 1024.0, "foo.img", 600.0, False)
    assert (be.id, be.mode, be.start, be.disk_mb, be.preemptible) == (2, BE, None, 10.0, True)
    assert w.lines == (2, 4)


def test_old_format_wrong_field_count_names_file_and_line(tmp_path):
    path = tmp_path / "old.lwf"
    path.write_text(OLD + "5 6 7\n")
    with pytest.raises(TraceError, match=r"old\.lwf:5: expected 10 fields \(submit start .*\), found 3"):
        read_lwf_old(path)


def test_old_format_bad_number_names_the_field(tmp_path):
    path = tmp_path / "old.lwf"
    path.write_text("0 0 10 10 2.5 1 1024 0 x 600\n")
    with pytest.raises(TraceError, match=r"old\.lwf:1: field 5 \(nodes\) is not an integer: '2\.5'"):
        read_lwf_old(path)


def test_read_lwf_tells_the_formats_apart(tmp_path):
    old = tmp_path / "old.lwf"
    old.write_text(OLD)
    xml = write_xml(tmp_path, lease_xml())
    assert (len(read_lwf(old)), len(read_lwf(xml))) == (2, 1)


def test_first_injected_file_reads_exactly(lease_file):
    # work_05-dur_1h-size_1small.lwf: 422 lines; the first is "0 0 3948 3948 4 1 1024 0 'NONE.img' 600"
    w = read_lwf(lease_file("blue-30days/injected/work_05-dur_1h-size_1small.lwf"))
    first = w.leases[0]
    assert len(w) == 422 and w.count(AR) == 422
    assert (first.submit_time, first.start, first.duration, first.real_duration, first.nodes, first.memory_mb,
            first.image_id, first.image_mb) == (0.0, 0.0, 3948.0, 3948.0, 4, 1024.0, "NONE.img", 600.0)


def test_all_72_injected_files_parse_four_ars_starting_before_the_workload_are_skipped():
    # 72 files, 28,198 lines (wc -l), every one an AR; four have a negative start (before their
    # submission at 0): lines 2 and 3 of work_25-dur_1h-size_1small.lwf and of work_30-dur_1h-size_1small.lwf
    folder = os.path.join(leases_dir(), "blue-30days", "injected")
    files = sorted(glob.glob(os.path.join(folder, "*.lwf")))
    if not files:
        pytest.skip(f"{folder} not found (set CLOUDSIM_PY_LEASES)")
    records = kept = ar = 0
    skipped = {}
    for path in files:
        w = read_lwf(path)
        records, kept, ar = records + w.report.records, kept + w.report.kept, ar + w.count(AR)
        if w.report.skipped:
            skipped[os.path.basename(path)] = w.report.skipped
    assert (len(files), records, kept, ar) == (72, 28198, 28194, 28194)
    assert skipped == {"work_25-dur_1h-size_1small.lwf": {L.AR_BEFORE_SUBMIT: 2},
                       "work_30-dur_1h-size_1small.lwf": {L.AR_BEFORE_SUBMIT: 2}}


def test_injected_file_strict_mode_names_the_negative_start(lease_file):
    path = lease_file("blue-30days/injected/work_25-dur_1h-size_1small.lwf")
    with pytest.raises(TraceError, match=r"work_25-dur_1h-size_1small\.lwf:2: lease 2: advance reservation starts "
                                         r"at -1769 s, before its submission at 0 s \(strict mode\)"):
        read_lwf(path, strict=True)
