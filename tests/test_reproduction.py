"""Liu et al. 2015 Table 2: our FCFS within 1 % and EASY within 3 % of the published cells."""

import pytest

from cloudsim_py.experiments.liu2015 import METRICS, TABLE2, TRACES, deviation, run_table2
from tests.conftest import trace

TOLERANCE = {"fcfs": 1.0, "easy": 3.0}


def check(trace_name, policy):
    trace(TRACES[trace_name][0])
    ours = run_table2((trace_name,), (policy,))[trace_name][policy]
    for metric, paper, got in zip(METRICS, TABLE2[trace_name][policy], ours):
        assert abs(deviation(got, paper)) <= TOLERANCE[policy], (trace_name, policy, metric, paper, got)


@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_kth_matches_liu2015_table2(policy):
    check("KTH", policy)


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["fcfs", "easy"])
def test_ctc_matches_liu2015_table2(policy):
    check("CTC", policy)
