"""Paper 004's claims in the ledger (issue 18 items 6 and 8), on tiny hand-made tables of the
runs ``scripts/ktcbf_tiers.py record`` writes (docs/data/paper004.csv)."""

from cloudsim_py.experiments.claims import Evidence, ledger, paper004


def run(tiers, seed=0, rule="foreground", error=0.0, **fields):
    base = {"jobs_finished": 1000, "avg_response": 100.0, "migrations": 10, "avg_bsld": 5.0, "ran_3": 0}
    base.update(fields)
    return {"tiers": str(tiers), "rule": rule, "seed": str(seed), "error": str(error),
            **{k: str(v) for k, v in base.items()}}


def verdicts(*rows):
    return {r.text.split(" (")[0]: (r.ours, r.verdict)
            for r in ledger(paper004.claims(), Evidence(tables={"paper004": tuple(rows)}))}


def test_four_tiers_answer_sooner_than_two_on_the_mean_over_shared_seeds():
    # k = 4: (90 + 96) / 2 = 93 s; k = 2: (100 + 100) / 2 = 100 s -> -7.0 %
    v = verdicts(run(4, 0, avg_response=90), run(4, 1, avg_response=96), run(2, 0), run(2, 1))
    assert v["k tiers improve responsiveness over two"] == (
        "average response 93 s at k = 4 vs 100 s at k = 2 (-7.0 %)", "holds")


def test_the_fourth_tier_is_used_only_if_every_seed_runs_one_percent_of_the_jobs_there():
    used = verdicts(run(4, 0, ran_3=49), run(4, 1, ran_3=12))
    assert used["the fourth tier takes a real share of the jobs"] == (
        "at least 1.2 % of the jobs (12) run in tier 4 (any seed)", "holds")
    unused = verdicts(run(4, 0, ran_3=49), run(4, 1, ran_3=2))
    assert unused["the fourth tier takes a real share of the jobs"][1] == "fails"


def test_more_migrations_at_four_tiers_fail_the_fewer_migrations_claim():
    v = verdicts(run(4, migrations=139), run(2, migrations=100))
    assert v["k tiers need slightly fewer migrations than two"] == ("139 at k = 4 vs 100 at k = 2 (+39.0 %)", "fails")


def test_accuracy_holds_when_slowdown_grows_with_the_error_at_both_tier_counts():
    rows = [run(k, error=e, avg_bsld=b) for k, series in ((4, (8.0, 11.0, 12.0)), (2, (20.0, 30.0, 35.0)))
            for e, b in zip((0.0, 0.25, 0.5), series)]
    assert verdicts(*rows)["more accurate CPU estimates give better performance"] == (
        "avg bsld at r = 0 / 0.25 / 0.5, k = 4: 8.00 / 11.00 / 12.00; k = 2: 20.00 / 30.00 / 35.00", "holds")
    rows[2] = run(4, error=0.5, avg_bsld=10.0)                       # better with a larger error
    assert verdicts(*rows)["more accurate CPU estimates give better performance"][1] == "fails"


def test_without_recorded_runs_the_claims_are_not_attempted():
    assert all(v[1] == "not attempted (its runs are not recorded)" for v in verdicts().values())
