"""The per-cloud slot table: hand cases, then random reservations and queries against a brute-force
reference (hypothesis state machine, invariants checked after every step)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from cloudsim_py.errors import CapacityError
from cloudsim_py.clouds.slottable import BIG, Reservation, SlotTable, _gap_windows


# -- hand cases -------------------------------------------------------------------------------

def test_an_empty_table_answers_not_before_and_the_lowest_vms():
    assert SlotTable(4).earliest_start(2, 10.0, not_before=5.0) == (5.0, (0, 1))


def test_haizea_preemption_case_all_four_nodes_free_after_the_best_effort_lease():
    # preemption.lwf: a 1-node best-effort lease holds VM 0 over [0, 3600); the AR wants 4 VMs for
    # 1800 s from 1800: without preemption the earliest start is 3600
    table = SlotTable(4)
    table.reserve("lease-1", [0], 0.0, 3600.0)
    assert table.earliest_start(4, 1800.0, not_before=1800.0) == (3600.0, (0, 1, 2, 3))
    assert table.earliest_start(3, 1800.0, not_before=1800.0) == (1800.0, (1, 2, 3))
    assert [r.id for r in table.overlapping(1800.0, 3600.0)] == ["lease-1"]


def test_a_gap_exactly_as_long_as_the_duration_fits():
    # VM 0 busy [0, 10) and [20, 30): a 10 s task fits exactly in [10, 20)
    table = SlotTable(1)
    table.reserve("a", [0], 0.0, 10.0)
    table.reserve("b", [0], 20.0, 30.0)
    assert table.earliest_start(1, 10.0) == (10.0, (0,))
    assert table.earliest_start(1, 11.0) == (30.0, (0,))


def test_n_vms_must_be_free_at_the_same_time():
    # VM 0 is free over [0, 5) and from 20, VM 1 from 10: two VMs for 5 s together only from 20
    table = SlotTable(2)
    table.reserve("a", [0], 5.0, 20.0)
    table.reserve("b", [1], 0.0, 10.0)
    assert table.earliest_start(2, 5.0) == (20.0, (0, 1))


def test_candidate_vms_restrict_the_answer():
    table = SlotTable(4)
    table.reserve("a", [0, 1], 0.0, 100.0)
    # VMs 0 and 1 busy [0, 100): among {0, 1, 3} two VMs are free together only from 100
    assert table.earliest_start(2, 10.0, vms=[0, 1, 3]) == (100.0, (0, 1))
    assert table.earliest_start(1, 10.0, vms=[0, 1, 3]) == (0.0, (3,))


def test_shorten_frees_the_slots_from_the_new_end():
    # a lease booked [0, 3600) that ends at 2700 (Haizea's premature end): free from 2700
    table = SlotTable(1)
    table.reserve("be", [0], 0.0, 3600.0)
    assert table.shorten("be", 2700.0) == Reservation("be", (0,), 0.0, 2700.0)
    assert table.earliest_start(1, 900.0) == (2700.0, (0,))


def test_free_until_gives_each_free_vm_the_start_of_its_next_reservation():
    table = SlotTable(3)
    table.reserve("a", [0], 0.0, 10.0)      # VM 0 busy at 5
    table.reserve("b", [1], 20.0, 30.0)     # VM 1 free at 5 until 20
    table.reserve("c", [2], 0.0, 5.0)       # VM 2 free from 5 (half-open), nothing after
    assert table.free_until(5.0) == {1: 20.0, 2: float("inf")}
    assert table.free_until(5.0, [0, 1]) == {1: 20.0}


def test_horizons_in_order_and_the_longest_gap_before_a_booking():
    table = SlotTable(3)
    table.reserve("a", [0], 0.0, 10.0)
    table.reserve("b", [0], 15.0, 20.0)     # VM 0: a gap of 5 s between its bookings
    table.reserve("c", [1], 12.0, 14.0)     # VM 1: free from t until 12
    # horizons at 4: VM 2 never booked (4), VM 1 free for good from 14, VM 0 from 20; the
    # longest gap: VM 1's 12 - 4 = 8 s ahead of its first booking, more than VM 0's 5 s
    assert table.longest_gap(4.0) == 8.0
    assert table.longest_gap(9.0) == 5.0    # VM 1's wait is 3 s now: VM 0's gap is longer
    assert table.longest_gap(13.0) == 5.0   # no first booking ahead any more
    assert [table.horizon(n, 4.0) for n in (1, 2, 3)] == [4.0, 14.0, 20.0]
    assert table.horizon(1, 25.0) == 25.0   # every VM free for good by then


def test_release_frees_everything():
    table = SlotTable(2)
    table.reserve("x", [0, 1], 0.0, 50.0)
    table.release("x")
    assert (len(table), table.earliest_start(2, 10.0)) == (0, (0.0, (0, 1)))


def test_overlapping_lists_reservations_by_start_time():
    table = SlotTable(3)
    table.reserve("late", [2], 30.0, 40.0)
    table.reserve("early", [0, 1], 0.0, 20.0)
    table.reserve("outside", [0], 40.0, 50.0)
    assert [r.id for r in table.overlapping(10.0, 40.0)] == ["early", "late"]
    assert table.free_vms(20.0, 30.0) == [0, 1, 2]
    assert table.free_vms(10.0, 35.0) == []


def test_forget_before_drops_finished_reservations():
    table = SlotTable(1)
    table.reserve("old", [0], 0.0, 10.0)
    table.reserve("new", [0], 10.0, 20.0)
    assert table.forget_before(10.0) == 1 and [r.id for r in table] == ["new"]


def test_an_overlapping_reservation_is_an_error_naming_both():
    table = SlotTable(2)
    table.reserve("a", [1], 0.0, 10.0)
    with pytest.raises(CapacityError, match=r"reservation 'b' \[5, 15\) on VM 1 overlaps reservation 'a' \[0, 10\)"):
        table.reserve("b", [0, 1], 5.0, 15.0)


@pytest.mark.parametrize("vms, start, end, message", [
    ([0, 0], 0.0, 1.0, "needs distinct VMs"), ([5], 0.0, 1.0, "VM 5 is not one of 0..1"),
    ([0], 2.0, 2.0, r"needs start < end, got \[2.0, 2.0\)"), ([], 0.0, 1.0, "needs distinct VMs"),
])
def test_bad_reservations_are_errors(vms, start, end, message):
    with pytest.raises(CapacityError, match=message):
        SlotTable(2).reserve("r", vms, start, end)


def test_unknown_ids_and_bad_shortening_are_errors():
    table = SlotTable(1)
    table.reserve("a", [0], 0.0, 10.0)
    with pytest.raises(CapacityError, match="slot table: no reservation 'zz'"):
        table.release("zz")
    with pytest.raises(CapacityError, match=r"reservation 'a' \[0, 10\) cannot end at 12.0"):
        table.shorten("a", 12.0)
    with pytest.raises(CapacityError, match="reservation 'a' exists already"):
        table.reserve("a", [0], 20.0, 30.0)


def test_asking_more_vms_than_candidates_is_an_error():
    with pytest.raises(CapacityError, match="cannot find 3 VMs among 2 candidates"):
        SlotTable(2).earliest_start(3, 1.0)


def plain_free_pairs(table, t):
    """SlotTable.free_lists by its definition, VM by VM from its booking list: ``(vm, until)``
    of the VMs no booking covers at ``t``, until the next one begins (BIG: never)."""
    out = []
    for v, row in enumerate(table._busy):
        if any(s <= t < e for s, e, _ in row):
            continue
        out.append((v, min([s for s, _, _ in row if s > t], default=BIG)))
    return out


def free_pairs(table, t):
    """SlotTable.free_lists of all VMs as ``(vm, until)`` pairs."""
    return list(zip(*table.free_lists(t)))


def test_free_lists_give_each_free_vm_until_its_next_booking():
    # VM 0 busy [0, 10) then [20, 30); VM 1 busy [5, 15); VM 2 never booked
    table = booked(3, ("a", 0, 0.0, 10.0), ("b", 0, 20.0, 30.0), ("c", 1, 5.0, 15.0))
    assert free_pairs(table, 2.0) == [(1, 5.0), (2, BIG)]
    assert free_pairs(table, 12.0) == [(0, 20.0), (2, BIG)]
    # at 16 VM 1's only booking is over: free for good (its "second booking" never begins)
    assert free_pairs(table, 16.0) == [(0, 20.0), (1, BIG), (2, BIG)]


def test_free_lists_read_the_booking_list_once_a_second_booking_has_begun():
    # VM 0 busy [0, 10), [20, 30), [40, 50): at 25 its second booking covers it, at 35 it is
    # free until its third, at 55 for good (its first booking over, its second begun: the
    # summaries alone cannot tell)
    table = booked(2, ("a", 0, 0.0, 10.0), ("b", 0, 20.0, 30.0), ("c", 0, 40.0, 50.0))
    assert table.free_lists(25.0) == ([1], [BIG])
    assert table.free_lists(35.0) == ([0, 1], [40.0, BIG])
    assert table.free_lists(55.0) == ([0, 1], [BIG, BIG])
    assert table.free_lists(40.0, [0]) == ([], [])          # its third booking begins at 40
    assert table.free_until(35.0, [0]) == {0: 40.0}


def booked(n_vms, *bookings):
    """A table of ``n_vms`` VMs with ``(id, vm, start, end)`` bookings."""
    table = SlotTable(n_vms)
    for rid, vm, start, end in bookings:
        table.reserve(rid, [vm], start, end)
    return table


def _gapped_table():
    # VM 0 busy [0, 10) and [30, 40); VM 1 busy [5, 15); VM 2 busy [20, 25)
    return booked(3, ("a", 0, 0.0, 10.0), ("b", 0, 30.0, 40.0), ("c", 1, 5.0, 15.0), ("d", 2, 20.0, 25.0))


def test_earliest_start_lists_finds_two_vms_in_gaps_as_earliest_start_does():
    # 10 s: VM 0 can from 10 (gap [10, 30)) or 40, VM 1 from 15, VM 2 from 0 (until 20) or 25.
    # At 10, VMs 0 and 2 are both free until 20: two of them from 10
    table = _gapped_table()
    assert table.earliest_start_lists(2, 10.0) == (10.0, (0, 2)) == table.earliest_start(2, 10.0)


def test_earliest_start_lists_with_every_candidate_moves_to_the_first_common_start():
    # all three for 10 s: VM 1 from 15; VM 2's gap ends at 20, so 25; VM 0's gap ends at 30, so 40
    table = _gapped_table()
    assert table.earliest_start_lists(3, 10.0) == (40.0, (0, 1, 2)) == table.earliest_start(3, 10.0)
    # VMs 1 and 2 only, from 3: VM 1 from 15, VM 2's [15, 25) overlaps its booking: 25
    assert table.earliest_start_lists(2, 10.0, 3.0, vms=[2, 1]) == (25.0, (1, 2))
    # 5 s fits VM 2's gap: from 15 both
    assert table.earliest_start_lists(2, 5.0, 3.0, vms=[1, 2]) == (15.0, (1, 2))


def test_start_bound_is_the_kth_latest_end_of_the_vms_without_gaps():
    # four VMs free from 5, 8, 12 and 20: three of them need one of the two latest (12 or 20)
    # free, so nothing before 12; earliest_start says 12 too
    table = SlotTable(4)
    for v, end in enumerate([5.0, 8.0, 12.0, 20.0]):
        table.reserve(v, [v], 0.0, end)
    assert table.start_bound(3, 4.0, 1.0) == 12.0 == table.earliest_start(3, 4.0, 1.0)[0]
    # all four: the latest end; one: the earliest (every VM is busy until 5)
    assert table.start_bound(4, 4.0, 1.0) == 20.0
    assert table.start_bound(1, 4.0, 1.0) == 5.0
    # VM 0 booked again over [15, 16): its gap [5, 15) may hold 9 s, so it is no witness and
    # the bound is the second latest end of VMs 1-3 (12); the answer is 16 (VMs 0-2)
    table.reserve("gap", [0], 15.0, 16.0)
    assert table.start_bound(3, 9.0, 1.0) == 12.0
    assert table.earliest_start(3, 9.0, 1.0) == (16.0, (0, 1, 2))
    # fewer witnesses than needed: not_before
    assert table.start_bound(1, 9.0, 1.0) == 1.0


def test_free_vms_from_the_booking_lists_when_many_rows_are_out_of_date():
    # four VMs: 0 busy [0, 10), 1 busy [5, 15) and [30, 40), 2 busy [12, 20), 3 never booked;
    # every row changed since the arrays were read, so the lists answer: over [10, 12) VMs 0
    # (ended at 10), 2 (begins at 12) and 3 are free, VM 1 is not
    table = booked(4, ("a", 0, 0.0, 10.0), ("b", 1, 5.0, 15.0), ("c", 1, 30.0, 40.0), ("d", 2, 12.0, 20.0))
    assert len(table._dirty) * 4 > table.n_vms
    assert table.free_vms(10.0, 12.0) == [0, 2, 3]
    assert table.free_vms(20.0, 30.0, vms=[1, 2]) == [1, 2]
    assert table._dirty                       # the rows are left for a question that needs them
    table._sync()
    assert table.free_vms(10.0, 12.0) == [0, 2, 3]


def test_an_answer_with_every_candidate_is_kept_across_changes_that_leave_it_true():
    # VM 0 busy [0, 50): VMs (0, 1, 2) together for 10 s from 50, VM 0 the witness that
    # nothing earlier can do
    table = SlotTable(4)
    table.reserve("a", [0], 0.0, 50.0)
    head = (0, 1, 2)
    assert table.earliest_start_lists(3, 10.0, 0.0, head) == (50.0, head)
    kept = next(iter(table._kept.values()))
    # VM 3 (not asked) and VM 1 (asked, still free over [50, 60)) booked: kept, proved again at 6
    table.reserve("b", [3], 0.0, 100.0)
    table.reserve("c", [1], 20.0, 30.0)
    assert table.earliest_start_lists(3, 10.0, 6.0, head) == (50.0, head) == table.earliest_start(3, 10.0, 6.0, head)
    assert next(iter(table._kept.values())) is kept and kept.not_before == 6.0 and not kept.touched
    # VM 2 booked over [55, 70): 50 no longer holds, asked anew: 70
    table.reserve("d", [2], 55.0, 70.0)
    assert table.earliest_start_lists(3, 10.0, 7.0, head) == (70.0, head) == table.earliest_start(3, 10.0, 7.0, head)
    assert next(iter(table._kept.values())) is not kept
    # VM 0's booking gone: earlier times are possible again (its witness changed): from 7
    table.release("a")
    assert table.earliest_start_lists(3, 10.0, 7.0, head) == (7.0, head) == table.earliest_start(3, 10.0, 7.0, head)


def test_an_answer_moved_by_a_gap_is_kept_by_the_chain_of_vms_that_rule_out_earlier_times():
    # VM 0 busy [0, 20); VM 1 busy [25, 30) (its gap before, [0, 25), may hold 10 s): VMs 0 and
    # 1 together for 10 s from 30. No VM alone rules out every earlier time (VM 1 could from 0):
    # VM 0 rules out [0, 20), VM 1 [20, 30), the chain kept with the answer
    table = booked(3, ("a", 0, 0.0, 20.0), ("b", 1, 25.0, 30.0))
    head = (0, 1)
    assert table.earliest_start_lists(2, 10.0, 0.0, head) == (30.0, head) == table.earliest_start(2, 10.0, 0.0, head)
    kept = next(iter(table._kept.values()))
    assert not kept.witnesses and kept.chain == [(20.0, {0}), (30.0, {1})]
    # VM 2 (not asked) booked: the chain still proves 30, the kept answer is given again
    table.reserve("c", [2], 0.0, 100.0)
    assert table.earliest_start_lists(2, 10.0, 5.0, head) == (30.0, head) == table.earliest_start(2, 10.0, 5.0, head)
    assert next(iter(table._kept.values())) is kept and not kept.touched
    # past VM 0's piece, only VM 1's is needed; then VM 1 changes and the answer is asked anew
    table.release("a")
    assert table.earliest_start_lists(2, 10.0, 21.0, head) == (30.0, head) == table.earliest_start(2, 10.0, 21.0, head)
    assert next(iter(table._kept.values())) is kept and kept.chain == [(20.0, set()), (30.0, {1})]
    table.release("b")
    assert table.earliest_start_lists(2, 10.0, 22.0, head) == (22.0, head) == table.earliest_start(2, 10.0, 22.0, head)


def test_a_kept_start_bound_holds_while_its_witnesses_are_unchanged():
    # VMs free from 5, 8, 12, 20: three of four for 4 s not before 12 (VMs 2 and 3 the witnesses)
    table = SlotTable(4)
    for v, end in enumerate([5.0, 8.0, 12.0, 20.0]):
        table.reserve(v, [v], 0.0, end)
    assert table.start_bound(3, 4.0, 1.0) == 12.0
    table.reserve("x", [0], 30.0, 40.0)             # not a witness: still 12
    assert table.start_bound(3, 4.0, 2.0) == 12.0 <= table.earliest_start(3, 4.0, 2.0)[0]
    table.release(2)                                 # a witness freed: asked anew, 8
    assert table.start_bound(3, 4.0, 2.0) == 8.0 <= table.earliest_start(3, 4.0, 2.0)[0]


fractions = st.sampled_from([0.1, 0.3, 20.48, 1.0 / 3.0, 1e6 + 0.3, 7.0])


@settings(max_examples=300, deadline=None)
@given(unit=fractions, bookings=st.lists(st.tuples(st.sets(st.integers(0, 5), min_size=1),
                                                   st.integers(0, 40), st.integers(1, 12)), max_size=20),
       questions=st.lists(st.tuples(st.integers(1, 6), st.integers(1, 30), st.integers(0, 50),
                                    st.none() | st.sets(st.integers(0, 5), min_size=1)), min_size=1, max_size=8))
def test_earliest_start_lists_and_start_bound_agree_with_earliest_start_on_fractional_times(unit, bookings, questions):
    # times in units of fractions that do not add up exactly (0.1, 20.48 s reloads...): the lists
    # give earliest_start's answer to the last bit, and the bound is never above it
    table = SlotTable(6)
    for i, (vms, start, length) in enumerate(bookings):
        if not any(table.overlapping(start * unit, (start + length) * unit, [v]) for v in vms):
            table.reserve(i, sorted(vms), start * unit, (start + length) * unit)
    for n, d, nb, cand in questions:
        n = min(n, 6 if cand is None else len(cand))
        duration, not_before = d * unit * 0.37, nb * unit
        got = table.earliest_start(n, duration, not_before, cand)
        assert table.earliest_start_lists(n, duration, not_before, cand) == got
        assert table.start_bound(n, duration, not_before, cand) <= got[0]
        count = table.free_count(np.array([not_before]), np.array([not_before + duration]))[0]
        assert [table.has_free(k, not_before, not_before + duration) for k in range(1, 7)] == \
            [bool(count >= k) for k in range(1, 7)]


# -- against a brute-force reference -------------------------------------------------------------

class Brute:
    """Reservations in a dict; every answer by enumeration."""

    def __init__(self, n):
        self.n = n
        self.res = {}        # id -> (vms, start, end), in the order made

    def busy(self, v, s, e):
        return any(v in vms and st_ < e and s < en for vms, st_, en in self.res.values())

    def earliest(self, n, d, nb, cand):
        # the earliest start is not_before or the end of a reservation
        for t in sorted({nb} | {en for _, _, en in self.res.values() if en >= nb}):
            free = [v for v in cand if not self.busy(v, t, t + d)]
            if len(free) >= n:
                return t, tuple(free[:n])

    def free_until(self, t, cand):
        out = {}
        for v in cand:
            if any(v in vms and st_ <= t < en for vms, st_, en in self.res.values()):
                continue
            later = [st_ for vms, st_, en in self.res.values() if v in vms and st_ > t]
            out[v] = min(later, default=float("inf"))
        return out

    def overlapping(self, s, e, cand):
        hits = [(st_, k, rid) for k, (rid, (vms, st_, en)) in enumerate(self.res.items())
                if st_ < e and s < en and set(vms) & set(cand)]
        return [rid for _, _, rid in sorted(hits)]


N_VMS = 5
times = st.integers(0, 40)
durations = st.integers(1, 12)
vm_sets = st.sets(st.integers(0, N_VMS - 1), min_size=1, max_size=N_VMS).map(sorted)


class SlotTableMachine(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self.table = SlotTable(N_VMS)
        self.brute = Brute(N_VMS)
        self.next_id = 0
        self.head = None
        self.clock = 0

    def _new_id(self):
        self.next_id += 1
        return f"r{self.next_id}"

    @rule(vms=vm_sets, start=times, length=durations)
    def reserve_anywhere(self, vms, start, length):
        rid, end = self._new_id(), start + length
        if any(self.brute.busy(v, start, end) for v in vms):
            with pytest.raises(CapacityError):
                self.table.reserve(rid, vms, start, end)
        else:
            self.table.reserve(rid, vms, start, end)
            self.brute.res[rid] = (tuple(vms), start, end)

    @rule(n=st.integers(1, N_VMS), duration=durations, not_before=times, cand=st.none() | vm_sets)
    def earliest_then_reserve(self, n, duration, not_before, cand):
        candidates = list(range(N_VMS)) if cand is None else cand
        if n > len(candidates):
            n = len(candidates)
        got = self.table.earliest_start(n, duration, not_before, cand)
        assert got == self.brute.earliest(n, duration, not_before, candidates)
        assert self.table.earliest_start_lists(n, duration, not_before, cand) == got
        assert self.table.start_bound(n, duration, not_before, cand) <= got[0]
        rid = self._new_id()
        t, vms = got
        self.table.reserve(rid, vms, t, t + duration)
        self.brute.res[rid] = (vms, t, t + duration)

    @rule(later=st.integers(0, 6), fresh=st.booleans(), cand=st.none() | vm_sets, duration=durations)
    def ask_the_head_again(self, later, fresh, cand, duration):
        # a pass's head asked again and again (the same tuple, not before a later time), the
        # table changing in between: the kept answers stay exact
        if fresh or self.head is None:
            self.head = (None if cand is None else tuple(cand), duration, 0)
        vms, d, nb = self.head
        nb += later
        self.head = (vms, d, nb)
        candidates = list(range(N_VMS)) if vms is None else list(vms)
        n = len(candidates)
        got = self.table.earliest_start_lists(n, d, nb, vms)
        assert got == self.brute.earliest(n, d, nb, candidates) == self.table.earliest_start(n, d, nb, vms)
        for k in (1, n - 1):
            if k >= 1:
                # the bound (a floor kept from this question's last answer, while few VMs were
                # freed since: _Floor) is never above the answer, which is exact
                want = self.brute.earliest(k, d, nb, candidates)
                assert self.table.start_bound(k, d, nb, vms) <= want[0]
                assert self.table.earliest_start_lists(k, d, nb, vms) == want
                most = max([sum(not self.brute.busy(v, s, s + d) for v in candidates)
                            for s in {nb} | {e for _, _, e in self.brute.res.values()} if nb <= s < want[0]],
                           default=0)
                floor = self.table._floor
                assert k == n or (floor is not None and floor.value == want[0] and floor.slack == k - most)

    @rule(later=st.integers(-3, 6))
    def free_at_a_pass(self, later):
        # the free VMs of a pass kept from the last one and brought up to date (free_map), at
        # times mostly later, sometimes earlier: in id order, the same as free_lists whenever
        # it answers (it leaves a VM whose first booking is over to free_lists)
        self.clock = max(0, self.clock + later)
        got = self.table.free_map(self.clock)
        if got is None:
            assert min(self.table._fe) <= self.clock
        else:
            assert list(got.items()) == list(zip(*self.table.free_lists(self.clock)))

    @precondition(lambda self: self.brute.res)
    @rule(data=st.data())
    def release(self, data):
        rid = data.draw(st.sampled_from(sorted(self.brute.res)))
        self.table.release(rid)
        del self.brute.res[rid]

    @precondition(lambda self: self.brute.res)
    @rule(data=st.data())
    def shorten(self, data):
        rid = data.draw(st.sampled_from(sorted(self.brute.res)))
        vms, s, e = self.brute.res[rid]
        new_end = data.draw(st.integers(s + 1, e))
        self.table.shorten(rid, new_end)
        self.brute.res[rid] = (vms, s, new_end)

    @rule(start=times, length=durations, cand=st.none() | vm_sets)
    def query(self, start, length, cand):
        candidates = list(range(N_VMS)) if cand is None else cand
        end = start + length
        assert [r.id for r in self.table.overlapping(start, end, cand)] == self.brute.overlapping(start, end, candidates)
        assert self.table.free_vms(start, end, cand) == [v for v in candidates if not self.brute.busy(v, start, end)]
        assert self.table._free_listed(start, end, cand) == self.table.free_vms(start, end, cand)
        assert self.table.free_until(start, cand) == self.brute.free_until(start, candidates)
        # the free VMs of a pass from the summaries, against their definition
        assert free_pairs(self.table, start) == plain_free_pairs(self.table, start)
        assert self.table.any_free(start) == bool(plain_free_pairs(self.table, start))
        # a quote's count of the VMs free over its interval from the lists (has_free) is the
        # window arrays' count (free_count) and the brute one, for every n
        free = sum(not self.brute.busy(v, start, end) for v in range(N_VMS))
        assert int(self.table.free_count(np.array([start]), np.array([end]))[0]) == free
        assert [self.table.has_free(k, start, end) for k in range(1, N_VMS + 1)] == \
            [free >= k for k in range(1, N_VMS + 1)]
        # the VMs no overlapping reservation holds are the free ones (LocalCloud._claim reads
        # them so, without the window arrays)
        held = {v for r in self.table.overlapping(start, end) for v in r.vms}
        assert [v for v in range(N_VMS) if v not in held] == self.table.free_vms(start, end)
        # the quote profile's pieces by their definitions: each VM's last end (or the time),
        # the longest gap between two bookings or from the time to a first booking ahead
        per_vm = [sorted((s, e) for vms, s, e in self.brute.res.values() if v in vms) for v in range(N_VMS)]
        horizons = sorted(max([start] + [e for _, e in b]) for b in per_vm)
        gaps = [b[i + 1][0] - b[i][1] for b in per_vm for i in range(len(b) - 1)]
        gaps += [b[0][0] - start for b in per_vm if b and b[0][0] > start]
        assert self.table.longest_gap(start) == max(gaps, default=0.0)
        assert [self.table.horizon(k, start) for k in range(1, N_VMS + 1)] == horizons

    @invariant()
    def consistent(self):
        self.table._check()
        assert {r.id: (r.vms, r.start, r.end) for r in self.table} == self.brute.res


TestSlotTableAgainstBruteForce = SlotTableMachine.TestCase
TestSlotTableAgainstBruteForce.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)


def filled(bookings) -> tuple[SlotTable, "Brute"]:
    """A table of 8 VMs and its brute twin with ``bookings`` (VM sets, start, length) made in
    order, each one that overlaps an earlier one left out."""
    table, brute = SlotTable(8), Brute(8)
    for i, (vms, start, length) in enumerate(bookings):
        if not any(brute.busy(v, start, start + length) for v in vms):
            table.reserve(i, sorted(vms), start, start + length)
            brute.res[i] = (tuple(sorted(vms)), start, start + length)
    return table, brute


def release_or_shorten(table: SlotTable, brute: "Brute", kind: str, pick: int) -> None:
    """Release, or shorten by one, booking ``pick`` (modulo their number) of both tables."""
    ids = sorted(brute.res)
    if not ids:
        return
    r = ids[pick % len(ids)]
    if kind == "release":
        table.release(r)
        del brute.res[r]
        return
    vms, s, e = brute.res[r]
    if e - s > 1:
        table.shorten(r, e - 1)
        brute.res[r] = (vms, s, e - 1)


@settings(max_examples=600, deadline=None)
@given(bookings=st.lists(st.tuples(st.sets(st.integers(0, 7), min_size=1, max_size=3),
                                   st.integers(0, 40), st.integers(1, 12)), min_size=4, max_size=24),
       n=st.integers(3, 7), d=st.integers(1, 12), nb=st.integers(0, 12),
       steps=st.lists(st.tuples(st.sampled_from(["release", "release", "shorten", "reserve", "ask"]),
                                st.integers(0, 100), st.integers(0, 3)), max_size=12))
def test_a_kept_floor_stays_below_the_answer_while_few_vms_are_freed(bookings, n, d, nb, steps):
    # start_bound's floor (the last answer of the same question for fewer VMs than the
    # candidates, _Floor) against the brute answer after releases, shortenings and bookings
    # between the questions, at later not_before
    table, brute = filled(bookings)
    every = list(range(8))
    assert table.earliest_start_lists(n, d, nb) == brute.earliest(n, d, nb, every)
    rid = len(bookings)
    for kind, pick, later in steps:
        if kind in ("release", "shorten"):
            release_or_shorten(table, brute, kind, pick)
        elif kind == "reserve":
            vms, start = (pick % 8, (pick + 3) % 8), nb + later
            if not any(brute.busy(v, start, start + 5) for v in vms):
                rid += 1
                table.reserve(rid, sorted(vms), start, start + 5)
                brute.res[rid] = (tuple(sorted(vms)), start, start + 5)
        nb += later
        want = brute.earliest(n, d, nb, every)
        assert table.start_bound(n, d, nb) <= want[0]
        if kind == "ask":
            assert table.earliest_start_lists(n, d, nb) == want


@settings(max_examples=600, deadline=None)
@given(bookings=st.lists(st.tuples(st.sets(st.integers(0, 7), min_size=1, max_size=3),
                                   st.integers(0, 40), st.integers(1, 12)), min_size=4, max_size=24),
       head=st.sets(st.integers(0, 7), min_size=2, max_size=5), d=st.integers(1, 12), nb=st.integers(0, 12),
       steps=st.lists(st.tuples(st.sampled_from(["release", "shorten", "reserve", "reserve"]),
                                st.integers(0, 100), st.integers(0, 3)), max_size=12))
def test_a_kept_all_free_answer_is_exact_after_changes_inside_and_outside_its_chain(bookings, head, d, nb, steps):
    # the head's question on all its VMs (earliest_start_lists with every candidate), asked
    # again after each change at a later not_before: the answers kept (their witnesses, or the
    # chain of VMs that rule out the times before them) against the brute answer
    table, brute = filled(bookings)
    vms = tuple(sorted(head))
    n = len(vms)
    assert table.earliest_start_lists(n, d, nb, vms) == brute.earliest(n, d, nb, list(vms))
    rid = len(bookings)
    for kind, pick, later in steps:
        if kind in ("release", "shorten"):
            release_or_shorten(table, brute, kind, pick)
        elif kind == "reserve":
            on, start = (pick % 8,), nb + later + pick % 30
            if not brute.busy(on[0], start, start + 3):
                rid += 1
                table.reserve(rid, on, start, start + 3)
                brute.res[rid] = (on, start, start + 3)
        nb += later
        assert table.earliest_start_lists(n, d, nb, vms) == brute.earliest(n, d, nb, list(vms))


@settings(max_examples=300, deadline=None)
@given(bookings=st.lists(st.tuples(st.integers(0, 60), st.integers(1, 12)), max_size=6),
       t=st.integers(0, 80), d=st.integers(1, 20), nb=st.integers(0, 40))
def test_holding_gives_the_first_window_of_the_listed_ones_that_holds_the_interval(bookings, t, d, nb):
    # SlotTable._holding looks at the windows in turn without listing them (and stops at the
    # first beginning after t): the same window as the first of _gap_windows's that holds it
    table = SlotTable(1)
    for i, (start, length) in enumerate(bookings):
        if not any(s < start + length and start < e for s, e, _ in table._busy[0]):
            table.reserve(i, [0], start, start + length)
    t = max(t, nb)
    want = next(((lo, hi) for lo, hi in _gap_windows(table._busy[0], d, nb) if lo <= t and hi >= t + d), None)
    assert table._holding(0, t, d, nb) == want
