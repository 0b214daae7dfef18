"""Game options: optional rules and variants, in one registry (name, type, default, source).

A game's options are fixed when it is created (``Game.new(players, seed, options)``) and are
part of its record; :func:`validate` refuses anything but a map, an unknown name, a value of
the wrong type (``bool`` is not an ``int``, ``2.0`` is not an ``int``) and an integer out of the
option's range (however large) with a typed :class:`~rcw.actions.IllegalAction` (code
``bad_request``, rule ``options``) naming the option; servers ask it rather than re-derive it.
``mode`` is not an option of a game's rules but picks the game mode (:mod:`rcw.modes`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rcw.actions import IllegalAction


@dataclass(frozen=True)
class Option:
    name: str
    type: type
    default: Any
    help: str
    source: str          # where the rule comes from, e.g. "004 [17.0]"
    minimum: int | None = None
    maximum: int | None = None
    group: str = "rules"  # how the lobby groups it: one of GROUPS
    label: str = ""       # a few words for the interface ("max turns", "No Leader Suicide")
    requires: str = ""    # an option that must be on for this one to be set (a variant's sub-switch)
    conflicts: tuple[str, ...] = ()   # options that may not be on together with this one
    note: str = ""        # a tag the interface shows with it ("a critic's suggestion")
    modes: tuple[str, ...] = ()   # the game modes it is played in (:mod:`rcw.modes`; none named: every mode)
    fixed: tuple[tuple[str, Any], ...] = ()   # (mode, value): in that mode it is always that value

    @property
    def words(self) -> str:
        return self.label or self.name.replace("_", " ")


CRITIC = "a critic's suggestion"
STANDARD = ("standard",)              # the multi-player game only
LIVE_AND_POSTAL = ("standard", "postal")   # the multi-player game and its postal version (004 [17.0])

#: The lobby's groups of options, in the order it shows them (name -> heading).
GROUPS: dict[str, str] = {
    "rules": "Game settings",
    "readings": "Readings of the rulebook",
    "001": "Optional forces and rules (001)",
    "masses": "Russian Civil War for the Masses (004, Ware)",
    "historical": "A critic's historical suggestions (004, DeBaun)",
    "deal": "The deal",
}


OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("max_turns", int, 0, "end the game with no victor after this many Game-Turns (0: no limit, as the rules say)",
           "ours (a time limit for online play)", 0, 1000, label="max turns"),
    Option("leader_movement", int, 5, "leaders' Movement Allowance (004 [5.0]: 5)", "004 [5.0]", 1, 20, label="leaders' Movement Allowance"),
    Option("reduced_leader_movement", bool, False,
           "leaders move 2 + their Leadership rating instead of 5 (a force of several: 2 + the lowest rating)",
           "001 Reduced Red and White leader movement", group="001", label="reduced leader movement"),
               Option("anarchists", bool, False,
           "Makhno (6) starts uncontrolled in Yekaterinoslav and roves at the end of each Game-Turn; two "
           "Anarchist units (3) and the Anarchist Control Marker join the Auxiliary Forces Randomizer; "
           "Anarchists are hostile to all, disrupt rail and ports, and no one wins while one stands in "
           "European Russia", "001 Anarchists", group="001", label="Anarchists (Makhno)", modes=LIVE_AND_POSTAL),
    Option("shock_armies", bool, False,
           "two Red and one White Shock Army (8) join the Auxiliary Forces Randomizer; drawn, each is placed "
           "with a leader of its colour outside Siberia; eliminated before Game-Turn 6 it goes back into the cup",
           "001 Shock Armies", group="001", label="Shock Armies", modes=LIVE_AND_POSTAL),
    Option("freikorps", bool, False,
           "the Freikorps (Blue, 6) and its Control and Out markers join the Auxiliary Forces Randomizer; its "
           "Control Marker lands it in Finland, Estonia, Livonia, Courland or Kovno by a die (6: the drawer's "
           "choice); Subversive Attacks on it are one row worse", "001 Freikorps", group="001", label="Freikorps", modes=LIVE_AND_POSTAL),
    Option("additional_draws", bool, False,
           "a player whose Red or White forces alone hold a Russian city may draw twice from the Auxiliary "
           "Forces Randomizer in his Randomizer Phase, three times with Moscow (Tver) or Petrograd",
           "001 Additional Randomizer Draws", group="001", label="additional Randomizer draws", modes=LIVE_AND_POSTAL),
    Option("drawn_turn_order", bool, False,
           "draw the player of each Player-Turn as the one before it ends, instead of drawing the First Player "
           "and going clockwise: no one knows who moves next",
           "001 Start of Turn ('Or for less predictable turn order, draw one chit and that player moves, then "
           "another until all have gone'); 004 [4.2] B.3", group="001", label="drawn turn order",
           modes=STANDARD),
    Option("no_leader_suicide", bool, False,
           "leaders without combat units attack no combat units and other leaders only at 1:1 or better, enter no "
           "province of another colour (but exceptions A-D), and move toward the nearest friendly units, joining them",
           "001 No Leader Suicide", group="001", label="No Leader Suicide",
           modes=LIVE_AND_POSTAL),     # (the SPI solitaire's non-Red forces attack as 004 [23.11]-[23.17] say)
    # 004 "Russian Civil War for the Masses" (Richard Ware): the variant, and the two deletions the
    # article leaves optional (rcw.rules.masses).
    Option("masses", bool, False,
           "the simpler game: no Subversive Attacks, 'Subversive Attacks Doubled' ignored, no Politburo or purges, "
           "the Czar executed by any coalition with his holder controlling 2/3 of the Red leadership on the map, "
           "52 counters dealt (no Politburo Markers)",
           "004 Masses (Ware): [8.3], [12.12], [11.0], [13.51]-[13.54], [15.22], [15.32]", group="masses",
           label="Russian Civil War for the Masses", conflicts=("red_terror",), modes=STANDARD),
    Option("masses_no_imperial", bool, False,
           "with the Masses: no Czar and no Gold (the article: [13.0] 'can also be deleted or declared optional')",
           "004 Masses (Ware): [13.0]", group="masses", label="no Imperial units", requires="masses",
           modes=STANDARD),
    Option("masses_subversion", bool, False,
           "with the Masses: keep Subversive Attacks (the article: [8.3] 'can be made optional or deleted')",
           "004 Masses (Ware): [8.3]", group="masses", label="keep Subversive Attacks", requires="masses",
           modes=STANDARD),
    Option("balanced_deal", bool, False,
           "the Initial Forces dealt so that the seats' Red leadership, White leadership and Politburo Markers "
           "differ by the least possible (each seat keeps the number of counters 004 [15.31] deals it)",
           "ours (beyond the sources: skewed deals); 004 [15.31], [15.32]", group="deal",
           label="balanced deal", modes=LIVE_AND_POSTAL),
    # The critique's historical suggestions (004, DeBaun), each a switch of its own
    # (rcw.rules.historical; docs/variants.md gives the numbers we chose and why).
    Option("german_withdrawal", bool, False,
           "the German units leave the map as Game-Turn 2 begins; no German Withdrawal Marker in the Randomizer",
           "004 critique (DeBaun): German withdrawal; 004 [5.67]", group="historical",
           label="German withdrawal on Game-Turn 2", note=CRITIC, modes=LIVE_AND_POSTAL),
    Option("czech_penza_samara", bool, False,
           "two more Czech units (strength 3) set up in Penza and Samara",
           "004 critique (DeBaun): Czechs; 004 [15.42], [5.65]", group="historical",
           label="Czechs at Penza and Samara", note=CRITIC, modes=LIVE_AND_POSTAL),
    Option("leader_epidemics", bool, False,
           "an Epidemic also strikes leaders: each leader in a stricken province dies on a die roll of 6",
           "004 critique (DeBaun): Epidemics; 004 [12.11]", group="historical",
           label="leaders subject to epidemics", note=CRITIC, modes=LIVE_AND_POSTAL),
    Option("red_terror", bool, False,
           "a failed assassination of Lenin or Trotsky lets his owner purge the would-be assassin at once, "
           "free (no Central Committee needed, not his purge of the Game-Turn)",
           "004 critique (DeBaun): Assassins; 004 [10.23], [11.0]", group="historical",
           label="the Red Terror", note=CRITIC, modes=STANDARD),
    Option("evacuation", bool, False,
           "in his Movement Phase a player may evacuate White leaders (with their units) and White units he "
           "controls from a port: out of the game, no Victory Points, never replaced",
           "004 critique (DeBaun): Evacuation", group="historical",
           label="White evacuation from ports", note=CRITIC, modes=STANDARD),
    Option("postal_movement", bool, False,
           "judge the stop-on-entering rule on the positions at the start of the Game-Turn", "004 [17.0] [5.0]",
           label="postal movement", fixed=(("postal", True),)),
    # Two readings the rulebook allows (docs/rules-coverage.md, "Readings"); the defaults are
    # the engine's reading.
    Option("white_green_combine", bool, False,
           "White and Green units may combine in one attack on a Red unit, as the example of 004 [8.22] "
           "says (default: no, as the hostility table 004 [8.13], [8.14] has it: White and Green oppose "
           "each other, so they are not the 'Friendly units of different colors' that combine)",
           "004 [8.22] [8.13] [8.14]", group="readings", label="White + Green attack together"),
    Option("turn5_replacements", bool, True,
           "replace units in the Interphase that ends Game-Turn 5 (default: yes, the Interphase belongs "
           "to the Game-Turn it ends, 004 [4.1]; off: the last Replacement Segment is the one in which "
           "the Game-Turn Marker is moved to 5)", "004 [9.16] [14.3] [4.2]",
           label="replacements after Game-Turn 5"),
    Option("one_end_vote", bool, False,
           "an end-game vote that fails is not called again: the game goes on until no Red leaders or no "
           "White combat units remain outside Siberia (default: no, the vote is called at the end of every "
           "Game-Turn in which no White leaders remain outside Siberia, as case 3 begins 'at the end of any "
           "Game-Turn')", "004 [14.1]", group="readings", label="one end-game vote", modes=LIVE_AND_POSTAL),
)}


#: How a type is named to the people who give a wrong one.
_TYPE_WORDS = {int: "an integer", bool: "true or false"}


def value(options: dict, name: str) -> Any:
    """The value of option ``name`` in a game's ``options`` (its default when not set)."""
    return options.get(name, OPTIONS[name].default)


def validate(options: Any, mode: str = "standard") -> dict:
    """The options as given, checked: known names, values of the right type and range, a
    variant's sub-switches with their variant, no two options that exclude each other, and
    (``mode``: the game mode, :mod:`rcw.modes`) each in a mode it is played in (``Option.modes``);
    an option the mode fixes (``Option.fixed``) is set to its value, and refused at any other."""
    if not isinstance(options, dict):
        raise IllegalAction("options", "options must be a map of option names to values", "bad_request")
    out = {}
    wrong: list[str] = []                    # every problem, named at once (QA: only the first was)
    clashes: set[frozenset] = set()
    for k, v in options.items():
        o = OPTIONS.get(k) if isinstance(k, str) else None
        if o is None:
            wrong.append(f"unknown option {k!r} (known: {', '.join(sorted(OPTIONS))})")
        elif not isinstance(v, o.type) or (isinstance(v, bool) and o.type is not bool):
            wrong.append(f"option {k} must be {_TYPE_WORDS[o.type]}")
        elif o.type is int and ((o.minimum is not None and v < o.minimum) or (o.maximum is not None and v > o.maximum)):
            wrong.append(f"option {k} must be between {o.minimum} and {o.maximum}")
        else:
            out[k] = v
    for k, v in out.items():
        o = OPTIONS[k]
        if v == o.default:
            continue
        if o.requires and not out.get(o.requires, OPTIONS[o.requires].default):
            wrong.append(f"option {k} is part of {o.requires}: set {o.requires} too")
        for c in o.conflicts:
            if out.get(c, OPTIONS[c].default) != OPTIONS[c].default and frozenset((k, c)) not in clashes:
                clashes.add(frozenset((k, c)))         # (named once, whichever of the two lists the other)
                wrong.append(f"options {k} and {c} may not be on together")
        if o.modes and mode not in o.modes:
            wrong.append(f"option {k} is not played in the {mode} game (only in: {', '.join(o.modes)})")
    for o in OPTIONS.values():                 # an option the mode fixes (e.g. the postal game's postal movement)
        for m, v in o.fixed:
            if m != mode:
                continue
            if o.name in out and out[o.name] != v:
                wrong.append(f"option {o.name} is always {_value_words(v)} in the {mode} game "
                             f"({o.source}): it may not be {_value_words(out[o.name])}")
            out[o.name] = v
    if wrong:
        raise IllegalAction("options", "; ".join(wrong), "bad_request")
    return out


def _value_words(v: Any) -> str:
    return ("on" if v else "off") if isinstance(v, bool) else str(v)


def parse(name: str, text: str) -> Any:
    """The value of option ``name`` read from ``text`` by its type (``true``/``false``, ``on``/
    ``off``, ``yes``/``no``, ``1``/``0`` for a switch; a whole number for an integer): for the
    command line.  Range and combinations are :func:`validate`'s."""
    o = OPTIONS.get(name)
    if o is None:
        raise IllegalAction("options", f"unknown option {name!r} (known: {', '.join(sorted(OPTIONS))})", "bad_request")
    t = text.strip().lower()
    if o.type is bool:
        if t in ("true", "on", "yes", "1"):
            return True
        if t in ("false", "off", "no", "0"):
            return False
    elif o.type is int and re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    raise IllegalAction("options", f"option {name} must be {_TYPE_WORDS[o.type]}, not {text!r}", "bad_request")


def words(options: dict) -> list[str]:
    """A game's options in words, in the registry's order ("max turns 10", "No Leader Suicide",
    "replacements after Game-Turn 5: off"): what the game menu shows.  An option its game mode
    fixes at that value goes unsaid (QA read "postal movement" of every postal game)."""
    out = []
    mode = options.get("mode", "standard")
    for o in OPTIONS.values():
        if o.name not in options:
            continue
        v = options[o.name]
        fixed = dict(o.fixed)
        if mode in fixed and fixed[mode] == v:
            continue
        out.append(o.words if v is True else f"{o.words}: off" if v is False else f"{o.words} {v}")
    return out


def describe() -> dict[str, dict]:
    """Every option for clients (the lobby): type, default, help, source and range."""
    return {o.name: {"type": o.type.__name__, "default": o.default, "help": o.help, "source": o.source,
                     "min": o.minimum, "max": o.maximum, "group": o.group, "label": o.words,
                     "requires": o.requires or None, "conflicts": list(o.conflicts), "note": o.note,
                     "modes": list(o.modes), "fixed": dict(o.fixed)} for o in OPTIONS.values()}
