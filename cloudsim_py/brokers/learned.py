"""A learned policy as a broker: ``broker: {policy: learned, params: {policy: ..., k: 32,
backfill: false}}`` runs any decision rule ``(obs, mask) -> action`` of the JobPicking
environment (``cloudsim_py.learning``) on full traces, in sweeps and scenarios, beside fcfs and
easy, with the same metrics. Each scheduling pass is the same :class:`PickingPass` the
environment drives, so a policy behaves here exactly as it did while it was trained."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from ..errors import PolicyError, PolicySpecError
from .base import Broker, register_broker
from .ends import EstimatedEnds
from .picking import JOB_FEATURES, PickingPass

#: a decision rule: the observation and the mask of legal actions -> an action in 0..k
Policy = Callable[[np.ndarray, np.ndarray], Any]


class LinearPolicy:
    """A linear scorer over the visible jobs' features, as saved in an ``.npz`` file:
    ``weights`` (``JOB_FEATURES`` numbers: wait, processors, estimate, fits now; see
    :mod:`~cloudsim_py.brokers.picking`), optional ``bias`` (added to every job's score) and
    ``stop`` (the score of action ``k``, "start nothing more now"; default ``-inf``: action
    ``k`` only when no job is legal). The legal job of highest score is picked (the first on
    ties), or action ``k`` if it scores higher. Small enough to train with numpy alone."""

    __slots__ = ("weights", "bias", "stop", "k")

    def __init__(self, weights: Any, bias: float = 0.0, stop: float = -np.inf, k: int | None = None) -> None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (JOB_FEATURES,):
            raise PolicySpecError("weights", f"expected {JOB_FEATURES} weights (wait, procs, estimate, "
                                             f"fits), got shape {w.shape}")
        self.weights = w
        self.bias = float(bias)
        self.stop = float(stop)
        self.k = k

    @classmethod
    def load(cls, path: str) -> "LinearPolicy":
        """Read a policy saved by :meth:`save` (or by ``numpy.savez`` with the same keys);
        a missing file or key or a bad shape is a :class:`PolicySpecError` naming the file."""
        if not os.path.isfile(path):
            raise PolicySpecError("", f"no such file: {path}")
        try:
            with np.load(path, allow_pickle=False) as data:
                if "weights" not in data:
                    raise PolicySpecError("", f"{path}: no 'weights' array (keys: {', '.join(data.files)})")
                return cls(data["weights"], float(data["bias"]) if "bias" in data else 0.0,
                           float(data["stop"]) if "stop" in data else -np.inf)
        except PolicySpecError as exc:
            raise PolicySpecError("", f"{path}: {exc.message}" if exc.path else exc.message) from None
        except (OSError, ValueError, TypeError) as exc:
            raise PolicySpecError("", f"{path}: not a numpy .npz policy ({exc})") from None

    def save(self, path: str) -> None:
        """Write the policy as an ``.npz`` file :meth:`load` (and the ``learned`` broker) reads."""
        np.savez(path, weights=self.weights, bias=np.float64(self.bias), stop=np.float64(self.stop))

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The action for one decision (``k`` is read from the mask's length)."""
        k = mask.shape[0] - 1
        feats = obs[:k * JOB_FEATURES].reshape(k, JOB_FEATURES)
        scores = feats @ self.weights + self.bias
        scores[~mask[:k]] = -np.inf
        best = int(np.argmax(scores))
        if not mask[best] or (mask[k] and self.stop > scores[best]):
            return k
        return best


def oldest_first(obs: np.ndarray, mask: np.ndarray) -> int:
    """The FCFS choice: the oldest waiting job if it is legal, else action ``k`` (with backfill
    off this is exactly ``fcfs``; with backfill on, exactly ``easy``)."""
    return 0 if mask[0] else mask.shape[0] - 1


def shortest_first(obs: np.ndarray, mask: np.ndarray) -> int:
    """Shortest runtime estimate first among the legal visible jobs (the oldest on ties), else
    action ``k`` (with backfill on and every waiting job visible, exactly ``sjf-backfill``)."""
    k = mask.shape[0] - 1
    est = np.where(mask[:k], obs[2:k * JOB_FEATURES:JOB_FEATURES], np.inf)
    best = int(np.argmin(est))       # the first of equal estimates: the oldest
    return best if mask[best] else k


#: the decision rules the ``policy`` parameter may name without a file or a plugin
RULES: dict[str, Policy] = {"oldest": oldest_first, "shortest": shortest_first}


def load_policy(spec: Any) -> Policy:
    """A decision rule from the ``policy`` parameter: a rule of :data:`RULES` by name
    (``oldest``, ``shortest``), a path to an ``.npz`` linear policy (:class:`LinearPolicy`),
    ``module:function`` of a module already imported or importable (a scenario lists it under
    ``plugins:``), or a callable. Errors name ``policy``."""
    if callable(spec):
        return spec
    if isinstance(spec, str) and spec in RULES:
        return RULES[spec]
    if not isinstance(spec, (str, os.PathLike)) or not str(spec):
        raise PolicySpecError("policy", f"expected a path to an .npz policy or 'module:function', got {spec!r}")
    text = os.fspath(spec)
    if text.endswith(".npz") or os.path.isfile(text):
        try:
            return LinearPolicy.load(text)
        except PolicySpecError as exc:
            raise PolicySpecError("policy", exc.message) from None
    if ":" not in text:
        raise PolicySpecError("policy", f"{text!r} is neither a rule ({', '.join(RULES)}), an .npz file "
                                        "nor 'module:function'")
    from ..registry import _import_object

    try:
        fn = _import_object(text, "policy", PolicySpecError)
    except PolicyError as exc:
        raise PolicySpecError("policy", str(exc)) from None
    if not callable(fn):
        raise PolicySpecError("policy", f"{text!r} is not callable (expected a function obs, mask -> action)")
    return fn


@register_broker("learned", "A learned job-picking policy (obs, mask -> action), as in the JobPicking environment")
class LearnedBroker(Broker):
    """Runs a :class:`~cloudsim_py.brokers.picking.PickingPass` at each scheduling pass, asking
    ``policy(obs, mask)`` for an action until the pass ends.

    ``policy``: a path to an ``.npz`` linear policy, ``module:function`` (a plugin), a rule
    by name (``oldest``, the default, is FCFS or EASY; ``shortest``) or a callable; ``k``: visible jobs; ``backfill``: EASY backfill after a pick that does not fit
    (and after action ``k``); ``time_scale``: seconds per unit of the time features. These must
    be the environment's options the policy was trained with. An action out of range or masked
    is a :class:`PolicySpecError` naming ``params.policy`` (reported as the policy's failure,
    with the time and the queue)."""

    def __init__(self, policy: Any = "oldest", k: int = 32, backfill: bool = False, time_scale: float = 3600.0) -> None:
        self.policy = load_policy(policy)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise PolicySpecError("k", f"must be a positive integer, got {k!r}")
        if not isinstance(backfill, bool):
            raise PolicySpecError("backfill", f"must be true or false, got {backfill!r}")
        if isinstance(time_scale, bool) or not isinstance(time_scale, (int, float)) or not time_scale > 0:
            raise PolicySpecError("time_scale", f"must be a number > 0, got {time_scale!r}")
        self.k = k
        self.backfill = backfill
        self.time_scale = float(time_scale)

    def bind(self, dc: Any) -> None:
        """Attach: the queue, the estimated ends (with backfill) and the pass."""
        super().bind(dc)
        ends = dc.subscribe(EstimatedEnds()) if self.backfill else None
        self.picking = PickingPass(dc, self.queue, ends, k=self.k, backfill=self.backfill,
                                   time_scale=self.time_scale)

    def schedule(self, now: float) -> None:
        """One pass: the policy's actions until the pass ends."""
        picking = self.picking
        if not picking.begin(now):
            return
        policy = self.policy
        obs, mask = picking.obs, picking.mask
        while picking.apply(policy(obs, mask), "params.policy"):
            pass
