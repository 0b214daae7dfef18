"""The Gamesmaster's report of a phase (004 [17.0] Procedure: "The Gamesmaster will then report
all results, including the final dispositions of all units to each of the Players"), as The
Bell printed them: what happened, the orders not carried out and why, every player's stacks
top to bottom, the unaligned units and every Victory Point box.

:func:`build` makes it as plain data (``view.postal.report``, the ``report`` event);
:func:`render` writes it as text (``rcw report``).

Report (data)::

    {"turn": 1, "phase": "first",            # the phase adjudicated ("trading": the pre-season trades,
                                              # "deal": the Initial Forces dealt, postal [15.0])
     "hands": {seat: {"leaders", "politburo", "assassins"}},   # the deal report only
     "happened": [{"kind", "text", "data"}],  # every event of the adjudication, in order (after the
                                              # deadline's phase_closed when the deadline closed it)
     "skipped": [{"seat", "index", "order", "rule", "code", "message", "step"?}],   # not carried out
     "refused": [{"seat", "index", "order", "rule", "code", "message"}],  # refused when the sheet came
     "stacks": {seat: [stack]}, "unaligned": [stack],   # stack: {"province", "units", "attached", "strength"}
     "vp": {section: [unit]}, "politburo": {seat: n}, "assassins": {seat: n},
     "control": {nationality: seat}, "withdrawn": [nationality], "randomizer": n,
     "turn_now": 1, "phase_now": "second"}   # the phase whose orders are collected next
"""

from __future__ import annotations

from rcw.actions import Event
from rcw.data import GameData
from rcw.postal.base import PHASE_NAMES
from rcw.rules import combat
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED, copy_plain

NEXT = {"deal": "trading", "trading": "first", "first": "second", "second": "first"}
QUIET = ("postal_step",)          # events shown as headings, not as lines


def _stack(ctx: Ctx, st) -> dict:
    """A stack as the report shows it, with the combat strength it defends with (004 [8.26],
    the number on its counter: what a map of the report draws)."""
    return {"province": st.province, "units": list(st.units), "attached": {str(k): v for k, v in st.attached.items()},
            "strength": combat.strength(ctx, ctx.b.fighting_units(st))}


def build(ctx: Ctx, turn: int, phase: str, events: list[Event]) -> dict:
    s = ctx.s
    stacks: dict[str, list[dict]] = {p: [] for p in s.seats}
    unaligned = []
    for st in sorted(s.stacks.values(), key=lambda x: (x.province, x.id)):
        (stacks[st.owner] if st.owner in stacks else unaligned).append(_stack(ctx, st))
    return {
        "turn": turn, "phase": phase,
        "happened": [{"kind": e.kind, "text": e.text, "data": copy_plain(e.data)} for e in events],
        "skipped": [copy_plain(e.data) for e in events if e.kind == "order_skipped"],
        "refused": [{"seat": p, **r} for p in s.seats for r in s.postal.get("rejected", {}).get(p, [])],
        "stacks": stacks, "unaligned": unaligned,
        "vp": {k: [e[0] for e in v] for k, v in s.vp.items() if v},
        "politburo": dict(s.politburo), "assassins": dict(s.assassins), "control": dict(s.control),
        "withdrawn": list(s.withdrawn), "randomizer": len(s.aux),
        "turn_now": s.turn, "phase_now": "over" if s.phase == "over" else NEXT[phase],
        **({"hands": {p: {"leaders": list(s.hand.get(p, [])), "politburo": s.politburo.get(p, 0),
                          "assassins": s.assassins.get(p, 0)} for p in s.seats}} if phase == "deal" else {}),
    }


def title(rep: dict) -> str:
    what = {"deal": "the deal", "trading": "the pre-season trades", "first": "the First Phase (movement)",
            "second": "the Second Phase (combat)"}[rep["phase"]]
    return f"Report of Game-Turn {rep['turn']}, {what}"


def _units(d: GameData, units: list[int]) -> str:
    return ", ".join(d.units[u].label for u in units)


def render(rep: dict, data: GameData) -> str:
    """The report as text, in The Bell's manner: each stack top to bottom, ``;`` between the
    stacks of one province."""
    out = [title(rep).upper(), ""]
    out.append("What happened:")
    for e in rep["happened"]:
        if e["kind"] == "report":
            continue
        if e["kind"] in QUIET or e["kind"] in ("adjudication", "phase_closed"):
            out.append(f"  {e['text']}")
        elif e["kind"] != "order_skipped":
            out.append(f"    - {e['text']}")
    out.append("")
    out.append("Orders not carried out:" if rep["skipped"] else "Orders not carried out: none")
    for k in rep["skipped"]:
        step = f" ({k['step']})" if k.get("step") else ""
        out.append(f"  {k['seat']} order #{k['index'] + 1} ({k['order']}){step}: {k['rule']}: {k['message']}")
    if rep["refused"]:
        out.append("Orders refused when their sheet arrived:")
        for k in rep["refused"]:
            out.append(f"  {k['seat']} order #{k['index'] + 1} ({k['order']}): {k['rule']}: {k['message']}")
    out.append("")
    if "hands" in rep:
        out.append("The Initial Forces dealt (004 [15.31]; the leaders are deployed after the pre-season trades):")
        for seat, h in rep["hands"].items():
            out.append(f"  Player {seat}: {', '.join(data.units[u].label for u in h['leaders'])}; "
                       f"IN VICTORY BOX: {h['politburo']} PM, {h['assassins']} AM")
        out.append("")
    nxt = "the game is over" if rep["phase_now"] == "over" else \
        f"as {PHASE_NAMES[rep['phase_now']]} of Game-Turn {rep['turn_now']} begins"
    out.append(f"Positions ({nxt}), each stack top to bottom:")
    for seat, stacks in rep["stacks"].items():
        out.append(f"  Player {seat}:")
        out += _province_lines(data, stacks)
        box = [f"{rep['politburo'].get(seat, 0)} PM", f"{rep['assassins'].get(seat, 0)} AM"]
        box += [f"{data.blue_names.get(n, data.green_names.get(n, n))} Control" for n, p in rep["control"].items()
                if p == seat]
        box += [data.units[u].label for u in rep["vp"].get(seat, [])]
        out.append(f"    IN VICTORY BOX: {', '.join(box)}")
    out.append("  Unaligned units:")
    out += _province_lines(data, rep["unaligned"])
    neutral = [data.units[u].label for u in rep["vp"].get(UNASSIGNED, [])]
    out.append(f"  IN NEUTRAL BOX: {', '.join(neutral) or 'nothing'}")
    out.append(f"  Chits in the Randomizer: {rep['randomizer']}"
               + (f"; withdrawn: {', '.join(rep['withdrawn'])}" if rep["withdrawn"] else ""))
    return "\n".join(out) + "\n"


def _province_lines(data: GameData, stacks: list[dict]) -> list[str]:
    by: dict[str, list[str]] = {}
    for st in stacks:
        by.setdefault(st["province"], []).append(_units(data, st["units"]))
    return [f"    {p}: {'; '.join(v)}" for p, v in sorted(by.items())] or ["    (nothing on the map)"]
