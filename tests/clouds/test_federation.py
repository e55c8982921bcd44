"""Several clouds with their own schedulers talking by messages (Li et al., seed 001): DAG jobs,
FDLS and FDMMS, feedback, data and image transfers, latency; real workflows. Every schedule
below is worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from cloudsim_py.errors import DAGError, PolicyError, TraceError
from cloudsim_py.clouds.cloud import CloudSpec
from cloudsim_py.clouds.matrix import ExecutionModel, ExecutionTimeMatrix
from cloudsim_py.clouds.vmtypes import VMType
from cloudsim_py.systems.clouds import build_dag_system
from cloudsim_py.systems.workflows import machine_clouds, simulated_makespan, unlimited_cloud
from cloudsim_py.infrastructure.phases import ARRIVAL
from cloudsim_py.workload.dag import build_dag_job, critical_path_length, runtime_cost
from cloudsim_py.workload.job import Job
from cloudsim_py.workload.lease import LeaseMode
from cloudsim_py.workload.wfformat import read_wfformat


def build_federation(dags, clouds, **kw):
    return build_dag_system(dags, clouds, **kw)


def dag_log(system):
    return system.log


def intervals(system):
    """{cloud index: [(task id, kind, start, end), ...]}"""
    return {k: [(i.job, i.kind, i.start, i.end) for i in rec.intervals] for k, rec in enumerate(system.records)}


# -- a 3-task chain across two clouds ------------------------------------------------------------

ETM3 = ExecutionTimeMatrix(("a", "b", "c"), ("v0", "v1"), np.array([[10.0, 40.0], [50.0, 20.0], [10.0, 30.0]]))
TWO = [CloudSpec("c0", VMType("v0", 1, 1024, 0, 32), 2), CloudSpec("c1", VMType("v1", 1, 1024, 0, 32), 2)]


def chain():
    # A -> B -> C, 64 MB images (64 / 32 MB/s = 2 s transfer), 16 MB on each edge (16 / 8 = 2 s
    # between clouds), submitted to cloud 0 at 0; ids 1, 2, 3 in that order.
    tasks = {t: {"type": t.lower(), "image_mb": 64.0} for t in "ABC"}
    return build_dag_job("chain", tasks, [("A", "B", 16.0), ("B", "C", 16.0)], submit_time=0.0, cloud=0)


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_a_chain_across_two_clouds_without_latency(policy):
    # ETM: A 10 | 40, B 50 | 20, C 10 | 30 on clouds 0 | 1.
    # A: both clouds free at 0, EFT 0 + 2 + 10 = 12 on c0 vs 42: c0, transfer [0, 2), run [2, 12).
    # B: its data is on c0 at 12 and on c1 at 12 + 2 = 14: EFT c0 12 + 2 + 50 = 64, c1 14 + 2 + 20 = 36:
    #    c1, transfer [14, 16), run [16, 36).
    # C: data on c1 at 36, on c0 at 38: c1 36 + 2 + 30 = 68, c0 38 + 2 + 10 = 50: c0, [38, 40), [40, 50).
    world = build_federation([chain()], TWO, policy=policy, model=ExecutionModel(ETM3), inter_cloud_mbps=8.0,
                             check=True)
    world.run()
    assert intervals(world) == {0: [(1, "transfer", 0.0, 2.0), (1, "run", 2.0, 12.0),
                                    (3, "transfer", 38.0, 40.0), (3, "run", 40.0, 50.0)],
                                1: [(2, "transfer", 14.0, 16.0), (2, "run", 16.0, 36.0)]}
    assert dag_log(world).finished == [("chain", 0, 0.0, 50.0, 3, False, 0.0)]


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_a_chain_across_two_clouds_with_one_second_latency(policy):
    # Every message takes 1 s. A: check sent at 0, answered at 1 (c1 free: quote 1), answer at c0
    # at 2; c0 quotes 2 for itself: EFT c0 2 + 2 + 10 = 14, c1 1 + 2 + 40 = 43: c0 runs A
    # [2, 4) + [4, 14). B (ready at 14, c0 is A's cloud: no notice): check reaches c1 at 15, its
    # data is there at 14 + 2 = 16: quote 16; answer at 16; c0 quotes 16 (now): EFT c0
    # 16 + 2 + 50 = 68, c1 16 + 2 + 20 = 38: c1. The transfer reaches c1 at 17: B runs [17, 19) +
    # [19, 39) (1 s later than estimated: the transfer's latency), done at 39, notice at c0 at 40.
    # C: check at c1 at 41, data there since 39: quote 41, answer at 42; on c0 data since
    # 39 + 2 = 41, quote 42: EFT c0 42 + 2 + 10 = 54, c1 41 + 2 + 30 = 73: c0 runs C [42, 44) + [44, 54).
    # Messages: 3 checks + 3 answers, 1 transfer + 1 answer, 1 completion notice = 9.
    world = build_federation([chain()], TWO, policy=policy, model=ExecutionModel(ETM3), inter_cloud_mbps=8.0,
                             latency=1.0, check=True)
    world.run()
    assert intervals(world) == {0: [(1, "transfer", 2.0, 4.0), (1, "run", 4.0, 14.0),
                                    (3, "transfer", 42.0, 44.0), (3, "run", 44.0, 54.0)],
                                1: [(2, "transfer", 17.0, 19.0), (2, "run", 19.0, 39.0)]}
    assert dag_log(world).finished == [("chain", 0, 0.0, 54.0, 3, False, 0.0)]
    assert world.federation.messages == 9


def test_latency_can_depend_on_the_pair_of_clouds():
    # 1 s from c0 to c1, 3 s back: A as before but the answer reaches c0 at 1 + 3 = 4: A runs
    # [4, 6) + [6, 16).
    world = build_federation([chain()], TWO, policy="fdls", model=ExecutionModel(ETM3), inter_cloud_mbps=8.0,
                             latency=lambda src, dst: 1.0 if src.index == 0 else 3.0)
    world.run()
    assert intervals(world)[0][:2] == [(1, "transfer", 4.0, 6.0), (1, "run", 6.0, 16.0)]


# -- list scheduling against min-min -------------------------------------------------------------

def fork():
    # E (10 s) -> X (100 s) and E -> Y (10 s), on one cloud of one VM, no overheads.
    return build_dag_job("fork", {"E": {"runtime": 10.0}, "X": {"runtime": 100.0}, "Y": {"runtime": 10.0}},
                         [("E", "X"), ("E", "Y")], cloud=0)


def starts(system):
    return {i.job: i.start for i in system.records[0].intervals if i.kind == "run"}


def test_min_min_sends_the_quick_task_first_and_list_scheduling_the_critical_one():
    # At 10 X and Y are ready. FDLS follows the CPOP list: priority X = 10 + 100 = 110, Y = 20,
    # so X goes first and runs [10, 110), Y queues behind it [110, 120). FDMMS takes the pair
    # with the earliest finish: Y (10 + 10 = 20 < 110), so Y runs [10, 20) and X [20, 120).
    cloud = [CloudSpec("one", VMType("vm", 1, 1024, 0, 100), 1)]
    fdls = build_federation([fork()], cloud, policy="fdls")
    fdls.run()
    fdmms = build_federation([fork()], cloud, policy="fdmms")
    fdmms.run()
    e, x, y = 1, 2, 3
    assert starts(fdls) == {e: 0.0, x: 10.0, y: 110.0}
    assert starts(fdmms) == {e: 0.0, y: 10.0, x: 20.0}


# -- feedback ------------------------------------------------------------------------------------

ETM_FB = ExecutionTimeMatrix(("a", "b"), ("fast", "slow"), np.array([[10.0, 100.0], [10.0, 25.0]]))
FB_CLOUDS = [CloudSpec("busy", VMType("fast", 1, 1024, 0, 100), 2),
             CloudSpec("quiet", VMType("slow", 1, 1024, 0, 100), 1)]


def feedback_world(alpha):
    """T1 (type a) -> T2 (type b), owned by cloud 'busy', which also runs other users' jobs its
    slot table only knows once they start (they wait in its FCFS queue)."""
    dag = build_dag_job("j", {"T1": {"type": "a"}, "T2": {"type": "b"}}, [("T1", "T2")], cloud=0)
    world = build_federation([dag], FB_CLOUDS, policy="fdls", params={"alpha": alpha},
                             model=ExecutionModel(ETM_FB), check=True)
    background = [Job(101, 0.0, 1, runtime=30.0), Job(102, 0.0, 1, runtime=60.0), Job(103, 0.0, 1, runtime=25.0),
                  Job(104, 60.0, 1, runtime=40.0), Job(105, 65.0, 1, runtime=5.0), Job(106, 65.0, 1, runtime=30.0)]
    world.world.sim.add_source(((j.submit_time, j) for j in background), world.world.datacenters[0].submit, ARRIVAL)
    world.run()
    return world


@pytest.mark.parametrize("alpha, cloud, finish, gaps", [(0.0, 0, 110.0, [30.0, 0.0]), (0.2, 0, 110.0, [30.0, 0.0]),
                                                        (1.0, 1, 90.0, [25.0, 0.0])])
def test_the_feedback_term_moves_a_task_away_from_a_contended_cloud(alpha, cloud, finish, gaps):
    # At 0 'busy' runs jobs 101 [0, 30) and 102 [0, 60); 103 waits. T1 (type a): EFT busy
    # 30 + 10 = 40 (its table: a VM free at 30), quiet 0 + 100: busy. But 103 is ahead in the
    # queue: 103 runs [30, 55), T1 [55, 65): 25 s later than estimated, the gap of 'busy'.
    # At 60 job 104 takes the other VM to 100. At 65 jobs 105 and 106 arrive: 105 runs [65, 70),
    # 106 waits. T2 (type b): EFT busy 70 + 10 = 80 (+ alpha x 25), quiet 65 + 25 = 90.
    # alpha 0 and 0.2 (85): busy; T2 waits behind 106 [70, 100) and runs [100, 110) (busy's gap
    # becomes 110 - 80 = 30). alpha 1 (105): quiet, [65, 90), as estimated (quiet's gap 0).
    world = feedback_world(alpha)
    (row,) = dag_log(world).finished
    assert row[3] == finish
    t2 = next(k for k, rec in enumerate(world.records) if any(i.job == 2 for i in rec.intervals))
    assert t2 == cloud
    assert world.world.brokers[0]._gap == gaps


# -- advance reservations across clouds ----------------------------------------------------------

def test_an_ar_task_preempts_a_best_effort_task_and_is_quoted_again():
    # One cloud of one VM; saving or reloading a 32 MB memory image at 32 MB/s takes 1 s, no
    # images. BE job 'be' (one task, 100 s) runs from 0. AR job 'ar' (one task, 20 s) arrives at
    # 10: the quote (hard bookings only) is 10, but the BE task cannot save its memory by then,
    # so the cloud rejects the task; sent again without a promise it is reserved at
    # 10 + 1 = 11: the BE task is suspended at 10, saves [10, 11); the AR runs [11, 31); the BE
    # task reloads [31, 32) and runs its 90 s left to 122.
    cloud = [CloudSpec("one", VMType("vm", 1, 1024, 0, 100), 1, copy_mbps=32.0)]
    be = build_dag_job("be", {"t": {"runtime": 100.0, "memory_mb": 32.0}}, [], submit_time=0.0, cloud=0)
    ar = build_dag_job("ar", {"t": {"runtime": 20.0, "memory_mb": 32.0}}, [], submit_time=10.0, cloud=0,
                       mode=LeaseMode.AR, start=10.0)
    world = build_federation([be, ar], cloud, policy="fdmms", check=True)
    world.world.sim.after_timestamp(lambda now: world.world.broker.local._check())
    world.run()
    assert intervals(world)[0] == [(1, "run", 0.0, 10.0), (1, "save", 10.0, 11.0), (2, "run", 11.0, 31.0),
                                   (1, "reload", 31.0, 32.0), (1, "run", 32.0, 122.0)]
    assert world.world.broker.counters()["transfers_rejected"] == 1
    assert sorted(dag_log(world).finished) == [("ar", 0, 10.0, 31.0, 1, True, 10.0), ("be", 0, 0.0, 122.0, 1, False, 0.0)]


# -- real workflows ------------------------------------------------------------------------------

WORKFLOWS = ["1000genome-chameleon-2ch-100k-001.json", "epigenomics-chameleon-hep-1seq-100k-001.json",
             "helloworld-chain-5-chameleon.json", "helloworld-forkjoin-10-chameleon.json",
             "montage-chameleon-dss-05d-001.json", "seismology-chameleon-100p-001.json",
             "soykb-chameleon-10fastq-10ch-001.json", "srasearch-chameleon-10a-001.json"]


@pytest.mark.parametrize("name", WORKFLOWS)
def test_a_workflow_on_unlimited_vms_finishes_exactly_at_its_critical_path(workflow_file, name):
    # Zero overheads, a VM for every task: a task starts the instant its last predecessor ends,
    # so the makespan is the longest path of measured runtimes, to the last bit (same additions).
    # Min-min and list scheduling over ready tasks are work-conserving here; Algorithm 1 taken
    # literally (the list waits for its top) may only be later.
    wf = read_wfformat(workflow_file(name))
    cp = critical_path_length(wf.job, runtime_cost(wf.job))
    cloud = [unlimited_cloud(wf)]
    assert simulated_makespan(wf, cloud, "fdmms") == cp
    assert simulated_makespan(wf, cloud, "fdls", params={"strict": False}) == cp
    assert simulated_makespan(wf, cloud, "fdls") >= cp


@pytest.mark.parametrize("name", WORKFLOWS)
def test_a_workflow_on_its_own_machines_never_finishes_before_its_critical_path(workflow_file, name):
    wf = read_wfformat(workflow_file(name))
    cp = critical_path_length(wf.job, runtime_cost(wf.job))
    for policy in ("fdls", "fdmms"):
        assert simulated_makespan(wf, machine_clouds(wf), policy) >= cp


# -- wiring errors -------------------------------------------------------------------------------

def test_a_job_for_a_cloud_that_does_not_exist_is_refused_and_logged():
    dag = build_dag_job("lost", {"t": {"runtime": 1.0}}, [], cloud=5)
    world = build_federation([dag], TWO[:1], policy="fdls")
    world.run()
    assert dag_log(world).rejected == [("lost", "submitted to cloud 5, the system has 1")]


def test_a_job_with_a_task_bigger_than_every_cloud_is_refused():
    dag = build_dag_job("wide", {"t": {"runtime": 1.0, "cpus": 3}}, [], cloud=0)
    world = build_federation([dag], TWO, policy="fdmms")
    world.run()
    assert dag_log(world).rejected == [("wide", "task 't' needs 3 CPUs, more than any cloud has")]


def test_clouds_need_unique_names_and_a_federated_policy():
    with pytest.raises(PolicyError, match="unique"):
        build_federation([], [TWO[0], TWO[0]])
    with pytest.raises(PolicyError, match="not a cloud-system scheduler of DAG jobs"):
        build_federation([], TWO, policy="easy")


def test_dag_jobs_out_of_submit_order_are_an_error_naming_the_job():
    # "late" is submitted at 50, "early" after it at 10: the second breaks the order
    tasks = {"A": {"type": "a"}}
    late = build_dag_job("late", tasks, [], submit_time=50.0, cloud=0)
    early = build_dag_job("early", tasks, [], submit_time=10.0, cloud=0)
    world = build_federation([late, early], TWO, policy="fdls", model=ExecutionModel(ETM3),
                             inter_cloud_mbps=8.0)
    with pytest.raises(TraceError, match=r"job early: submit time 10\.0 before the previous job's 50\.0; "
                                         r"DAG jobs must be sorted by submit time"):
        world.run()


def test_two_dag_jobs_with_one_id_are_an_error_naming_the_id():
    tasks = {"A": {"type": "a"}}
    first = build_dag_job("twin", tasks, [], submit_time=0.0, cloud=0)
    second = build_dag_job("twin", tasks, [], submit_time=5.0, cloud=1)
    system = build_federation([first, second], TWO, policy="fdls", model=ExecutionModel(ETM3))
    with pytest.raises(DAGError, match=r"job id 'twin' is used twice"):
        system.run()


def test_min_min_decides_the_same_on_arrays_and_task_by_task():
    # The same 40 independent tasks (runtimes 1..40 s, 1-3 CPUs) on two clouds of 3 VMs: FDMMS
    # works on arrays while more than BATCH tasks are ready, task by task below; forcing either
    # way gives the same schedule, to the bit.
    from cloudsim_py.brokers.dags import FdmmsScheduler

    def run(batch):
        tasks = {f"t{i}": {"runtime": float(1 + (7 * i) % 40), "cpus": 1 + i % 3} for i in range(40)}
        dag = build_dag_job("flat", tasks, [], cloud=0)
        clouds = [CloudSpec("c0", VMType("v0", 1, 1024, 0, 32), 3), CloudSpec("c1", VMType("v1", 1, 1024, 0, 32), 3)]
        old = FdmmsScheduler.BATCH
        FdmmsScheduler.BATCH = batch
        try:
            system = build_federation([dag], clouds, policy="fdmms", latency=0.5)
            system.run()
        finally:
            FdmmsScheduler.BATCH = old
        return intervals(system)

    assert run(0) == run(10_000)


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_equal_estimates_keep_a_task_on_its_owners_cloud(policy):
    # Two clouds of one VM, a 1,000 s task owned by each, both at 0, no overheads, no latency:
    # every estimate is 0 + 1,000 on either cloud. A tie keeps each task at home (no transfer to
    # another queue), so both run [0, 1,000) side by side; broken by the lowest index, both went
    # to cloud 0 and the second ended at 2,000.
    vm = VMType("v", 1, 1024, 0, 100)
    clouds = [CloudSpec("c0", vm, 1), CloudSpec("c1", vm, 1)]
    a = build_dag_job("a", {"t": {"runtime": 1000.0}}, [], cloud=0)
    b = build_dag_job("b", {"t": {"runtime": 1000.0}}, [], cloud=1)
    system = build_federation([a, b], clouds, policy=policy)
    system.run()
    assert intervals(system) == {0: [(1, "run", 0.0, 1000.0)], 1: [(2, "run", 0.0, 1000.0)]}


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_a_remote_quote_counts_the_time_the_task_takes_to_get_there(policy):
    # As above with 0.5 s per message. Cloud 0 asks cloud 1 at 0, which answers at 0.5 "free
    # from 0.5"; the answer is back at 1.0, when cloud 0 itself is free from 1.0. Sent now, the
    # task would reach cloud 1 at 1.5: estimate max(0.5, 1.5) + 1,000 = 1,001.5 there against
    # 1.0 + 1,000 at home, so each task stays and runs [1.0, 1,001.0). Taking the quote as it
    # was (0.5 + 1,000) sent both tasks across, to start at 1.5.
    vm = VMType("v", 1, 1024, 0, 100)
    clouds = [CloudSpec("c0", vm, 1), CloudSpec("c1", vm, 1)]
    a = build_dag_job("a", {"t": {"runtime": 1000.0}}, [], cloud=0)
    b = build_dag_job("b", {"t": {"runtime": 1000.0}}, [], cloud=1)
    system = build_federation([a, b], clouds, policy=policy, latency=0.5)
    system.run()
    assert intervals(system) == {0: [(1, "run", 1.0, 1001.0)], 1: [(2, "run", 1.0, 1001.0)]}


def test_a_check_or_an_acceptance_does_not_ask_the_receiving_cloud_for_a_pass():
    # A Check only reads the slot table (a quote), an accepting Answer changes nothing at the
    # owner: the receiving cloud's datacenter is not marked for a scheduling pass; a refusal
    # (the task is ready to be decided again) is.
    from cloudsim_py.brokers.dags import Answer, Check
    from cloudsim_py.engine.events import Message

    system = build_federation([chain()], TWO, policy="fdls", model=ExecutionModel(ETM3), inter_cloud_mbps=8.0)
    owner, peer = system.federation.schedulers
    peer.dc._dirty = False
    peer.receive(Message(owner, peer, Check(1, ()), 0.0, 0.0))
    assert peer.dc._dirty is False
    peer.receive(Message(owner, peer, Answer(None, True, ""), 0.0, 0.0))
    assert peer.dc._dirty is False
    peer._rejected = lambda order, reason: None     # what a refusal does is not this test's
    peer.receive(Message(owner, peer, Answer(None, False, "too small"), 0.0, 0.0))
    assert peer.dc._dirty is True


@pytest.mark.parametrize("policy", ["fdls", "fdmms"])
def test_a_finished_dag_job_leaves_no_reference_cycle_for_the_collector(policy):
    """A finished job's task orders link to each other and to their run; the scheduler drops
    those links at the job's end, so the cycle collector finds none of its bookkeeping."""
    import gc

    from cloudsim_py.brokers.dags import DagRun, TaskOrder
    from tests.clouds.test_dag_fast_paths import clouds_of, random_dags

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        system = build_dag_system(random_dags(4, jobs=12, clouds=2), clouds_of(2), policy=policy,
                                  latency=0.1, seed=4)
        system.run()
        finished = len(system.log.finished)
        system.world.log.columns()   # the job log lets its finished jobs (and their tasks) go
        gc.collect()                 # the system is alive: only what nothing reaches is garbage
        cyclic = [o for o in gc.garbage if isinstance(o, (TaskOrder, DagRun))]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert finished == 12
    assert cyclic == []
