"""FDMMS's mappable set on arrays (:class:`ReadySet`): slots in the order tasks became ready, a
decided task's slot dead (infinite transfer time), compaction that keeps the order."""

from __future__ import annotations

import math

from cloudsim_py.brokers.dags import DagRun, ReadySet, TaskOrder
from cloudsim_py.workload.dag import build_dag_job


def orders(count):
    dag = build_dag_job("j", {i: {"runtime": 1.0} for i in range(count)}, [])
    run = DagRun(dag, 1, 0, {}, count)
    return [TaskOrder(run, i, i, 1.0, 0.0, 0.0, [1, 2], [3.0, 4.0], [float(i), 2.0 * i], nb=[0.0, 5.0])
            for i in range(count)]


def test_a_decided_task_leaves_a_dead_slot_with_an_infinite_transfer_time():
    ready = ReadySet(2)
    a, b, c = orders(3)
    for o in (a, b, c):
        ready.add(o)
    ready.remove(b)
    snap = ready.snapshot()
    assert snap.size == 3 and snap.orders == [a, None, c] and len(ready) == 2
    assert snap.x[:, 1].tolist() == [math.inf, math.inf]
    assert snap.x[:, 2].tolist() == [3.0, 4.0] and snap.e[:, 2].tolist() == [2.0, 4.0]
    assert snap.nb[:, 2].tolist() == [0.0, 5.0] and snap.n[:, 2].tolist() == [1, 2]


def test_a_snapshot_with_most_slots_dead_is_compacted_in_the_same_order():
    # 100 tasks, 80 decided: 100 slots > 2 x 20 + 32, so the round sees the 20 live ones,
    # in the order they became ready; compaction makes new arrays, the snapshot taken before
    # keeps the ones it was given.
    ready = ReadySet(2)
    tasks = orders(100)
    for o in tasks:
        ready.add(o)
    before = ready.snapshot()
    for o in tasks[:80]:
        ready.remove(o)
    snap = ready.snapshot()
    assert snap.size == 20 and snap.orders == tasks[80:]
    assert snap.e[0, :20].tolist() == [float(i) for i in range(80, 100)]
    assert before.size == 100 and before.e[0, 5] == 5.0


def test_a_few_dead_slots_are_left_in_place():
    ready = ReadySet(2)
    tasks = orders(40)
    for o in tasks:
        ready.add(o)
    for o in tasks[:10]:
        ready.remove(o)
    assert ready.snapshot().size == 40          # 40 <= 2 x 30 + 32: not worth a copy
