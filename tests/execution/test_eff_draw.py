"""When the background efficiency ``eff`` is drawn: the four readings of Liu 2015 sections 3.1
and 4.1 (``interference.eff_draw``; docs/progress.md, "When eff is drawn").

The sampler buffers its draws: the first call takes 4,096 uniforms from the ``interference``
stream, the first normal draw then 4,096 normals. So with ``rng = default_rng(s)``,
``u = rng.random(4096)`` then ``z = rng.standard_normal(4096)`` are the numbers it uses, in
order: two uniforms per call (``loss``, then ``eff`` of a one-process job), normals for
several-process jobs."""

from __future__ import annotations

import attrs
import numpy as np
import pytest

from cloudsim_py import Broker, Datacenter, Job, Simulation, simulate
from cloudsim_py.errors import SpecError
from cloudsim_py.execution.interference import InterferenceModel, clipped_normal_mean, presets
from cloudsim_py.infrastructure.spec import DatacenterSpec

LIU = presets.get("liu2015")


class Job3:
    """Stands for a job: the sampler reads only ``procs``."""

    def __init__(self, procs: int) -> None:
        self.procs = procs


def stream(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.random(4096), rng.standard_normal(4096)


def clip(x: float) -> float:
    return min(0.8, max(0.2, x))


def sampler(how: str, seed: int = 5):
    return attrs.evolve(LIU, eff_draw=how).sampler(np.random.default_rng(seed))


# ----------------------------------------------------------------- placement (one per job)

def test_placement_draws_one_eff_per_job_shared_by_its_processes():
    u, z = stream(5)
    got = sampler("placement").draw_many(Job3(3), 3)
    loss, eff = 0.005 + 0.035 * u[0], clip(0.43 + 0.14 * z[0])
    assert got == [(eff, loss)] * 3


def test_a_one_process_job_draws_eff_from_the_second_uniform():
    u, _ = stream(5)
    assert sampler("placement").draw_many(Job3(1), 1) == [(0.8 + 0.2 * u[1], 0.005 + 0.035 * u[0])]


# ----------------------------------------------------------------- process (one per process)

def test_process_draws_one_eff_per_process_and_one_loss_for_the_job():
    u, z = stream(5)
    got = sampler("process").draw_many(Job3(3), 3)
    loss = 0.005 + 0.035 * u[0]
    assert got == [(clip(0.43 + 0.14 * z[i]), loss) for i in range(3)]
    # the next placement goes on with the next normals and uniforms
    s = sampler("process")
    s.draw_many(Job3(3), 3)
    assert s.draw_many(Job3(2), 2) == [(clip(0.43 + 0.14 * z[3]), 0.005 + 0.035 * u[2]),
                                       (clip(0.43 + 0.14 * z[4]), 0.005 + 0.035 * u[2])]


def test_process_draws_make_a_wide_job_run_at_its_slowest_process():
    # two hosts; the foreground uses 0.5 of each; the background job needs 0.5 per process:
    # each process runs at its own eff * min(1, 0.5 / 0.5), the job at the smaller one
    model = attrs.evolve(LIU, eff_draw="process")
    sim = Simulation(seed=11)
    dc = Datacenter(sim, hosts=2, tiers=2, interference=model)
    dc.attach(Idle())
    fg = Job(1, 0, 2, runtime=100, cpu_usage=(0.5, 0.5), cpu_estimate=(0.5, 0.5))
    bg = Job(2, 0, 2, runtime=100, cpu_usage=(0.5, 0.5), cpu_estimate=(0.5, 0.5))
    dc.submit(fg)
    dc.submit(bg)
    dc.start(fg, 0, hosts=[0, 1])
    dc.start(bg, 1, hosts=[0, 1])
    rng = sim.random.__class__(11)["interference"]     # the same named stream, afresh
    u = rng.random(4096)
    z = rng.standard_normal(4096)
    # fg placement: two uniforms, two normals (its own effs, unused in the foreground);
    # bg placement: the next two normals
    effs = [clip(0.43 + 0.14 * z[2]), clip(0.43 + 0.14 * z[3])]
    assert effs[0] != effs[1]
    assert dc.speed_of(bg) == pytest.approx(min(effs))
    assert dc.speed_of(fg) == pytest.approx(1 - (0.005 + 0.035 * u[0]))


# ----------------------------------------------------------------- mean (no draw)

def test_mean_gives_the_expected_eff_exactly():
    # one process: U(0.8, 1.0) has mean 0.9; several: the clipped normal's mean
    s = sampler("mean")
    u, _ = stream(5)
    assert s.draw_many(Job3(1), 1) == [(0.9, 0.005 + 0.035 * u[0])]
    assert s.draw_many(Job3(4), 4) == [(LIU.mean_eff(4), 0.005 + 0.035 * u[2])] * 4


def test_the_clipped_normal_mean_by_hand():
    # symmetric clipping keeps the mean: N(0.5, 0.1) in [0.3, 0.7] -> 0.5
    assert clipped_normal_mean(0.5, 0.1, 0.3, 0.7) == pytest.approx(0.5, abs=1e-15)
    # sd 0: the mean itself, clipped
    assert clipped_normal_mean(0.9, 0.0, 0.2, 0.8) == 0.8
    # liu2015, N(0.43, 0.14) clipped to [0.2, 0.8]: a = -1.642857, b = 2.642857,
    # Phi(a) = 0.0502062, 1 - Phi(b) = 0.0041105, phi(a) = 0.1034747, phi(b) = 0.0121396:
    # 0.2 * 0.0502062 + 0.8 * 0.0041105 + 0.43 * 0.9456833 + 0.14 * 0.0913351 = 0.4327604
    assert LIU.mean_eff(2) == pytest.approx(0.4327604, abs=1e-7)
    # and a million clipped draws agree to 1e-3
    draws = np.clip(np.random.default_rng(0).normal(0.43, 0.14, 1_000_000), 0.2, 0.8)
    assert abs(draws.mean() - LIU.mean_eff(2)) < 1e-3


def test_every_reading_draws_the_same_first_losses():
    def losses(how):
        s = sampler(how)
        return [s.draw_many(Job3(p), p)[0][1] for p in (1, 3, 2, 1)]

    assert len({tuple(losses(how)) for how in ("placement", "slice", "process", "mean")}) == 1


def test_mean_and_placement_draw_the_same_losses_all_along():
    # 5,000 placements of 3-process jobs refill both buffers (4,096 each): mean takes the
    # normals placement uses and drops them, so the stream stays in step
    a, b = sampler("placement"), sampler("mean")
    pa = [a.draw_many(Job3(3), 3)[0] for _ in range(5000)]
    pb = [b.draw_many(Job3(3), 3)[0] for _ in range(5000)]
    assert [x[1] for x in pa] == [x[1] for x in pb]
    assert {x[0] for x in pb} == {LIU.mean_eff(3)} and len({x[0] for x in pa}) > 1000


# ----------------------------------------------------------------- slice (redrawn every slice_s)

class Idle(Broker):
    def schedule(self, now):
        pass


def slice_world(how: str):
    # one host; fg uses 0.5, the bg job needs 0.5: bg speed = its eff exactly; loss of the fg
    # slot 0.005 + 0.035 u (when bg is busy); slices of 10 s
    model = InterferenceModel("t", loss_low=0.0, loss_high=0.1, single_low=0.5, single_high=1.0,
                              eff_draw=how)
    sim = Simulation(seed=4)
    dc = Datacenter(sim, hosts=1, tiers=2, interference=model, slice_s=10.0)
    dc.attach(Idle())
    fg = Job(1, 0, 1, runtime=1000, cpu_usage=(0.5,), cpu_estimate=(0.5,))
    bg = Job(2, 0, 1, runtime=1000, cpu_usage=(0.5,), cpu_estimate=(0.5,))
    dc.submit(fg)
    dc.submit(bg)
    dc.start(fg, 0)
    dc.start(bg, 1)
    u = sim.random.__class__(4)["interference"].random(4096)
    return sim, dc, fg, bg, u


def test_slice_redraws_the_background_eff_every_slice_and_keeps_the_loss():
    sim, dc, fg, bg, u = slice_world("slice")
    # placements: fg takes u0 (loss), u1; bg takes u2, u3 (eff)
    assert dc.speed_of(bg) == pytest.approx(0.5 + 0.5 * u[3])
    assert dc.speed_of(fg) == pytest.approx(1 - 0.1 * u[0])
    sim.run(until=15.0)
    # slice end at t = 10: running jobs in start order, fg takes u4, u5, bg u6, u7
    assert dc.speed_of(bg) == pytest.approx(0.5 + 0.5 * u[7])
    assert dc.speed_of(fg) == pytest.approx(1 - 0.1 * u[0])      # loss not redrawn
    sim.run(until=25.0)
    assert dc.speed_of(bg) == pytest.approx(0.5 + 0.5 * u[11])
    # work done by t = 25: 10 s at each of the first two effs, 5 s at the third
    done = 10 * (0.5 + 0.5 * u[3]) + 10 * (0.5 + 0.5 * u[7]) + 5 * (0.5 + 0.5 * u[11])
    assert dc.remaining_work(bg) == pytest.approx(1000 - done)


def test_placement_keeps_the_eff_of_the_placement_for_the_whole_run():
    sim, dc, fg, bg, u = slice_world("placement")
    sim.run(until=25.0)
    assert dc.speed_of(bg) == pytest.approx(0.5 + 0.5 * u[3])
    assert dc.remaining_work(bg) == pytest.approx(1000 - 25 * (0.5 + 0.5 * u[3]))


def test_same_seed_same_result_under_every_reading():
    jobs = [(0, 3, 400, 0.6), (5, 2, 300, 0.5), (7, 1, 200, 1.0), (9, 4, 900, 0.7), (30, 2, 50, 0.4)]

    def run(how, seed):
        js = [Job(i, s, p, runtime=r, cpu_usage=(c,) * p, cpu_estimate=(c,) * p)
              for i, (s, p, r, c) in enumerate(jobs, 1)]
        res = simulate(js, hosts=4, tiers=2, policy="acfcfs", seed=seed, slice_s=60.0,
                       interference={"preset": "liu2015", "eff_draw": how})
        assert res.summary["jobs_finished"] == 5
        return [(j.id, j.finish_time) for j in js], res.summary["avg_wait"]

    runs = {how: run(how, 1) for how in ("placement", "slice", "process", "mean")}
    for how, first in runs.items():
        assert run(how, 1) == first
    assert len({str(r) for r in runs.values()}) == 4      # and the readings do differ here


# ----------------------------------------------------------------- the scenario key

def test_the_liu2015_preset_takes_the_expected_value_other_models_draw_per_placement():
    # liu2015: Liu 2015 section 4.1's per-slice eff, summed over a job's slices (notes)
    assert LIU.eff_draw == "mean"
    assert DatacenterSpec(tiers=2).interference_model().eff_draw == "mean"
    assert presets.get("liu2013").eff_draw == "placement"
    assert InterferenceModel().eff_draw == "placement"


def test_eff_draw_is_a_scenario_key_checked_by_name():
    spec = DatacenterSpec(tiers=2, interference={"preset": "liu2015", "eff_draw": "mean"})
    assert spec.interference_model().eff_draw == "mean"
    assert spec.interference_model().multi_mean == 0.43
    with pytest.raises(SpecError, match=r"interference\.eff_draw: expected one of placement, slice, "
                                        r"process, mean .*got 'sometimes'"):
        DatacenterSpec(tiers=2, interference={"eff_draw": "sometimes"})
    with pytest.raises(SpecError, match=r"interference\.eff_draw: .*got 1"):
        DatacenterSpec(tiers=2, interference={"eff_draw": 1})
    with pytest.raises(ValueError, match="eff_draw = 'often'"):
        InterferenceModel(eff_draw="often")
