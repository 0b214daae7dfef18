"""What the command lines share (``rcw simulate``, ``rcw serve`` and the others): no rule of the
game, only how a number typed on a command line is read and how a command's failure to reach
its server is said."""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

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


def amount(lo: float = 0.0, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite number at or above ``lo`` (``above``: greater than ``lo``),
    else a usage error naming the bound ("nan", "inf" and "-1" are not a number of seconds or a
    rate)."""
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(x):
            raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
        if x < lo or (above and x == lo):
            raise argparse.ArgumentTypeError(f"{text} must be {'greater than' if above else 'at least'} {lo:g}")
        return x
    return parse


def amounts(text: str) -> tuple[float, ...]:
    """An argparse type: numbers of seconds separated by commas, each at least 0 ("" for none)."""
    one = amount(0.0)
    return tuple(one(x.strip()) for x in text.split(",") if x.strip())


def run_command(name: str, redis: str | None, work: Coroutine[Any, Any, T]) -> tuple[T | None, bool]:
    """``asyncio.run(work)`` for ``rcw NAME``: (its result, True), or (None, False) once a bad
    address, a bad --redis URL or --prefix, or a Redis it cannot use is said in one line on
    standard error (the command then exits 1) rather than in a traceback."""
    try:
        return asyncio.run(work), True
    except (OSError, ConnectionError, ValueError) as e:   # (ValueError: a bad --redis URL or --prefix)
        print(f"rcw {name}: {e}", file=sys.stderr)
    except Exception as e:
        if not type(e).__module__.startswith("redis"):
            raise
        print(f"rcw {name}: cannot use Redis at {redis}: {e}", file=sys.stderr)
    return None, False
