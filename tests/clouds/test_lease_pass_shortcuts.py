"""The shortcuts of the project's lease pass give what the plain pass gives: random lease
workloads (best-effort leases of many widths, some ending early, ARs that suspend them, moved
heads) run with the shortcuts and with plain references of what they shorten, and every
interval, record and counter is the same.

The references: :meth:`BackfillQueue._backfill` as first written (every lease behind the head
asked through :meth:`BackfillQueue._fit`); :meth:`SlotTable.start_bound` without the floor kept
from the last answer (:class:`~cloudsim_py.clouds.slottable._Floor`); the free VMs of a pass
from :meth:`SlotTable.free_lists` at every pass (no :meth:`SlotTable.free_map`)."""

from __future__ import annotations

import random
from bisect import bisect_left

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from cloudsim_py.clouds.backfill_queue import BackfillQueue
from cloudsim_py.clouds.cloud import CloudSpec
from cloudsim_py.clouds.slottable import SlotTable
from cloudsim_py.clouds.vmtypes import VMType
from cloudsim_py.systems.clouds import build_lease_cloud
from cloudsim_py.workload.job import Job
from cloudsim_py.workload.lease import LeaseMode, LeaseRequest
from cloudsim_py.workload.lease_job import LeaseJob

VM = VMType("node", cpus=1, memory_mb=1024, disk_mb=0, bandwidth_mbps=128)


def random_leases(seed: int, n_vms: int, count: int = 240) -> list[LeaseRequest]:
    rng = random.Random(seed)
    out, t = [], 0.0
    for i in range(1, count + 1):
        t += rng.choice([0.0, 0.0, 60.0, 300.0, 900.0])
        if rng.random() < 0.15:
            start = t + rng.choice([600.0, 1800.0, 3600.0])
            out.append(LeaseRequest(id=i, submit_time=t, mode=LeaseMode.AR, duration=rng.choice([600.0, 1800.0]),
                                    nodes=rng.randint(1, n_vms), start=start, memory_mb=1024, image_mb=1024))
            continue
        duration = rng.choice([300.0, 1200.0, 3600.0, 7200.0])
        real = duration if rng.random() < 0.5 else duration * rng.choice([0.1, 0.5, 0.9])
        nodes = rng.choice([1, 1, 2, 3, n_vms // 2, n_vms - 1, n_vms])
        out.append(LeaseRequest(id=i, submit_time=t, mode=LeaseMode.BEST_EFFORT, duration=duration, nodes=nodes,
                                real_duration=real, memory_mb=1024, image_mb=1024))
    return out


def plain_backfill(self, plans, now, free, head, held, started, ends):
    """BackfillQueue._backfill before its inline test: every lease checked by _fit."""
    width = len(ends)
    for p in [p for p in plans if p.job.procs <= width or p.ready_at > now]:
        if p.ready_at > now:
            self.cloud.wake_at(p.ready_at)
            continue
        if p.job.procs > len(ends):
            continue
        fit = self._fit(p, now, free, ends)
        if fit is not None and not held:
            self._hold(head, now, free)
            ends = sorted(free.values())
            held = True
            fit = self._fit(p, now, free, ends)
        if fit is not None:
            gone = [free[v] for v in fit[1]]
            self._take(p, fit[1], fit[0], now, free, None)
            started.append(p)
            if not free:
                return head, held, []
            for u in gone:
                del ends[bisect_left(ends, u)]
    return head, held, ends


def plain_start_bound(self, n, duration, not_before=0.0, vms=None):
    self._floor = None                      # (no floor kept: the bound from the last ends)
    return ORIGINAL_BOUND(self, n, duration, not_before, vms)


ORIGINAL_BOUND = SlotTable.start_bound


def outcome(leases, n_vms, params):
    system = build_lease_cloud(leases, CloudSpec("site", VM, n_vms, copy_mbps=32), check=True, params=params)
    local = system.world.broker.local
    system.world.sim.after_timestamp(lambda now: local._check())
    system.run()
    rec = system.records[0]
    done = system.world.log.records().by_id()
    return ({i: rec.of(i) for i in sorted(done)}, [job.id for job in system.world.log.rejected],
            system.world.broker.counters(), system.world.sim.events_processed)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("params", [{"preemption": "suspend"}, {"preemption": "suspend", "migrate": False}, {}])
def test_the_lease_pass_with_its_shortcuts_gives_the_plain_pass_schedule(monkeypatch, seed, params):
    n_vms = 6 + seed
    leases = random_leases(seed, n_vms)
    fast = outcome(leases, n_vms, params)
    with monkeypatch.context() as m:
        m.setattr(BackfillQueue, "_backfill", plain_backfill)
        m.setattr(SlotTable, "start_bound", plain_start_bound)
        m.setattr(SlotTable, "free_map", lambda self, t: None)
        plain = outcome(leases, n_vms, params)
    assert fast == plain
    assert fast[0]


def plan_fields(p) -> dict:
    out = {f.name: getattr(p, f.name) for f in attrs.fields(type(p)) if f.name not in ("key", "arrival")}
    out["submit"] = (p.key[0], p.arrival[0])
    return out


@given(st.integers(1, 4), st.floats(0, 1e4), st.floats(1, 1e4), st.sampled_from(list(LeaseMode)), st.booleans(),
       st.sampled_from([0.0, 64.0, 600.0]), st.sampled_from([0.0, 1024.0]), st.one_of(st.none(), st.floats(0, 2e4)),
       st.sampled_from([0.0, 30.0]), st.one_of(st.none(), st.floats(0, 2e4)))
@settings(max_examples=200, deadline=None)
def test_a_leases_plan_read_field_by_field_equals_the_probed_plan(procs, submit, duration, mode, preemptible, image,
                                                                   memory, start, carved, ready_at):
    system = build_lease_cloud([], CloudSpec("site", VM, 4, copy_mbps=32), params={"preset": "haizea"})
    local = system.world.broker.local
    desc = LeaseJob(id=1, submit_time=submit, procs=procs, runtime=duration, runtime_estimate=duration, mode=mode,
                    start=start, preemptible=preemptible, image_mb=image, memory_mb=memory, carved=carved)
    job = Job(desc)
    fast, probed = local.plan(job, ready_at), local._plan_probed(job, ready_at)
    assert plan_fields(fast) == plan_fields(probed)
    assert type(fast.left) is type(probed.left) is float and type(fast.ready_at) is float
