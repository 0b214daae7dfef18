"""The game modes, registered in one place (as python-chess lists its variants).

A mode is a :class:`rcw.game.Game` subclass with its own ``MODE`` name; a game's options name
its mode (``{"mode": "spi-solitaire"}``, ``{"mode": "postal"}``; no ``mode`` is the multi-player
game).  Create, load
and replay games of any mode through this module; ``Game.new`` of one class creates only its
own mode.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgpack

from rcw.actions import Action, IllegalAction
from rcw.data import GameData
from rcw.game import STANDARD, Game
from rcw.postal import PostalGame
from rcw.rng import Dice
from rcw.solitaire import SoloGame

MODES: dict[str, type[Game]] = {cls.MODE: cls for cls in (Game, SoloGame, PostalGame)}


def find(mode: str | None) -> type[Game]:
    """The class of game mode ``mode`` (None: the multi-player game)."""
    cls = MODES.get(mode or STANDARD) if isinstance(mode, str) or mode is None else None
    if cls is None:
        raise IllegalAction("options", f"unknown mode {mode!r} (known: {', '.join(sorted(MODES))})", "bad_request")
    return cls


def mode_of(options: dict | None) -> type[Game]:
    if options is not None and not isinstance(options, dict):
        raise IllegalAction("options", "options must be a map of option names to values", "bad_request")
    return find((options or {}).get("mode"))


def new_game(players: int | None = None, seed: int = 0, options: dict | None = None,
             data: GameData | None = None, dice: Dice | None = None) -> Game:
    """A new game of the mode ``options`` names (``players`` None: the mode's usual number)."""
    return mode_of(options).new(players, seed, options, data, dice)


def replay(seed: int, actions: Iterable[Action | dict], players: int | None = None,
           options: dict | None = None) -> Game:
    """A game of any mode rebuilt from its seed and action log."""
    return mode_of(options).replay(seed, actions, players, options)


def from_record(record: dict) -> Game:
    """A game rebuilt from :meth:`Game.record` (seed, players, options, actions)."""
    return replay(record["seed"], record["actions"], record.get("players"), record.get("options"))


def from_bytes(raw: bytes, data: GameData | None = None) -> Game:
    """A game of any mode saved with :meth:`Game.to_bytes`."""
    d = msgpack.unpackb(raw, raw=False, strict_map_key=False)
    return mode_of(d["state"].get("options")).from_bytes(raw, data)
