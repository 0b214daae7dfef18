"""Nothing outside the engine reads a game's internals: the bots, the server and the command
line use ``Game``'s public calls and queries (docs/engine.md), never ``Game.state`` or
``Game.ctx`` (the rules' own objects), so each rule is known in one place."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = sorted([*(ROOT / "bots").glob("*.py"), *(ROOT / "server").glob("*.py"), ROOT / "rcw" / "cli.py"])


def _internal_reads(source: str) -> list[tuple[int, str]]:
    """``x.state`` / ``x.ctx`` attribute reads where ``x`` is not ``self`` (a class's own
    attribute of that name is its business): (line, attribute)."""
    return sorted((n.lineno, n.attr) for n in ast.walk(ast.parse(source))
                  if isinstance(n, ast.Attribute) and n.attr in ("state", "ctx")
                  and not (isinstance(n.value, ast.Name) and n.value.id == "self"))


def test_no_client_reads_the_game_state_or_the_rules_context():
    found = [f"{p.relative_to(ROOT)}:{line}: .{attr}" for p in CLIENTS for line, attr in _internal_reads(p.read_text())]
    assert not found, "\n".join(found)


def test_the_check_sees_such_a_read():
    assert _internal_reads("def f(g):\n    return g.state.turn, g.ctx, self.state\n") == [(2, "ctx"), (2, "state")]


def test_the_typed_view_lists_every_entry_a_view_has():
    """rcw.types.View documents the view: the entries of the multi-player game's, the SPI
    solitaire's and the postal game's views are exactly its keys."""
    from rcw.game import Game
    from rcw.modes import new_game
    from rcw.types import View

    keys = set(View.__annotations__)
    assert set(Game.new(5, 1).view("A")) | {"solitaire", "postal"} == keys
    assert set(new_game(1, 1, {"mode": "spi-solitaire"}).view("R")) | {"postal"} == keys
    assert set(new_game(5, 1, {"mode": "postal"}).view("A")) | {"solitaire"} == keys


def test_the_typed_limits_are_what_the_game_answers():
    """rcw.types.Limits documents ``Game.limits()``: the same entries with the types it says
    (``politburo`` a flag, the rest numbers), in the standard game and the Masses game."""
    import typing

    from rcw.game import Game
    from rcw.types import Limits

    hints = typing.get_type_hints(Limits)
    for options in ({}, {"masses": True}):
        got = Game.new(5, 1, options).limits()
        assert set(got) == set(hints)
        assert all(type(got[k]) is hints[k] for k in hints), (options, got)
    assert Game.new(5, 1, {"masses": True}).limits()["politburo"] is False
