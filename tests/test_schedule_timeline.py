"""schedule.csv and timeline.csv: the streamed writers on hand-computed runs of a datacenter (two
tiers, a swap and a kill) and of a cloud (a best-effort lease suspended by an advance
reservation), every row worked out from the narrated schedules."""

from __future__ import annotations

import textwrap

from cloudsim_py.infrastructure.spec import DatacenterSpec
from cloudsim_py.outputs.schedule import ScheduleCsv
from cloudsim_py.outputs.timeline import TimelineCsv
from cloudsim_py.runner import build
from cloudsim_py.scenario import load_scenario, run_scenario
from tests.brokers.test_liu2015_fig3 import FACTORS, NO_LOSS, jobs

# Liu 2015 Fig. 3 under CCFCFS (tests/brokers/test_liu2015_fig3.py): 5 hosts, 2 tiers, seven jobs
# at 0. J1 (2) in the foreground, J4 (1), J3 (2), J5 (2) in the background; at 5 J1 and J5 leave,
# J2 (4) starts in the foreground and J7 (2) in the background; at 10 J4 and J2 leave, J3 is
# swapped up, J6 (3) starts in the foreground; at 15 J3 leaves and J7 is killed in the
# background and restarted in the foreground; at 20 J6 and J7 leave.
FIG3_SCHEDULE = """\
time,action,job,tier,hosts,datacenter
0.0,start,1,0,0 1,dc
0.0,start,4,1,2,dc
0.0,start,3,1,3 4,dc
0.0,start,5,1,0 1,dc
5.0,finish,1,0,0 1,dc
5.0,finish,5,1,0 1,dc
5.0,start,2,0,0 1 3 4,dc
5.0,start,7,1,0 1,dc
10.0,finish,4,1,2,dc
10.0,finish,2,0,0 1 3 4,dc
10.0,swap,3,0,3 4,dc
10.0,start,6,0,2 0 1,dc
15.0,finish,3,0,3 4,dc
15.0,kill,7,1,0 1,dc
15.0,start,7,0,3 4,dc
20.0,finish,6,0,2 0 1,dc
20.0,finish,7,0,3 4,dc
"""

# After every action of a time: running jobs, queued ones, suspended ones, busy hosts per tier.
# 0: J1 | J4 J3 J5 run (busy 2 | 1+2+2), J2 J6 J7 wait. 5: J2 | J4 J3 J7 (4 | 5), J6 waits.
# 10: J3 J6 | J7 (2+3 | 2). 15: J7 killed and restarted in the same instant: one row, J6 J7 in
# the foreground (3+2 | 0), nobody waiting. 20: empty.
FIG3_TIMELINE = """\
time,datacenter,running,queued,suspended,busy_0,busy_1
0.0,dc,4,3,0,2,5
5.0,dc,4,1,0,4,5
10.0,dc,3,0,0,5,2
15.0,dc,2,0,0,5,0
20.0,dc,0,0,0,0,0
"""


def run_fig3(tmp_path):
    world = build(jobs(), datacenter=DatacenterSpec(hosts=5, tiers=2, interference=NO_LOSS, check=True),
                  broker="ccfcfs", factors=FACTORS)
    schedule = ScheduleCsv(str(tmp_path / "schedule.csv"))
    timeline = TimelineCsv(str(tmp_path / "timeline.csv"), 2)
    schedule.watch(world.datacenter)
    timeline.watch(world.datacenter)
    world.run()
    schedule.close()
    timeline.close()
    return tmp_path


def test_the_schedule_of_a_two_tier_run_has_a_row_per_action(tmp_path):
    assert (run_fig3(tmp_path) / "schedule.csv").read_text() == FIG3_SCHEDULE


def test_the_timeline_of_a_two_tier_run_has_a_row_per_time_with_its_last_state(tmp_path):
    assert (run_fig3(tmp_path) / "timeline.csv").read_text() == FIG3_TIMELINE


def test_the_files_appear_only_when_closed(tmp_path):
    world = build(jobs(), datacenter=DatacenterSpec(hosts=5, tiers=2, interference=NO_LOSS),
                  broker="ccfcfs", factors=FACTORS)
    timeline = TimelineCsv(str(tmp_path / "timeline.csv"), 2)
    timeline.watch(world.datacenter)
    world.run()
    assert not (tmp_path / "timeline.csv").exists()
    timeline.abort()
    assert list(tmp_path.iterdir()) == []


# Haizea's preemption case (tests/scenario/test_cloud_scenarios.py): 4 VMs; lease 1 (best
# effort, 1 VM, 3600 s) is submitted at 0, its 1024 MB image sent at 128 Mbit/s (8 s): it starts
# at 8. AR 2 (4 VMs at 1800 for 1800 s) arrives at 900 and waits; lease 1 is suspended at 1760
# (its 1024 MB memory saved at 32 MB/s by 1792, then AR 2's image sent by 1800). AR 2 runs
# 1800-3600; lease 1 resumes at 3600, reloads to 3632 and runs its last 1848 s to 5480.
LEASES = """\
name: lease-preemption
federation:
  vm_types: {node: {cpus: 1, memory_mb: 1024, disk_mb: 0, bandwidth_mbps: 128}}
  clouds: [{name: site, vm_type: node, vms: 4, copy_mbps: 32}]
leases:
  requests:
    - {id: 1, submit: 0, mode: best-effort, duration: 3600, nodes: 1, memory_mb: 1024, image_mb: 1024}
    - {id: 2, submit: 900, mode: ar, start: 1800, duration: 1800, nodes: 4, memory_mb: 1024, image_mb: 1024}
output: {schedule: true, timeline: true}
"""

LEASE_SCHEDULE = """\
time,action,job,tier,hosts,datacenter
8.0,start,1,0,0,site
1760.0,suspend,1,0,0,site
1800.0,start,2,0,0 1 2 3,site
3600.0,finish,2,0,0 1 2 3,site
3600.0,resume,1,0,0,site
5480.0,finish,1,0,0,site
"""

# 0: lease 1 queued. 8: it runs (1 VM). 900: AR 2 queued. 1760: lease 1 suspended, no VM held.
# 1800: AR 2 on 4 VMs. 3600: AR 2 done, lease 1 back on 1 VM. 5480: empty.
LEASE_TIMELINE = """\
time,datacenter,running,queued,suspended,busy_0
0.0,site,0,1,0,0
8.0,site,1,0,0,1
900.0,site,1,1,0,1
1760.0,site,0,1,1,0
1800.0,site,1,0,1,4
3600.0,site,1,0,0,1
5480.0,site,0,0,0,0
"""


def run_leases(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(LEASES)
    run_scenario(load_scenario(str(path)), str(tmp_path / "out"))
    return tmp_path / "out"


def test_a_cloud_runs_schedule_has_the_suspension_and_the_resume(tmp_path):
    assert (run_leases(tmp_path) / "schedule.csv").read_text() == LEASE_SCHEDULE


def test_a_cloud_runs_timeline_counts_the_suspended_lease(tmp_path):
    assert (run_leases(tmp_path) / "timeline.csv").read_text() == LEASE_TIMELINE


# The 3-task chain of tests/scenario/test_cloud_scenarios.py under FDLS: A is queued at c0 at 0,
# its 64 MB image sent at 32 MB/s (2 s), runs 2-12; B is sent to c1 at 12 (16 MB between clouds at
# 8 MB/s, then its image: 14-16), runs 16-36; C is queued at c0 at 36, data and image to 40, runs
# to 50. Rows of one time in the clouds' order (c0, c1).
CHAIN_TIMELINE = """\
time,datacenter,running,queued,suspended,busy_0
0.0,c0,0,1,0,0
2.0,c0,1,0,0,1
12.0,c0,0,0,0,0
12.0,c1,0,1,0,0
16.0,c1,1,0,0,1
36.0,c0,0,1,0,0
36.0,c1,0,0,0,0
40.0,c0,1,0,0,1
50.0,c0,0,0,0,0
"""


def test_a_dag_system_writes_the_rows_of_each_cloud_in_time_order(tmp_path):
    from tests.scenario.test_cloud_scenarios import CHAIN

    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent(CHAIN).replace("broker: [fdls, fdmms]", "broker: fdls")
                    + "output: {timeline: true}\n")
    run_scenario(load_scenario(str(path)), str(tmp_path / "out"))
    assert (tmp_path / "out" / "timeline.csv").read_text() == CHAIN_TIMELINE
