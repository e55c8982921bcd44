"""The lease scheduler of one cloud on Haizea's own test workloads (../shared/leases/haizea-tests/)
and small hand-made cases, every schedule worked out by hand.

The cloud of every case: 4 VMs of 1 CPU and 1024 MB (the files' <site>), image bandwidth
b = 128 MB/s and disk copy speed S_c = 32 MB/s (Haizea's suspend/resume rate; its test image
bandwidth is 100 MB/s, 128 is used so that every time is an exact binary number). Every image
is 1024 MB and every VM's memory 1024 MB, so

    image transfer  S_I / b       = 1024 / 128 = 8 s
    save or reload  M_j / S_c     = 1024 / 32  = 32 s
    migration       (M_j + S_I)/b = 2048 / 128 = 16 s

Times below are seconds from the start of the workload (00:30:00 = 1800 s).
"""

from __future__ import annotations

import pytest

from cloudsim_py.clouds import local as local_module
from cloudsim_py.clouds.cloud import CloudSpec
from cloudsim_py.clouds.vmtypes import VMType
from cloudsim_py.workload.lease import LeaseMode, LeaseRequest
from cloudsim_py.workload.lwf import read_lwf
from cloudsim_py.workload.swf_leases import combine
from cloudsim_py.systems.clouds import build_lease_cloud

VM = VMType("node", cpus=1, memory_mb=1024, disk_mb=0, bandwidth_mbps=128)
SITE = CloudSpec("site", VM, 4, copy_mbps=32)
X, S, M = 8.0, 32.0, 16.0          # transfer, save (= reload), migration


def run(leases, **params):
    system = build_lease_cloud(leases, SITE, check=True, params=params)
    local = system.world.broker.local
    system.world.sim.after_timestamp(lambda now: local._check())
    system.run()
    return system


def finished(system):
    """{lease id: its record} of every finished lease."""
    return system.world.log.records().by_id()


def schedule(system):
    """{lease id: [(kind, start, end, vms), ...]} of every finished lease."""
    rec = system.records[0]
    return {i: rec.of(i) for i in sorted(finished(system))}


def counters(system):
    return system.world.broker.counters()


@pytest.fixture
def haizea(lease_file):
    return lambda name: read_lwf(lease_file(f"haizea-tests/{name}.lwf")).leases


def test_preemption_lwf_suspends_early_enough_and_resumes_after_the_ar(haizea):
    # Lease 1, best-effort, 1 VM for 1 h from 0: VM 0 gets its image over [0, 8) and runs from 8.
    # Lease 2, AR on all 4 VMs at 1800 for 1800 s, arrives at 900: its image goes over
    # [1800 - 8, 1800) = [1792, 1800), so lease 1 must be suspended at 1792 - 32 = 1760 and save
    # its memory over [1760, 1792). Lease 1 has run 1760 - 8 = 1752 s, 1848 s are left.
    # The AR ends at 3600; lease 1 reloads in place over [3600, 3632) and runs to 3632 + 1848.
    world = run(haizea("preemption"))
    assert schedule(world) == {
        1: [("transfer", 0.0, X, (0,)), ("run", X, 1760.0, (0,)), ("save", 1760.0, 1792.0, (0,)),
            ("reload", 3600.0, 3632.0, (0,)), ("run", 3632.0, 5480.0, (0,))],
        2: [("transfer", 1792.0, 1800.0, (0, 1, 2, 3)), ("run", 1800.0, 3600.0, (0, 1, 2, 3))],
    }
    lease1 = finished(world)[1]
    assert (lease1["suspensions"], lease1["migrations"], world.world.datacenter.context_switches) == (1, 0, 1)
    assert counters(world)["preemptions"] == 1 and counters(world)["ar_accepted"] == 1


def test_preemption_prematureend_lwf_the_best_effort_lease_needs_only_its_real_duration(haizea):
    # As preemption.lwf, but lease 1 really runs 45 min (2700 s) and the AR 15 min (ends 2700).
    # Suspended at 1760 after 1752 s: 2700 - 1752 = 948 s of real work left (1848 planned).
    # Reload [2700, 2732), run [2732, 3680): it ends at 3680 and frees VM 0 then, not at 4580.
    world = run(haizea("preemption_prematureend"))
    assert schedule(world)[1] == [
        ("transfer", 0.0, X, (0,)), ("run", X, 1760.0, (0,)), ("save", 1760.0, 1792.0, (0,)),
        ("reload", 2700.0, 2732.0, (0,)), ("run", 2732.0, 3680.0, (0,))]
    assert schedule(world)[2] == [("transfer", 1792.0, 1800.0, (0, 1, 2, 3)),
                                  ("run", 1800.0, 2700.0, (0, 1, 2, 3))]


def test_preemption_prematureend2_lwf_an_early_ar_end_lets_the_lease_resume_earlier(haizea):
    # Both leases end early: the AR (planned to 2700) really runs 10 min, to 2400, and frees the
    # VMs then; lease 1 reloads over [2400, 2432) and runs its 948 s to 3380.
    world = run(haizea("preemption_prematureend2"))
    assert schedule(world) == {
        1: [("transfer", 0.0, X, (0,)), ("run", X, 1760.0, (0,)), ("save", 1760.0, 1792.0, (0,)),
            ("reload", 2400.0, 2432.0, (0,)), ("run", 2432.0, 3380.0, (0,))],
        2: [("transfer", 1792.0, 1800.0, (0, 1, 2, 3)), ("run", 1800.0, 2400.0, (0, 1, 2, 3))],
    }


def test_reservation_lwf_the_wide_lease_waits_for_the_long_one(haizea):
    # Lease 1 (1 VM, 1 h) holds VM 0 over [0, 3608). Lease 2 (4 VMs, 15 min) arrives at 900:
    # only 3 VMs are free, so it gets a reservation at 3608: transfer [3608, 3616), run to 4516.
    world = run(haizea("reservation"))
    assert schedule(world) == {
        1: [("transfer", 0.0, X, (0,)), ("run", X, 3608.0, (0,))],
        2: [("transfer", 3608.0, 3616.0, (0, 1, 2, 3)), ("run", 3616.0, 4516.0, (0, 1, 2, 3))],
    }


def test_reservation_prematureend_lwf_the_waiting_lease_moves_up_when_the_first_ends_early(haizea):
    # Lease 1 really runs 30 min: it ends at 8 + 1800 = 1808, and lease 2 starts then.
    world = run(haizea("reservation_prematureend"))
    assert schedule(world) == {
        1: [("transfer", 0.0, X, (0,)), ("run", X, 1808.0, (0,))],
        2: [("transfer", 1808.0, 1816.0, (0, 1, 2, 3)), ("run", 1816.0, 2716.0, (0, 1, 2, 3))],
    }


def test_wait_lwf_eight_full_width_leases_run_one_after_the_other(haizea):
    # All 8 leases want all 4 VMs for 15 min, at 0: lease k transfers over
    # [908 (k - 1), 908 (k - 1) + 8) and runs to 908 k.
    world = run(haizea("wait"))
    got = schedule(world)
    assert sorted(got) == list(range(1, 9))
    for k in range(1, 9):
        t0 = 908.0 * (k - 1)
        assert got[k] == [("transfer", t0, t0 + X, (0, 1, 2, 3)), ("run", t0 + X, 908.0 * k, (0, 1, 2, 3))]


def test_migrate_lwf_the_suspended_lease_moves_to_the_vms_that_free_up_first(haizea):
    # At 0: AR 1 (2 VMs, 1 h at 90) books VMs 0-1 over [82, 3690); AR 2 (2 VMs, 1 h at 1800) books
    # VMs 2-3 over [1792, 5400). Best-effort lease 3 (2 VMs, 1 h) does not fit anywhere before
    # 3690, but VMs 2-3 are free until 1792: it starts there and is planned to be suspended at
    # 1792 - 32 = 1760 (run 1752 s, 1848 s left). Resuming in place (VMs 2-3 free at 5400) would
    # end at 5400 + 32 + 1848 = 7280; migrating to VMs 0-1 (free at 3690) ends at
    # 3690 + 16 + 32 + 1848 = 5586: it migrates over [3690, 3706), reloads to 3738, runs to 5586.
    world = run(haizea("migrate"))
    assert schedule(world) == {
        1: [("transfer", 82.0, 90.0, (0, 1)), ("run", 90.0, 3690.0, (0, 1))],
        2: [("transfer", 1792.0, 1800.0, (2, 3)), ("run", 1800.0, 5400.0, (2, 3))],
        3: [("transfer", 0.0, X, (2, 3)), ("run", X, 1760.0, (2, 3)), ("save", 1760.0, 1792.0, (2, 3)),
            ("migrate", 3690.0, 3706.0, (0, 1)), ("reload", 3706.0, 3738.0, (0, 1)),
            ("run", 3738.0, 5586.0, (0, 1))],
    }
    lease3 = finished(world)[3]
    assert (lease3["suspensions"], lease3["migrations"]) == (1, 1)


def test_migration_can_be_switched_off(haizea):
    # Without migration lease 3 resumes on VMs 2-3 when AR 2 ends: reload [5400, 5432), run to 7280.
    world = run(haizea("migrate"), migrate=False)
    assert schedule(world)[3][-2:] == [("reload", 5400.0, 5432.0, (2, 3)), ("run", 5432.0, 7280.0, (2, 3))]


def test_reuse1_lwf_every_lease_transfers_its_image(haizea):
    # No image cache (the model, Haizea's diskimage-reuse: none): the AR transfers over
    # [892, 900) and runs 15 min; the best-effort lease arrives at 2700 and transfers again.
    world = run(haizea("reuse1"))
    assert schedule(world) == {
        1: [("transfer", 892.0, 900.0, (0,)), ("run", 900.0, 1800.0, (0,))],
        2: [("transfer", 2700.0, 2708.0, (0,)), ("run", 2708.0, 3608.0, (0,))],
    }


def test_reuse2_lwf_two_ars_at_the_same_time_take_the_lowest_free_vms_in_turn(haizea):
    world = run(haizea("reuse2"))
    assert schedule(world) == {
        1: [("transfer", 892.0, 900.0, (0, 1)), ("run", 900.0, 1800.0, (0, 1))],
        2: [("transfer", 892.0, 900.0, (2, 3)), ("run", 900.0, 1800.0, (2, 3))],
        3: [("transfer", 2700.0, 2708.0, (0,)), ("run", 2708.0, 3608.0, (0,))],
    }


@pytest.mark.parametrize("name, width", [("inj1", None), ("inj2", 4)])
def test_injected_ar_files_alone_run_every_reservation_at_its_start(haizea, name, width):
    # 13 ARs, one an hour, each 7.5 min at submit + 15 min, on 1, 2 (inj1) or 4 (inj2) VMs, never
    # overlapping: AR k transfers over [start - 8, start) on the lowest VMs and runs 450 s.
    leases = haizea(name)
    world = run(leases)
    got = schedule(world)
    assert len(got) == 13
    for lease in leases:
        vms = tuple(range(lease.nodes))
        assert lease.nodes == (width or lease.nodes)
        assert got[lease.id] == [("transfer", lease.start - X, lease.start, vms),
                                 ("run", lease.start, lease.start + 450.0, vms)]


def test_sample_lwf_has_no_lease_and_nothing_happens(haizea):
    world = run(haizea("sample"))
    assert finished(world) == {} and world.world.sim.now == 0.0


# -- the 139-lease workloads, against an independent reference ---------------------------------

def reference_fcfs_backfill(leases, n_vms, xfer):
    """FCFS with EASY backfilling on named VMs, by brute force: at each arrival or end, leases in
    arrival order start on the lowest VMs free for ``xfer + requested``; the first that cannot
    gets the earliest such slot (a booking the later ones must respect). Returns
    {id: (start, vms, end)}: start of the transfer, and the real end."""
    pending = sorted(leases, key=lambda l: (l.submit_time, l.id))
    queue, running, out = [], [], {}
    t = 0.0
    while pending or queue or running:
        while pending and pending[0].submit_time <= t:
            queue.append(pending.pop(0))
        running = [r for r in running if r[2] > t]                  # (vms, planned end, real end)
        books = [(set(r[0]), t, r[1]) for r in running]
        head = None
        for lease in list(queue):
            need = xfer + lease.duration

            def free(v, s, e):
                return all(not (v in vs and b0 < e and s < b1) for vs, b0, b1 in books)

            ok = [v for v in range(n_vms) if free(v, t, t + need)]
            if len(ok) >= lease.nodes:
                vms = ok[:lease.nodes]
                out[lease.id] = (t, tuple(vms), t + xfer + lease.run_time)
                running.append((vms, t + need, t + xfer + lease.run_time))
                books.append((set(vms), t, t + need))
                queue.remove(lease)
            elif head is None:
                for s in sorted({t} | {b1 for _, _, b1 in books if b1 > t}):
                    ok = [v for v in range(n_vms) if free(v, s, s + need)]
                    if len(ok) >= lease.nodes:
                        head = (set(ok[:lease.nodes]), s, s + need)
                        books.append(head)
                        break
        nxt = [r[2] for r in running] + ([pending[0].submit_time] if pending else [])
        if not nxt:
            break
        t = min(nxt)
    return out


@pytest.mark.parametrize("name", ["withprematureend", "withoutprematureend"])
def test_139_best_effort_leases_match_an_independent_fcfs_backfilling_reference(haizea, name):
    # Worked by hand for the first 8 leases of withprematureend.lwf (requested / real minutes):
    # at 0, lease 1 (1 VM, 60/15) takes VM 0 to 8 + 900 = 908, lease 2 (1 VM, 30/10) VM 1 to 608,
    # lease 3 (1 VM, 15/5) VM 2 to 308; lease 4 (2 VMs, 15/5) finds only VM 3 free and is booked
    # at 908 (lease 3's planned end), but lease 3 really ends at 308 and lease 4 starts then on
    # VMs 2-3 (to 616). At 900 lease 5 (3 VMs, 15/5) takes VMs 1-3 (to 1208); lease 6 (4 VMs,
    # 60/15) is blocked and booked at 1808 (lease 5's planned end), so at 908 lease 7 (1 VM,
    # 15/5) cannot backfill VM 0 (it would hold it to 1816 > 1808). Lease 5 ends at 1208, lease 6
    # runs [1208 + 8, 2116), leases 7 and 8 then on VMs 0 and 1. The reference below recomputes
    # all 139 by brute force with a plain list of bookings.
    leases = haizea(name)
    world = run(leases)
    ref = reference_fcfs_backfill(leases, 4, X)
    got = {}
    for lease_id, intervals in schedule(world).items():
        (k0, s0, _, vms), (k1, _, e1, _) = intervals
        assert (k0, k1) == ("transfer", "run")
        got[lease_id] = (s0, vms, e1)
    assert got == ref
    if name == "withprematureend":
        assert [got[k] for k in range(1, 9)] == [
            (0.0, (0,), 908.0), (0.0, (1,), 608.0), (0.0, (2,), 308.0), (308.0, (2, 3), 616.0),
            (900.0, (1, 2, 3), 1208.0), (1208.0, (0, 1, 2, 3), 2116.0), (2116.0, (0,), 2424.0),
            (2116.0, (1,), 2424.0)]


@pytest.mark.parametrize("base", ["withprematureend", "withoutprematureend"])
@pytest.mark.parametrize("inj", ["inj1", "inj2"])
def test_injected_ars_preempt_best_effort_work_and_every_ar_starts_on_time(haizea, lease_file, base, inj):
    # Haizea's mixed workloads: every AR starts at its requested start; every best-effort lease
    # runs exactly its real duration in all (its run intervals add up), and each suspension has
    # its save and its reload (or a migration and a reload).
    workload = combine(read_lwf(lease_file(f"haizea-tests/{base}.lwf")),
                       read_lwf(lease_file(f"haizea-tests/{inj}.lwf")))
    world = run(workload.leases)
    assert len(finished(world)) == 152 and not world.world.log.rejected
    by_id = {lease.id: lease for lease in workload.leases}
    suspended = 0
    for lease_id, intervals in schedule(world).items():
        lease = by_id[lease_id]
        runs = [i for i in intervals if i[0] == "run"]
        assert sum(e - s for _, s, e, _ in runs) == pytest.approx(lease.run_time)
        if lease.mode is LeaseMode.AR:
            assert runs == [("run", lease.start, lease.start + lease.run_time, runs[0][3])]
        kinds = [i[0] for i in intervals]
        assert kinds.count("save") == kinds.count("reload") == len(runs) - 1
        suspended += len(runs) - 1
    assert suspended > 0
    assert suspended == sum(r["suspensions"] for r in finished(world).values())


# -- small cases -------------------------------------------------------------------------------

def lease(id, submit, mode, duration, nodes, start=None, real=None):
    return LeaseRequest(id=id, submit_time=submit, mode=mode, duration=duration, nodes=nodes,
                        start=start, real_duration=real, memory_mb=1024, image_mb=1024)


def test_an_immediate_lease_is_rejected_when_the_cloud_is_full():
    # Best-effort lease 1 holds all 4 VMs over [0, 8 + 3600); immediate lease 2 asks for 1 VM at
    # 600: none is free, so it is rejected at 600; immediate lease 3 at 4000 finds them free.
    world = run([lease(1, 0, LeaseMode.BEST_EFFORT, 3600, 4),
                 lease(2, 600, LeaseMode.IMMEDIATE, 600, 1),
                 lease(3, 4000, LeaseMode.IMMEDIATE, 600, 1)])
    log = world.world.log
    assert [j.id for j in log.rejected] == [2]
    assert "immediate lease needs 1 VMs now" in log.reasons[2]
    assert world.records[0].rejected == [(2, 600.0, log.reasons[2])]
    assert schedule(world)[3] == [("transfer", 4000.0, 4008.0, (0,)), ("run", 4008.0, 4608.0, (0,))]


def test_an_immediate_lease_is_rejected_when_an_ar_would_cut_it_short():
    # AR 1 books all 4 VMs over [1800 - 8, 3600); immediate lease 2 at 1000 for 900 s would need
    # them to 1000 + 8 + 900 = 1908: rejected (immediate leases are not preempted).
    world = run([lease(1, 0, LeaseMode.AR, 1800, 4, start=1800),
                 lease(2, 1000, LeaseMode.IMMEDIATE, 900, 1)])
    assert [j.id for j in world.world.log.rejected] == [2]


def test_an_ar_that_cannot_get_its_vms_is_rejected():
    # AR 1 holds VMs 0-1 over [992, 2800); AR 2 wants all 4 VMs at 1500: an AR is never
    # preempted, so AR 2 is rejected; AR 3 at 1000 cannot get its image by its start (too late).
    world = run([lease(1, 0, LeaseMode.AR, 1800, 2, start=1000),
                 lease(2, 10, LeaseMode.AR, 600, 4, start=1500),
                 lease(3, 995, LeaseMode.AR, 60, 1, start=1000)])
    log = world.world.log
    assert sorted(j.id for j in log.rejected) == [2, 3]
    assert "fewer are free" in log.reasons[2]
    assert "cannot end by its start" in log.reasons[3]
    assert counters(world)["ar_rejected"] == 2


def test_starting_late_the_ar_waits_for_the_running_best_effort_lease(haizea):
    # preemption.lwf with preemption: start-late. Lease 1 keeps VM 0 until 3608; the AR gets all 4
    # VMs then: transfer [3608, 3616), run 1800 s to 5416; it started 1816 s late.
    world = run(haizea("preemption"), preemption="start-late")
    assert schedule(world) == {
        1: [("transfer", 0.0, X, (0,)), ("run", X, 3608.0, (0,))],
        2: [("transfer", 3608.0, 3616.0, (0, 1, 2, 3)), ("run", 3616.0, 5416.0, (0, 1, 2, 3))],
    }
    assert counters(world)["ar_delay"] == 1816.0


def test_without_backfilling_a_small_lease_waits_behind_a_blocked_wide_one():
    # Lease 1 holds VMs 0-2 to 8 + 3600; lease 2 needs 4 VMs (blocked until 3608); lease 3 needs
    # 1 VM for 10 min: with backfilling it runs now on VM 3, without it waits for lease 2.
    leases = [lease(1, 0, LeaseMode.BEST_EFFORT, 3600, 3), lease(2, 10, LeaseMode.BEST_EFFORT, 600, 4),
              lease(3, 20, LeaseMode.BEST_EFFORT, 600, 1)]
    assert schedule(run(leases))[3][0] == ("transfer", 20.0, 28.0, (3,))
    assert schedule(run(leases, backfill=False))[3][0] == ("transfer", 4216.0, 4224.0, (0,))


def test_a_best_effort_lease_fills_the_gap_before_an_ar_and_is_suspended_for_it():
    # AR 1 books all 4 VMs over [992, 1600). Best-effort lease 2 (1 VM, 1 h) at 0 does not fit
    # before it: it starts on VM 0, runs [8, 960), saves [960, 992); after the AR it reloads
    # [1600, 1632) and runs its 3600 - 952 = 2648 s left, to 4280. Without fill_gaps it waits.
    leases = [lease(1, 0, LeaseMode.AR, 600, 4, start=1000), lease(2, 0, LeaseMode.BEST_EFFORT, 3600, 1)]
    assert schedule(run(leases))[2] == [
        ("transfer", 0.0, 8.0, (0,)), ("run", 8.0, 960.0, (0,)), ("save", 960.0, 992.0, (0,)),
        ("reload", 1600.0, 1632.0, (0,)), ("run", 1632.0, 4280.0, (0,))]
    assert schedule(run(leases, fill_gaps=False))[2] == [("transfer", 1600.0, 1608.0, (0,)),
                                                         ("run", 1608.0, 5208.0, (0,))]


def test_an_ar_cuts_a_best_effort_transfer_short_and_the_lease_starts_over():
    # Lease 1 (4 VMs, 1 h) starts its transfer at 0; AR 2 arrives at 1 for all 4 VMs at 10: the
    # transfer must stop at 1 (the AR's own transfer is [2, 10) and there is nothing to save); lease
    # 1 goes back to the queue and starts over when the AR ends at 70: [70, 78), run to 3678.
    leases = [lease(1, 0, LeaseMode.BEST_EFFORT, 3600, 4), lease(2, 1, LeaseMode.AR, 60, 4, start=10)]
    world = run(leases)
    assert schedule(world)[1] == [("cancelled", 0.0, 1.0, (0, 1, 2, 3)), ("transfer", 70.0, 78.0, (0, 1, 2, 3)),
                                  ("run", 78.0, 3678.0, (0, 1, 2, 3))]
    assert counters(world)["cancelled"] == 1


def test_a_lease_too_big_for_the_cloud_is_rejected_on_arrival():
    world = run([lease(1, 0, LeaseMode.BEST_EFFORT, 60, 5)])
    assert [j.id for j in world.world.log.rejected] == [1]


def test_rigid_jobs_run_as_best_effort_leases_without_overheads():
    # No cloud given (plain simulate): no transfers; jobs are best-effort leases. Job 1 (3 hosts,
    # 100 s) and job 2 (2 hosts, 50 s) at 0: job 2 is blocked, booked on hosts 0-1 at 100; job 3
    # (1 host, 60 s) at 5 backfills host 3 (to 65); job 4 (1 host, 200 s) at 6 finds no free host,
    # and at 65 takes host 3: it runs past 100, but job 2's booking is on hosts 0-1 (VM identity).
    from cloudsim_py import Job, simulate

    jobs = [Job(1, 0.0, 3, runtime=100.0), Job(2, 0.0, 2, runtime=50.0), Job(3, 5.0, 1, runtime=60.0),
            Job(4, 6.0, 1, runtime=200.0)]
    r = simulate(jobs, hosts=4, policy="leases", check=True)
    starts = dict(zip(r.records["id"].tolist(), r.records["start"].tolist()))
    assert starts == {1: 0.0, 2: 100.0, 3: 5.0, 4: 65.0}


class _ReversedSet(set):
    """A set that iterates in the reverse of the order a plain set would (membership unchanged)."""

    def __iter__(self):
        return reversed(list(super().__iter__()))


@pytest.mark.parametrize("order, first", [("newest", 2), ("oldest", 1)])
@pytest.mark.parametrize("scrambled", [False, True])
def test_an_ar_preempting_a_running_and_a_future_lease_requeues_them_in_its_preemption_order(
        order, first, scrambled, monkeypatch):
    # Found by the cloud stress test: the same scenario gave two schedules in one process. No
    # image, no memory. Aggressive backfilling: lease 1 (4 VMs, 600 s) runs [0, 600); lease 2
    # (the same) is the future lease at 600. AR 3 (submitted at 100 for [100, 700) on the 4 VMs)
    # preempts both: lease 2 loses its plan and lease 1 is suspended at once (nothing to save);
    # both go back to the queue in the order the AR chose them (``preempt_order``), each behind
    # the other waiting lease submitted at the same time (docs/federation.md, rules 3 and 4). The
    # first one runs after the AR, [700, 1300) or (lease 1, 500 s left) [700, 1200); the other
    # after it. The victims were a set of plans, taken in the order of their ids in memory: the
    # requeue order, and so the schedule, changed from run to run (``scrambled`` iterates every
    # set of the local discipline the other way round: the schedule must not change).
    if scrambled:
        monkeypatch.setattr(local_module, "set", _ReversedSet, raising=False)

    def mk(id, mode, duration, start=None):
        return LeaseRequest(id=id, submit_time=100.0 if mode is LeaseMode.AR else 0.0, mode=mode,
                            duration=duration, nodes=4, start=start)

    leases = [mk(1, LeaseMode.BEST_EFFORT, 600.0), mk(2, LeaseMode.BEST_EFFORT, 600.0),
              mk(3, LeaseMode.AR, 600.0, start=100.0)]
    got = schedule(run(leases, backfill="aggressive", preempt_order=order))
    vms = (0, 1, 2, 3)
    if first == 2:
        one, two = [("run", 0.0, 100.0, vms), ("run", 1300.0, 1800.0, vms)], [("run", 700.0, 1300.0, vms)]
    else:
        one, two = [("run", 0.0, 100.0, vms), ("run", 700.0, 1200.0, vms)], [("run", 1200.0, 1800.0, vms)]
    assert got == {1: one, 2: two, 3: [("run", 100.0, 700.0, vms)]}


def test_a_gap_start_s_save_ends_by_the_next_booking_in_floating_point():
    # Found by the cloud stress test (a CapacityError: "reservation 5 [1783.48, 1800.61) on VM 0
    # overlaps reservation 3 [1800.61, 3601.83)"). Two VMs, aggressive backfilling, enactment
    # 0.61 s per VM (a shutdown of 0.61 s for one VM, 1.22 s for two), saves at 31 MB/s. Leases
    # 7 and 3 run on VMs 1 and 0; lease 5 (both VMs) is the future lease at 1800.61, after lease
    # 7's run and shutdown. Lease 3 ends early at 900: lease 8 (512 MB) starts in the gap on VM
    # 0, to be suspended so that its save (512 / 31 + 0.61 s) ends at 1800.61. 1800.61 - save
    # + save rounds to 1800.6100000000001: the save overlapped lease 5's booking by one ulp.
    from cloudsim_py.clouds.overheads import Overheads

    vm = VMType("v0", cpus=1, memory_mb=1024, disk_mb=0, bandwidth_mbps=8)
    cloud = CloudSpec("c0", vm, 2)
    be = LeaseMode.BEST_EFFORT
    leases = [LeaseRequest(id=3, submit_time=0.0, mode=be, duration=1800, nodes=1, real_duration=900.0),
              LeaseRequest(id=5, submit_time=0.0, mode=be, duration=1800, nodes=2),
              LeaseRequest(id=7, submit_time=0.0, mode=be, duration=1800, nodes=1),
              LeaseRequest(id=8, submit_time=0.0, mode=be, duration=1800, nodes=1, memory_mb=512)]
    system = build_lease_cloud(leases, cloud, check=True, params={"backfill": "aggressive"},
                               overheads=Overheads(suspend_mbps=31, enactment_s=0.61))
    local = system.world.broker.local
    system.world.sim.after_timestamp(lambda now: local._check())
    system.run()
    got = schedule(system)
    save = 512 / 31 + 0.61
    (_, _, cut, _), (kind, start, end, vms) = got[8][:2]
    assert (kind, vms) == ("save", (0,)) and start == cut and end <= 1800.61
    assert abs(cut - (1800.61 - save)) < 1e-9 and abs(end - start - save) < 1e-9
    assert got[5][0] == ("run", 1800.61, 1800.61 + 1800, (0, 1))
