"""Sodan 2009's claims in the ledger: each check reads docs/data/sodan2009.csv (rows of strings,
one per run) and gives our number and a verdict; here on tiny hand-made tables."""

import pytest

from cloudsim_py.experiments.claims import Evidence, ledger
from cloudsim_py.experiments.claims import sodan2009 as sodan
from cloudsim_py.experiments.claims.sodan2009 import crossing, spearman

CLASSES = ("S", "M", "L", "all")
DEFAULTS = {"utilization": 0.7, "makespan": 1e6, "jobs_finished": 10000, "context_switches": 0,
            **{f"{m}_{c}": 1.0 for c in CLASSES for m in ("count", "avg_response", "avg_bsld",
                                                          "avg_start_wait", "avg_elapsed")}}


def run(scheduler, efficiency="E1", factor=1.0, vm_factor=1.0, load="L1", variant="static", seed=1, **metrics):
    """One recorded run as the CSV gives it: every field a string."""
    row = {"scheduler": scheduler, "efficiency": efficiency, "factor": factor, "vm_factor": vm_factor,
           "load": load, "variant": variant, "seed": seed, **DEFAULTS, **metrics}
    return {k: str(v) for k, v in row.items()}


def verdict(rows, text_start):
    ev = Evidence(tables={"sodan2009": tuple(rows)})
    (row,) = [r for r in ledger(sodan.claims(), ev) if r.text.startswith(text_start)]
    return row.ours, row.verdict


PECT_45 = "At F_A = 1 PECT improves R of all jobs"


def test_pect_against_prio10_is_the_ratio_of_the_mean_responses_over_the_seeds():
    # Prio10 R_A 10,800 and 11,520 s (mean 11,160 = 3.10 h), PECT 7,200 and 8,190 s (7,695 s =
    # 2.14 h): 11,160 / 7,695 - 1 = +45.0 %, the paper's 45 %
    rows = [run("Prio10", seed=1, avg_response_all=10800, avg_response_S=3600),
            run("Prio10", seed=2, avg_response_all=11520, avg_response_S=3600),
            run("PECT", seed=1, avg_response_all=7200, avg_response_S=720),
            run("PECT", seed=2, avg_response_all=8190, avg_response_S=720)]
    ours, v = verdict(rows, PECT_45)
    assert ours == "+45 % (R_A 3.10 h / 2.14 h; R_S 1.00 h / 0.20 h)" and v == "holds"


def test_pect_at_par_with_prio10_fails_and_names_the_other_reading():
    rows = [run("Prio10", avg_response_all=3600), run("PECT", avg_response_all=3600),
            run("PECT-finish", avg_response_all=4500)]
    ours, v = verdict(rows, PECT_45)
    assert v == "fails"
    assert ours.endswith("with non-type backfills that must finish in the slice -20 %")


def test_a_smaller_gain_of_pect_is_off_by_its_deviation_from_1_45():
    # 1.2 against 1.45: off by -17.2 %
    rows = [run("Prio10", avg_response_all=1200), run("PECT", avg_response_all=1000)]
    assert verdict(rows, PECT_45)[1] == "off by -17.2 %"


def test_a_claim_without_its_runs_is_not_attempted():
    assert verdict([], PECT_45) == ("-", "not attempted (its runs are not recorded)")


def test_similar_service_to_m_and_l_fails_when_one_class_is_a_fifth_off():
    # R_M -10 % (within 20 %), R_L +25 %
    rows = [run("Prio10", avg_response_M=100, avg_response_L=1000),
            run("PECT", avg_response_M=90, avg_response_L=1250)]
    assert verdict(rows, "At F_A = 1 PECT gives M and L") == ("R_M -10 %, R_L +25 % against Prio10", "fails")


def test_fcfs_on_m_and_l_jobs_weighs_each_class_by_its_count():
    # FCFS: (1 x 100 + 3 x 400) / 4 = 325; PECT and Prio10: (1 x 100 + 3 x 300) / 4 = 250;
    # 325 / 250 = 1.3, within 10 % of the paper's 1.2 (+8.3 %)
    ml = {"count_M": 1, "count_L": 3, "avg_response_M": 100}
    rows = [run("FCFS", **ml | {"avg_response_L": 400}), run("PECT", **ml | {"avg_response_L": 300}),
            run("Prio10", **ml | {"avg_response_L": 300})]
    assert verdict(rows, "At F_A = 1 FCFS is about 20 %") == ("+30 % against PECT (+30 % against Prio10)", "holds")


def wc_rows(scheduler, rr):
    """F_A = 1 (RR 10 in every class) and WC at every other F_A with ``rr(F_A)``."""
    out = [run(scheduler, avg_bsld_M=10, avg_bsld_L=10, avg_bsld_all=10)]
    for fa in (0.3, 0.5, 0.75, 1.25, 1.5):
        out.append(run(scheduler, "WC", fa, avg_bsld_M=rr(fa), avg_bsld_L=rr(fa), avg_bsld_all=rr(fa)))
    return out


def test_work_conserving_reshaping_within_a_fifth_is_no_relevant_difference():
    # RR 9 below F_A = 1: 10 / 9 - 1 = +11 %; RR 11 above: -(11 / 10 - 1) = -10 %
    ours, v = verdict(wc_rows("FCFS", lambda fa: 9 if fa < 1 else 11), "Work-conserving reshaping makes no "
                      "relevant difference to RR under FCFS")
    assert v == "holds" and ours.endswith("M +11 %, L +11 %, A +11 %")


def test_work_conserving_reshaping_that_costs_a_third_is_relevant():
    # RR 13 at F_A = 1.5: -(13 / 10 - 1) = -30 %
    rows = wc_rows("PECT", lambda fa: 13 if fa == 1.5 else 10)
    ours, v = verdict(rows, "Work-conserving reshaping makes no relevant difference to RR under PECT")
    assert v == "fails" and ours.endswith("M -30 %, L -30 %, A -30 %")


def test_a_pect_factor_is_rr_at_1_over_rr_at_half():
    rows = [run("PECT", avg_bsld_L=23.4), run("PECT", "E1", 0.5, avg_bsld_L=10.0)]
    assert verdict(rows, "Under PECT, E1 at F_A = 0.5 improves RR_L") == ("x2.34", "holds")


def test_a_pect_factor_names_the_factor_under_the_other_shares_beside_it():
    # the paper's shares: 3.0 / 3.1 = x0.97 (0.9677: off by -41.3 % from 1.65); M 10 % / L 90 %: x1.50
    rows = [run("PECT", avg_bsld_M=3.0), run("PECT", "E1", 0.5, avg_bsld_M=3.1),
            run("PECT-10/90", avg_bsld_M=15.0), run("PECT-10/90", "E1", 0.5, avg_bsld_M=10.0)]
    assert verdict(rows, "Under PECT, E1 at F_A = 0.5 improves RR_M") == (
        "x0.97 (with shares M 10 % / L 90 %: x1.50)", "off by -41.3 %")


def test_the_efficiency_order_needs_e1_above_e2_above_e3_under_every_scheduler():
    rows = []
    for s in ("FCFS", "Prio10", "PECT"):
        rows.append(run(s, avg_bsld_all=12))
        for e, rr in (("E1", 4), ("E2", 6), ("E3", 8 if s != "PECT" else 5)):
            rows.append(run(s, e, 0.5, avg_bsld_all=rr))
    ours, v = verdict(rows, "The improvement is higher with a higher efficiency gain")
    assert v == "fails"                              # PECT: E3 (x2.40) above E2 (x2.00)
    assert ours.endswith("PECT x3.00 / x2.00 / x2.40")


def test_shrinking_with_every_efficiency_must_help_every_class_under_every_scheduler():
    rows = []
    for s in ("FCFS", "Prio10", "PECT"):
        rows.append(run(s, avg_bsld_M=10, avg_bsld_L=10, avg_bsld_all=10))
        for e in ("E1", "E2", "E3"):
            for fa in (0.3, 0.5, 0.75):
                worse = s == "PECT" and e == "E1" and fa == 0.5
                rows.append(run(s, e, fa, avg_bsld_M=12.5 if worse else 8, avg_bsld_L=8, avg_bsld_all=8))
    ours, v = verdict(rows, "Non-work-conserving reshaping (E1, E2, E3) to any F_A < 1")
    assert v == "fails"
    assert ours == "80 of 81 cells improve; not: 1, worst PECT E1 0.5 RR_M -20 %"


def test_the_wait_times_at_f_a_1_are_hours_and_hold_within_a_fifth():
    rows = [run("PECT", avg_start_wait_M=9.3 * 3600, avg_start_wait_L=30 * 3600)]
    ours, v = verdict(rows, "Under PECT at F_A = 1 the mean wait")
    assert (ours, v) == ("M 9.30 h, L 30.00 h", "holds")


def test_phi_t_grows_as_the_elapsed_time_at_half_over_that_at_1():
    # M 4.55 -> 5.915 h (x1.30), L 7.3 -> 7.3 h (x1.00, off by -29.1 % from 1.41)
    rows = [run("PECT", avg_elapsed_M=4.55, avg_elapsed_L=7.3),
            run("PECT", "E1", 0.5, avg_elapsed_M=5.915, avg_elapsed_L=7.3)]
    assert verdict(rows, "Under PECT, E1 at F_A = 0.5 lengthens phi T") == ("M x1.30, L x1.00", "off by -29.1 % (L)")


def test_lower_loads_improve_less_than_l1_but_still_improve():
    rows = []
    for load, (u, rr05) in {"L1": (0.76, 5), "L2": (0.66, 6), "L3": (0.56, 8)}.items():
        rows += [run("PECT", load=load, utilization=u, avg_bsld_all=10), run("PECT", "E1", 0.5, load=load,
                                                                             utilization=u, avg_bsld_all=rr05)]
    ours, v = verdict(rows, "At the lower loads")
    assert (ours, v) == ("RR_A: L1 (U 0.76) x2.00, L2 (U 0.66) x1.67, L3 (U 0.56) x1.25", "holds")


def variant_rows(rr):
    return [run("PECT", variant=v, avg_bsld_M=x, avg_bsld_L=x, avg_bsld_all=x) for v, x in rr.items()]


def test_load_adaptive_reshaping_is_moderate_when_it_gains_at_most_a_quarter():
    rows = variant_rows({"AllA": 11, "AllA_noB": 10.5, "LoadA": 10.2, "LoadA_noB": 10})
    assert verdict(rows, "Load-adaptive reshaping") == ("LoadA_noB against static 0.5 (AllA): RR_M +10 %, "
                                                        "RR_L +10 %, RR_A +10 %", "holds")
    assert verdict(rows, "Not reshaping backfilled jobs helps")[1] == "holds"


def test_load_a_nob_is_not_best_when_load_a_beats_it():
    rows = variant_rows({"AllA": 11, "AllA_noB": 10.5, "LoadA": 9, "LoadA_noB": 10})
    ours, v = verdict(rows, "Not reshaping backfilled jobs helps")
    assert v == "fails" and ours.startswith("best: RR_M LoadA, RR_L LoadA, RR_A LoadA; ")


def test_load_a_nob_must_be_best_in_every_class():
    rows = variant_rows({"AllA": 11, "AllA_noB": 10.5, "LoadA": 10.2, "LoadA_noB": 10})
    rows[0]["avg_bsld_all"] = "9"                      # AllA best on RR_A only
    ours, v = verdict(rows, "Not reshaping backfilled jobs helps")
    assert v == "fails" and ours.startswith("best: RR_M LoadA_noB, RR_L LoadA_noB, RR_A AllA; ")


def test_the_vm_size_equivalent_is_where_rr_a_crosses_the_base_linearly():
    assert crossing([(0.5, 10.0), (1.0, 20.0)], 15.0) == pytest.approx(0.75)
    assert crossing([(0.5, 10.0), (1.0, 20.0)], 25.0) is None
    assert crossing([(1.0, 20.0), (0.5, 10.0), (0.75, 12.0)], 16.0) == pytest.approx(0.875)


def test_rank_correlation_is_one_for_a_monotone_relation():
    assert spearman([0.5, 0.6, 0.7], [1.0, 4.0, 9.0]) == pytest.approx(1.0)
    assert spearman([0.5, 0.6, 0.7], [9.0, 4.0, 1.0]) == pytest.approx(-1.0)


def test_the_prediction_of_an_allocation_with_the_base_work_is_the_base_response():
    # every allocation has the base's work on the base machine, so U' = U and the prediction
    # is the base's R; the simulated R is the same, then 50 % higher for F_A = 1.5
    def rows(r15):
        out = [run("PECT", utilization=0.6, makespan=1e6, jobs_finished=10000, avg_response_all=3600)]
        for fa in (0.3, 0.5, 0.75, 1.25, 1.5):
            out.append(run("PECT", "E1", fa, utilization=0.6, makespan=1e6,
                           avg_response_all=r15 if fa == 1.5 else 3600))
        return out

    assert verdict(rows(3600), "The M/G/1 model")[1] == "holds"
    ours, v = verdict(rows(5400), "The M/G/1 model")
    assert v == "fails" and ours.startswith("4 of 5 allocations (U < 0.9) within 15 %") and ours.endswith("-33 %")


def test_the_offline_theorems_hold_on_their_closed_forms():
    assert verdict([], "Off-line, E1")[1] == "holds"
    assert verdict([], "Off-line, work-conserving")[1] == "holds"
