"""A broker's options as one attrs class (``broker:`` in a scenario): the policy's name, its
parameters and a label. Checked when made: the policy must resolve and accept the parameters.
Reads no YAML."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

import attrs

from ..errors import SpecError
from ..validate import kind, text

if TYPE_CHECKING:  # pragma: no cover
    from .base import Broker


def _params(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise SpecError("params", f"expected a mapping, got {kind(value)}")
    return dict(value)


def default_label(policy: str, params: Mapping[str, Any]) -> str:
    """``easy``, or ``ktcbf(aggressive=True)`` when parameters are given."""
    if not params:
        return policy
    return f"{policy}({', '.join(f'{k}={v!r}' for k, v in sorted(params.items()))})"


@attrs.define(slots=True, frozen=True)
class BrokerSpec:
    """``policy``: a registered name, an entry point or ``module:Class``; ``params``: keyword
    arguments of its constructor; ``label``: how results name it (default: the policy and its
    parameters, so two entries of one policy with other parameters stay apart)."""

    policy: str = attrs.field(default="fcfs", validator=text())
    params: dict[str, Any] = attrs.field(factory=dict, converter=_params)
    label: str | None = attrs.field(default=None, validator=text(optional=True))

    def __attrs_post_init__(self) -> None:
        self.make()   # the policy resolves and accepts its parameters, or this raises

    @property
    def name(self) -> str:
        """The label, or the default one."""
        return self.label or default_label(self.policy, self.params)

    def make(self) -> "Broker":
        """A fresh broker."""
        from .base import make_broker

        return make_broker(self.policy, self.params, where="")
