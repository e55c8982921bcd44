"""Sodan 2009 (seed 002): moldable jobs, reshaping, Prio10 and Scojo-PECT, load-adaptive
reshaping, the M/G/1 prediction."""

from __future__ import annotations

from .core import Claim


def claims() -> list[Claim]:
    hand = "checked by hand in docs/reproduction.md; its runs are not recorded in docs/data"
    return [
        Claim("Sodan 2009", "section 3.4, Figs. 1, 3", "Work-conserving reshaping makes no relevant difference "
              "to RR under FCFS and PECT", why=hand),
        Claim("Sodan 2009", "section 3.4", "F_A = 0.5 with E1 improves R and RR by well over the efficiency "
              "ratio 1.23", why=hand),
        Claim("Sodan 2009", "section 3.4", "At F_A = 1 PECT improves R of all jobs by about 45 % over Prio10",
              why=hand),
        Claim("Sodan 2009", "section 4, Fig. 6", "Load-adaptive reshaping adds a moderate gain; LoadA_noB is "
              "best", why=hand),
        Claim("Sodan 2009", "section 6.2, Figs. 13-14", "M/G/1 predicts R from U well while U < 0.9", why=hand),
    ]
