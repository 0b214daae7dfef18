"""Argument types the command lines share (``rcw simulate``, ``rcw serve`` and the others): no
rule of the game, only how a number typed on a command line is read."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``lo`` (to ``hi``), else a usage error naming the range."""
    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < lo or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{n} is out of range ({lo}-{hi})" if hi is not None else f"{n} is below {lo}")
        return n
    return parse
