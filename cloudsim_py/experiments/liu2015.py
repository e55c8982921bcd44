"""Liu et al. 2015 (J. Systems and Software), Table 2: performance on real traces, as published
(times in minutes), and the runs that reproduce it. Seed paper 000."""

from __future__ import annotations

import os
from typing import Any, Iterable

from ..runner import simulate
from ..workload.table import WorkloadTable, prepare, read_table

#: Table 2 as printed: trace -> policy -> (avg wait min, max wait min, avg bsld, max bsld).
#: "SCSC" in the OCR is SDSC; LANL and SDSC-SP2 traces are not in the shared folder.
TABLE2: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "LANL": {"fcfs": (1324.5, 7837, 1279.7, 46956), "easy": (138.7, 3001, 73.1, 10580),
             "ccfcfs": (779.2, 7283, 520.2, 43464), "acfcfs": (264.9, 4583, 100.4, 23579),
             "acfcfs_un": (309.6, 4838, 123.1, 25105), "acfcfs100": (296.2, 4917, 143.5, 29318)},
    "CTC": {"fcfs": (12797.6, 31923, 4275.2, 174853), "easy": (249.8, 5400, 52.0, 9982),
            "ccfcfs": (566.5, 8453, 76.3, 23306), "acfcfs": (345.9, 6077, 27.2, 13272),
            "acfcfs_un": (471.6, 6973, 39.1, 13039), "acfcfs100": (810.8, 10155, 96.2, 29410)},
    "KTH": {"fcfs": (6498.2, 16972, 7518.7, 101160), "easy": (114.2, 4370, 90.8, 14805),
            "ccfcfs": (154.0, 4605, 73.3, 18604), "acfcfs": (105.2, 4984, 30.8, 11521),
            "acfcfs_un": (128.6, 5406, 38.3, 13430), "acfcfs100": (127.2, 5295, 76.3, 12705)},
    "SDSC": {"fcfs": (25865.5, 91820, 14031.4, 521304), "easy": (353.1, 7661, 92.9, 7145),
             "ccfcfs": (2125.9, 17909, 479.8, 25127), "acfcfs": (607.4, 9600, 94.1, 11406),
             "acfcfs_un": (1115.5, 14267, 192.5, 18551), "acfcfs100": (1446.3, 19274, 290.2, 27575)},
}

METRICS = ("avg_wait", "max_wait", "avg_bsld", "max_bsld")

#: the shared traces behind the paper's rows, with the machine size the paper used
TRACES = {
    "KTH": ("KTH-SP2-1996-2.1-cln.swf.gz", 100),
    "CTC": ("CTC-SP2-1996-3.1-cln.swf.gz", 338),
}


def traces_dir() -> str:
    """``$CLOUDSIM_PY_TRACES``, else ``../shared/traces`` beside the repository."""
    env = os.environ.get("CLOUDSIM_PY_TRACES")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.normpath(os.path.join(here, "..", "..", "..", "shared", "traces"))


def load(trace: str, estimate: str = "trace") -> tuple[WorkloadTable, int]:
    name, procs = TRACES[trace]
    return prepare(read_table(os.path.join(traces_dir(), name)), procs, estimate), procs


def measured(summary: dict) -> tuple[float, float, float, float]:
    """(avg wait min, max wait min, avg bsld, max bsld) of a run summary."""
    return (summary["avg_wait"] / 60, summary["max_wait"] / 60, summary["avg_bsld"], summary["max_bsld"])


def run_table2(traces: Iterable[str] = ("KTH", "CTC"), policies: Iterable[str] = ("fcfs", "easy"),
               seed: int = 1) -> dict[str, dict[str, tuple[float, float, float, float]]]:
    """Our numbers for the cells of Table 2 that need no consolidation (k = 1 policies)."""
    out: dict[str, dict[str, tuple]] = {}
    for trace in traces:
        table, procs = load(trace)
        out[trace] = {p: measured(simulate(table, hosts=procs, policy=p, seed=seed).summary)
                      for p in policies}
    return out


def deviation(ours: float, paper: float) -> float:
    """Relative deviation from the paper, in percent."""
    return 100.0 * (ours - paper) / paper


#: the ACFCFS variants of Liu 2015 section 4.3, as overrides of a simulate() call
VARIANTS: dict[str, dict[str, Any]] = {
    "acfcfs": {},
    "acfcfs_err10": {"cpu_estimate": ("error", 0.1)},
    "acfcfs_err20": {"cpu_estimate": ("error", 0.2)},
    "acfcfs_un": {"cpu_estimate": ("unknown", 0.0)},
    "acfcfs100": {"cpu_usage": "full"},
}


def run_consolidation(trace: str, label: str, seeds: Iterable[int] = (1,)) -> list[dict]:
    """Summaries of ``label`` (ccfcfs, acfcfs, amcbf, or an ACFCFS variant) on two tiers with
    the liu2015 preset, the papers' CPU usage rule, one run per seed."""
    from ..workload.cpu import CpuEstimateModel, CpuUsageModel

    table, procs = load(trace)
    variant = VARIANTS.get(label, {})
    policy = "acfcfs" if label in VARIANTS else label
    usage = CpuUsageModel("full") if variant.get("cpu_usage") == "full" else CpuUsageModel()
    est = CpuEstimateModel(*variant["cpu_estimate"]) if "cpu_estimate" in variant else CpuEstimateModel()
    return [simulate(table, hosts=procs, tiers=2, policy=policy, seed=seed, interference="liu2015",
                     cpu_usage=usage, cpu_estimate=est).summary for seed in seeds]
