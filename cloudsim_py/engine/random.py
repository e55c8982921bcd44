"""Named, independent random streams derived from one scenario seed."""

from __future__ import annotations

import zlib

import numpy as np


class RandomStreams:
    """``streams["interference"]`` is a :class:`numpy.random.Generator` of its own.

    Each stream's seed is derived from the scenario seed and the stream's *name*
    (SeedSequence with a spawn key from the name's CRC-32), so adding a stream or
    asking for streams in another order never changes the numbers of the others.

    >>> a, b = RandomStreams(7), RandomStreams(7)
    >>> float(a["cpu"].random()) == float(b["cpu"].random())
    True
    """

    __slots__ = ("seed", "_streams")

    def __init__(self, seed: int) -> None:
        self.seed = int(seed)
        self._streams: dict[str, np.random.Generator] = {}

    def __getitem__(self, name: str) -> np.random.Generator:
        gen = self._streams.get(name)
        if gen is None:
            seq = np.random.SeedSequence(entropy=self.seed, spawn_key=(zlib.crc32(name.encode()),))
            gen = self._streams[name] = np.random.Generator(np.random.PCG64(seq))
        return gen

    def names(self) -> list[str]:
        return sorted(self._streams)
