"""004 [8.0] Combat, [8.3] Subversive Attack, [13.4] capture of Imperial units.

An attack is assembled step by step: DeclareAttack(target), AddAttacker(stack)...,
ResolveAttack (or CancelAttack).  Exchange losses are chosen unit by unit (ChooseLoss) by
their owner (004 [8.44]); for an uncontrolled defender the attacker chooses (004 [8.46]).

Readings the rules leave open:

* 004 [8.25] "No unit may attack or be attacked more than once": attacking and being attacked
  are counted apart, so a unit that attacked may still be attacked once (by the Phasing
  Player's units of an opposing colour) and a unit that was attacked may still attack once.
* 004 [8.22]'s example "White and Green units may combine to attack a Red unit" contradicts the
  hostility table (004 [8.13], [8.14]: White and Green oppose each other).  The option
  ``white_green_combine`` decides (docs/rules-coverage.md, "Readings"): by default the table
  wins, so only mutually friendly colours (e.g. White and Blue) combine; with it, White and
  Green units (with Blue ones, friendly to both) may also combine against a Red unit, their
  common enemy.
* 004 [8.43] Exchange with equal totals: the defender's units are "the smaller total" and are
  all eliminated; the attacker then loses at least as many points."""

from __future__ import annotations

from rcw.actions import (
    Action,
    AddAttacker,
    CancelAttack,
    CaptureImperial,
    ChooseLoss,
    DeclareAttack,
    DeclineCapture,
    EndCombat,
    Event,
    IllegalAction,
    RemoveAttacker,
    ResolveAttack,
)
from rcw.data import ANARCHIST, BLUE, GREEN, RED, WHITE
from rcw.rules import anarchists, freikorps, masses, no_suicide
from rcw.rules.base import Ctx
from rcw.state import UNASSIGNED, Attack, Stack, opposed
from rcw.types import AttackGroup, AttackOption, Odds


def _attacker(ctx: Ctx, seat: str) -> None:
    ctx.require_phasing(seat, "combat")
    if seat in ctx.s.quit:
        raise ctx.illegal("004 [14.22]", "a player who has quit may not attack")


def attack_units(ctx: Ctx, st: Stack) -> list[int]:
    """Units of a stack that take part when it attacks: leaders, combat units attached to a
    leader (004 [8.28]) and Blue/Green units (and Anarchist units, 001); loose Red/White combat
    units do not attack."""
    out = []
    units, att = ctx.data.units, st.attached
    for u in st.units:
        uu = units[u]
        kind = uu.kind
        if kind == "imperial":
            continue
        if kind == "leader" or att.get(u) or uu.color in (BLUE, GREEN, ANARCHIST):
            out.append(u)
    return out


def strength(ctx: Ctx, units: list[int], doubled: bool = False) -> int:
    """004 [8.26]: the sum of the units' combat strengths (a leader's is his value); Red units
    count double when ``doubled`` (004 [12.12]), Green units attached to a Red leader holding
    the Gold among them (they are Red "for all purposes", 004 [13.26]: ``Board.color_of``)."""
    us = ctx.data.units
    if not doubled:
        return sum([us[u].strength for u in units])
    color = ctx.b.color_of
    return sum([us[u].strength * (2 if color(u) == RED else 1) for u in units])


def loss_chooser(ctx: Ctx, owner: str | None, attacker: str) -> str:
    """Who chooses the Exchange losses of a defending stack of ``owner`` attacked by
    ``attacker`` (004 [8.44]): the owner; for an uncontrolled stack the attacker (004 [8.46]),
    and so for a player who has quit, who is no longer there to choose (004 [14.22]).  (An
    attacker chooses his own losses.)"""
    return owner if owner is not None and owner not in ctx.s.quit else attacker


def odds_column(att: int, dfn: int) -> int | None:
    """Index into the CRT columns 1:2, 1:1 ... 6:1, rounded for the defender (004 [8.0]);
    None below 1:2 (004 [8.47]); above 6:1 resolves at 6:1 (004 [8.48])."""
    if dfn <= 0:
        return 6
    if att >= dfn:
        return min(att // dfn, 6)
    return 0 if 2 * att >= dfn else None


def odds_label(att: int, dfn: int) -> str:
    return _label(odds_column(att, dfn))


def _label(col: int | None) -> str:
    return "below 1:2" if col is None else ("1:2" if col == 0 else f"{col}:1")


def crt_results(ctx: Ctx, column: int | None, subversive: bool = False) -> dict[str, int]:
    """How many of the six die rolls give each result in a CRT column (none below 1:2), counted
    on :func:`crt_row`: a Subversive Attack's ``Ne`` (no effect) in place of Ex and Ae (004 [8.33])."""
    row = crt_row(ctx, column, subversive)
    out = {k: row.count(k) for k in ("De", "Ex", "Ae")}
    if subversive:
        out["Ne"] = row.count("Ne")
    return out


def crt_row(ctx: Ctx, column: int | None, subversive: bool = False) -> list[str]:
    """The results of die rolls 1-6 in a CRT column as an attack has them: a Subversive Attack's
    ``Ne`` (no effect) for every result but De (004 [8.33]); none below 1:2."""
    if column is None:
        return []
    return [r if r == "De" or not subversive else "Ne" for r in (row[column] for row in ctx.data.tables.crt)]


def odds_of(ctx: Ctx, att: int, dfn: int, subversive: bool = False) -> Odds:
    """The odds of an attack of strength ``att`` on ``dfn`` (004 [8.4]), a Subversive Attack's
    results as 004 [8.33] has them."""
    col = odds_column(att, dfn)
    key = ("crt_results", col, subversive)  # (the table's counts, worked out once a game)
    got = ctx.memo.get(key)
    if got is None:
        got = ctx.memo[key] = (crt_results(ctx, col, subversive), crt_row(ctx, col, subversive))
    return {"attack": att, "defense": dfn, "column": col, "label": _label(col), "results": dict(got[0]),
            "row": list(got[1])}


def attack_strength(ctx: Ctx, stacks: list[Stack], subversive: bool) -> int:
    """004 [8.26]-[8.28]: what these stacks bring to an attack (Red doubled in a Subversive
    Attack on a "Subversive Attacks Doubled" Player-Turn, 004 [12.12])."""
    doubled = subversive and ctx.s.subversion_doubled
    return sum(strength(ctx, attack_units(ctx, st), doubled) for st in stacks)


def odds(ctx: Ctx, stacks: list[int] | None = None, target: int | None = None, subversive: bool = False) -> Odds:
    """The odds of the attack being declared (no arguments) or of ``stacks`` attacking ``target``
    (a hypothetical attack: only whether they may combine is checked, 004 [8.22])."""
    s = ctx.s
    if stacks is None and target is None:
        if s.attack is None:
            raise ctx.illegal("004 [8.0]", "no attack is being declared", "no_attack")
        stacks, target, subversive = list(s.attack.attackers), s.attack.target, s.attack.subversive
    if target not in s.stacks or any(x not in s.stacks for x in stacks or []):
        raise ctx.illegal("004 [8.0]", "name stacks on the map", "unknown_stack")
    sts = [s.stacks[x] for x in stacks or []]
    colors = [ctx.b.stack_color(st) for st in sts]
    if not may_combine(ctx, colors, ctx.b.stack_color(s.stacks[target])):
        if ANARCHIST in colors:
            raise ctx.illegal(anarchists.RULE, "an Anarchist stack, hostile to all units, attacks alone")
        raise ctx.illegal("004 [8.22]", "only friendly units combine in one attack")
    return odds_of(ctx, attack_strength(ctx, sts, subversive), strength(ctx, ctx.b.fighting_units(s.stacks[target])),
                   subversive)


FRIENDLY_GROUPS = ((RED,), (WHITE, BLUE), (BLUE, GREEN))    # the largest sets of colours not opposed (004 [8.11]-[8.15])
WHITE_GREEN = (WHITE, BLUE, GREEN)      # with the white_green_combine option, against Red (004 [8.22]'s example)


def white_green_combine(ctx: Ctx) -> bool:
    """Whether White and Green units may combine against a Red unit (the ``white_green_combine``
    option: 004 [8.22]'s example against 004 [8.13], [8.14])."""
    return bool(ctx.s.options.get("white_green_combine", False))


def may_combine(ctx: Ctx, colors, target_color: str) -> bool:
    """004 [8.22]: whether stacks of ``colors`` (one colour a stack) may attack a ``target_color``
    unit together: friendly colours only, or (option ``white_green_combine``) White and Green
    against Red.  An Anarchist stack, hostile to all (001 Anarchists), attacks alone."""
    colors = list(colors)
    if ANARCHIST in colors:
        return len(colors) == 1
    bad = {frozenset((a, b)) for a in colors for b in colors if opposed(a, b)}
    if not bad:
        return True
    return bad == {frozenset((WHITE, GREEN))} and target_color == RED and white_green_combine(ctx)


def friendly_groups(ctx: Ctx, target_color: str) -> tuple[tuple[str, ...], ...]:
    """The largest sets of colours that may attack a ``target_color`` unit together (004 [8.22])."""
    if target_color == RED and white_green_combine(ctx):
        return (WHITE_GREEN,) + FRIENDLY_GROUPS
    return FRIENDLY_GROUPS


def attack_options(ctx: Ctx, seat: str) -> list[AttackOption]:
    """Every attack ``seat`` may declare now, each with the stacks that may make it: grouped
    into sets that may attack together (004 [8.22]), the strongest group first; ``possible``:
    whether any group reaches the odds of 1:2 an attack needs (004 [8.47]: one that none reaches
    may be declared, but then only called off)."""
    s = ctx.s
    if s.attack is not None or ctx.b.phasing() != seat or s.phase != "combat" or s.decision is not None:
        return []
    out: list[AttackOption] = []
    mine = [st for st in s.stacks.values() if st.owner == seat]
    for a in candidates(ctx, seat):
        if not isinstance(a, DeclareAttack):
            continue
        try:
            check_declare(ctx, a)
        except IllegalAction:
            continue
        t = s.stacks[a.target]
        able = [st for st in mine if _attacker_problem(ctx, seat, st, t, a.subversive) is None]
        groups = _groups(ctx, t, able, a.subversive)
        if groups:
            out.append({"target": t.id, "province": t.province, "subversive": a.subversive, "groups": groups,
                        "possible": any(g["odds"]["column"] is not None for g in groups)})
    return out


def _groups(ctx: Ctx, t: Stack, able: list[Stack], subversive: bool) -> list[AttackGroup]:
    """The largest groups of the stacks ``able`` to attack ``t`` that may attack it together
    (004 [8.22]; an Anarchist stack alone, 001 Anarchists 3), with their odds, the strongest
    first.  With 001 No Leader Suicide, a group
    whose odds are below 1:1 leaves out its stacks of leaders alone (prohibition 1)."""
    dfn = strength(ctx, ctx.b.fighting_units(t))
    groups: list[AttackGroup] = []
    for colors in friendly_groups(ctx, ctx.b.stack_color(t)):
        sts = [st for st in able if ctx.b.stack_color(st) in colors]
        o = odds_of(ctx, attack_strength(ctx, sts, subversive), dfn, subversive) if sts else None
        if o is not None and no_suicide.odds_problem(ctx, [attack_units(ctx, st) for st in sts], o["column"], subversive):
            sts = [st for st in sts if not no_suicide.alone(ctx, attack_units(ctx, st))]
            o = odds_of(ctx, attack_strength(ctx, sts, subversive), dfn, subversive) if sts else None
        if sts and not any(set(g["stacks"]) >= {st.id for st in sts} for g in groups):
            groups.append({"stacks": [st.id for st in sts], "odds": o})
    for st in able:                     # 001 Anarchists: each Anarchist stack attacks alone
        if ctx.b.stack_color(st) == ANARCHIST:
            groups.append({"stacks": [st.id], "odds": odds_of(ctx, attack_strength(ctx, [st], subversive), dfn, subversive)})
    groups.sort(key=lambda g: (-g["odds"]["attack"], g["stacks"]))
    return groups


def attacker_problem(ctx: Ctx, seat: str, stack: int, target: int, subversive: bool = False) -> tuple[str, str] | None:
    """Why ``stack`` may not attack ``target`` now (the rule case and the reason), or None."""
    st, t = ctx.s.stacks.get(stack), ctx.s.stacks.get(target)
    if st is None or t is None:
        return "004 [8.0]", "no such stack"
    return _attacker_problem(ctx, seat, st, t, subversive)


def _subversion_adjacent(ctx: Ctx, a: str, b: str) -> bool:
    """004 [8.31]: a border passable by units; the Kerch Straits is passable by White only."""
    return b in ctx.data.provinces[a].adjacent and frozenset((a, b)) not in ctx.data.white_only_borders


def check_declare(ctx: Ctx, a: DeclareAttack) -> None:
    _attacker(ctx, a.seat)
    s = ctx.s
    if s.attack is not None:
        raise ctx.illegal("004 [8.0]", "an attack is already being declared")
    t = s.stacks.get(a.target)
    if t is None:
        raise ctx.illegal("004 [8.0]", f"no stack {a.target}", "unknown_stack")
    fighters = ctx.b.fighting_units(t)
    if not fighters:
        raise ctx.illegal("004 [8.0]", "there is nothing there to attack")
    if any(u in s.defended for u in fighters):
        raise ctx.illegal("004 [8.25]", "that stack has already been attacked this Combat Phase")
    tc = ctx.b.stack_color(t)
    if a.subversive and masses.subversion_deleted(ctx):
        raise ctx.illegal(f"{masses.MASSES} [8.3]", "Subversive Attacks are deleted (Russian Civil War for the Masses)")
    if a.subversive and tc != BLUE:
        raise ctx.illegal("004 [8.31]", "Subversive Attacks are made only against Blue units")
    # Only a stack in position (in the province, or next to it for a Subversive Attack) may attack.
    near = [st for st in s.stacks.values() if st.owner == a.seat and _in_position(ctx, st, t, a.subversive)]
    problems = []
    able = []
    for st in near:
        p = _attacker_problem(ctx, a.seat, st, t, a.subversive)
        if p is None:
            able.append(st)
        else:
            problems.append(p)
    if able:
        if not no_suicide.on(ctx) or _groups(ctx, t, able, a.subversive):
            return
        problems.insert(0, no_suicide.odds_problem(ctx, [attack_units(ctx, st) for st in able], None, a.subversive))
    if problems:      # name the rule that stops a stack standing where it could attack (e.g. 004 [8.25])
        raise ctx.illegal(*problems[0])
    rule = "004 [8.31]" if a.subversive else "004 [8.23]"
    raise ctx.illegal(rule, f"{a.seat} has no stack able to attack that stack")


def _in_position(ctx: Ctx, st: Stack, target: Stack, subversive: bool) -> bool:
    if subversive:
        return st.province != target.province and _subversion_adjacent(ctx, st.province, target.province)
    return st.province == target.province


def do_declare(ctx: Ctx, a: DeclareAttack) -> list[Event]:
    ctx.s.attack = Attack(a.target, a.subversive)
    t = ctx.s.stacks[a.target]
    kind = "a Subversive Attack" if a.subversive else "an attack"
    return [Event("attack_declared", f"{a.seat} declares {kind} on {ctx.names(ctx.b.fighting_units(t))} in {t.province}",
                  {"target": a.target, "subversive": a.subversive})]


def _attacker_problem(ctx: Ctx, seat: str, st: Stack, target: Stack, subversive: bool) -> tuple[str, str] | None:
    if st.owner != seat:
        return "004 [8.21]", "only the Phasing Player's units attack"
    if st.id == target.id:
        return "004 [8.22]", "a stack cannot attack itself"
    units = attack_units(ctx, st)
    if not units:
        return "004 [8.28]", "Red and White combat units attack only when attached to a leader"
    if any(u in ctx.s.fought for u in units):
        # 004 [8.25]: no unit attacks more than once (being attacked is counted apart).
        return "004 [8.25]", "that stack has already attacked this Combat Phase"
    color = ctx.b.stack_color(st)
    tc = ctx.b.stack_color(target)
    if not opposed(color, tc):
        return "004 [8.22]", f"{color} units do not oppose {tc} units"
    if subversive:
        if color != RED:
            return "004 [8.31]", "only Red units make Subversive Attacks"
        if st.province == target.province:
            return "004 [8.31]", "Subversive Attacks come from adjacent provinces, not the same one"
        if not _subversion_adjacent(ctx, st.province, target.province):
            return "004 [8.31]", f"{st.province} is not adjacent to {target.province}"
    elif st.province != target.province:
        return "004 [8.23]", "attackers must be in the defender's province"
    return no_suicide.attack_problem(ctx, units, target, subversive)     # 001 No Leader Suicide 1


def check_add(ctx: Ctx, a: AddAttacker) -> None:
    _attacker(ctx, a.seat)
    at = ctx.s.attack
    if at is None:
        raise ctx.illegal("004 [8.0]", "declare an attack first", "no_attack")
    st = ctx.s.stacks.get(a.stack)
    if st is None:
        raise ctx.illegal("004 [8.0]", f"no stack {a.stack}", "unknown_stack")
    if a.stack in at.attackers:
        raise ctx.illegal("004 [8.27]", "that stack is already attacking")
    p = _attacker_problem(ctx, a.seat, st, ctx.s.stacks[at.target], at.subversive)
    if p:
        raise ctx.illegal(*p)
    colors = [ctx.b.stack_color(ctx.s.stacks[x]) for x in at.attackers] + [ctx.b.stack_color(st)]
    if not may_combine(ctx, colors, ctx.b.stack_color(ctx.s.stacks[at.target])):
        if ANARCHIST in colors:
            raise ctx.illegal(anarchists.RULE, "an Anarchist stack, hostile to all units, attacks alone")
        raise ctx.illegal("004 [8.22]", "only friendly units combine in one attack")


def do_add(ctx: Ctx, a: AddAttacker) -> list[Event]:
    ctx.s.attack.attackers.append(a.stack)
    units = attack_units(ctx, ctx.s.stacks[a.stack])
    return [Event("attacker_added", f"{ctx.names(units)} join{'s' if len(units) == 1 else ''} the attack",
                  {"stack": a.stack, "odds": current_odds(ctx)})]


def current_odds(ctx: Ctx) -> str:
    return odds(ctx)["label"]


def check_remove(ctx: Ctx, a: RemoveAttacker) -> None:
    _attacker(ctx, a.seat)
    if ctx.s.attack is None or a.stack not in ctx.s.attack.attackers:
        raise ctx.illegal("004 [8.0]", "that stack is not in the attack being declared")


def do_remove(ctx: Ctx, a: RemoveAttacker) -> list[Event]:
    ctx.s.attack.attackers.remove(a.stack)
    return [Event("attacker_removed", "A stack is withdrawn from the attack", {"stack": a.stack})]


def check_cancel(ctx: Ctx, a: CancelAttack) -> None:
    _attacker(ctx, a.seat)
    if ctx.s.attack is None:
        raise ctx.illegal("004 [8.24]", "no attack is being declared")


def do_cancel(ctx: Ctx, a: CancelAttack) -> list[Event]:
    ctx.s.attack = None
    return [Event("attack_cancelled", f"{a.seat} calls off the attack", {})]


def check_resolve(ctx: Ctx, a: ResolveAttack) -> None:
    _attacker(ctx, a.seat)
    at = ctx.s.attack
    if at is None:
        raise ctx.illegal("004 [8.0]", "declare an attack first", "no_attack")
    if not at.attackers:
        raise ctx.illegal("004 [8.0]", "add at least one attacking stack")
    o = odds(ctx)
    att, dfn = o["attack"], o["defense"]
    if o["column"] is None:
        raise ctx.illegal("004 [8.47]", f"{att} against {dfn} is below 1:2")
    p = no_suicide.odds_problem(ctx, [attack_units(ctx, ctx.s.stacks[x]) for x in at.attackers], o["column"],
                                at.subversive)
    if p:
        raise ctx.illegal(*p)


def do_resolve(ctx: Ctx, a: ResolveAttack) -> list[Event]:
    s, seat = ctx.s, a.seat
    at = s.attack
    s.attack = None
    t = s.stacks[at.target]
    stacks = [s.stacks[x] for x in at.attackers]
    attackers = [u for st in stacks for u in attack_units(ctx, st)]
    defenders = ctx.b.fighting_units(t)
    held = (_imperials(ctx, [t]), _imperials(ctx, stacks))     # each side's Imperial units (004 [13.41])
    doubled = at.subversive and s.subversion_doubled
    att, dfn = strength(ctx, attackers, doubled), strength(ctx, defenders)
    col = odds_column(att, dfn)
    rolled = die = ctx.die()
    if at.subversive:
        die = freikorps.subversion_die(ctx, defenders, die)      # 001 Freikorps
    res = ctx.data.tables.crt[die - 1][col]
    s.fought += attackers
    s.defended += defenders
    label = ctx.data.tables.crt_columns[col]
    ctx.bump("attacks")
    if at.subversive:
        ctx.bump("subversive_attacks")
    d_section = seat                                          # 004 [8.45]
    a_section = t.owner or UNASSIGNED                         # 004 [8.45], [8.46]
    ev = [Event("combat", f"{seat} attacks {ctx.names(defenders)} in {t.province}: {att} vs {dfn} at {label}"
                + (" (subversive" + (", doubled)" if doubled else ")") if at.subversive else "")
                + (f", die {rolled}, {die} against the Freikorps (001)" if die != rolled else f", die {die}") + f": {res}",
                {"seat": seat, "province": t.province, "attack": att, "defense": dfn, "odds": label, "die": die,
                 "result": res, "subversive": at.subversive, "target": t.id, "defender": t.owner,
                 "attackers": list(at.attackers)})]
    province = t.province
    defender_owner = t.owner
    if at.subversive and res != "De":                         # 004 [8.33]
        ev.append(Event("no_effect", "The Subversive Attack has no effect", {}))
        return ev
    if res == "De":
        for u in defenders:
            ctx.eliminate(u, d_section, ev, "combat")
        ev += _offer_capture(ctx, t.id, seat, [x.id for x in stacks if x.id in s.stacks], province, held[0])
    elif res == "Ae":
        for u in attackers:
            ctx.eliminate(u, a_section, ev, "combat")
        ev += _after_attacker_loss(ctx, stacks, defender_owner, t.id, province, held[1])
    else:                                                      # Ex (004 [8.43])
        if dfn <= att:
            for u in defenders:
                ctx.eliminate(u, d_section, ev, "exchange")
            need, losers, section, chooser = dfn, attackers, a_section, seat
        else:
            for u in attackers:
                ctx.eliminate(u, a_section, ev, "exchange")
            need, losers, section, chooser = att, defenders, d_section, loss_chooser(ctx, defender_owner, seat)
        if need >= strength(ctx, losers):
            for u in losers:
                ctx.eliminate(u, section, ev, "exchange")
        else:
            s.decision = {"kind": "loss", "seat": chooser, "need": need, "units": list(losers),
                          "section": section, "target": t.id, "attackers": [x.id for x in stacks],
                          "defender_owner": defender_owner, "province": province, "attacker": seat,
                          "imperials": [list(held[0]), list(held[1])]}
            ev.append(Event("exchange", f"{chooser} must remove at least {need} strength points from {ctx.names(losers)}",
                            {"seat": chooser, "need": need, "units": list(losers)}))
            return ev
        ev += _offer_capture(ctx, t.id, seat, [x.id for x in stacks if x.id in s.stacks], province, held[0])
        ev += _after_attacker_loss(ctx, stacks, defender_owner, t.id, province, held[1])
    return ev


def _imperials(ctx: Ctx, stacks) -> list[int]:
    """The Imperial units in ``stacks`` (one side of a combat, before it is resolved)."""
    units = ctx.data.units
    return [u for st in stacks for u in st.units if units[u].is_imperial]


def _orphan_imperials(ctx: Ctx, province: str, among) -> list[int]:
    """004 [13.41]: those of the Imperial units ``among`` (the other side's in the combat) whom
    the combat left alone in ``province``, all the units stacked with them eliminated; not an
    Imperial unit that stood alone there before (004 [13.14], [13.42]: attached in a Movement
    Phase only).  ``among`` None: any alone there (a loss decision saved before it was kept)."""
    out = []
    for st in ctx.b.stacks_in(province):
        if st.owner is None and all(ctx.data.units[u].is_imperial for u in st.units):
            out += st.units if among is None else [u for u in st.units if u in among]
    return out


def _offer_capture(ctx: Ctx, target_id: int, capturer: str | None, stacks: list[int], province: str,
                   among) -> list[Event]:
    """004 [13.41]: when every unit stacked with an Imperial unit of the defender (``among``) is
    eliminated, the opposing force may attach it at once."""
    s = ctx.s
    if ctx.s.decision is not None or capturer is None:
        return []
    orphans = _orphan_imperials(ctx, province, among)
    live = [x for x in stacks if x in s.stacks and s.stacks[x].province == province and ctx.b.fighting_units(s.stacks[x])
            and not anarchists.alone_problem(ctx, s.stacks[x])]         # (an Anarchist unit carries nothing, 001)
    if orphans and live and target_id not in s.stacks or (orphans and live and not ctx.b.fighting_units(s.stacks.get(target_id, Stack(0, "", None, [])))):
        s.decision = {"kind": "capture", "seat": capturer, "units": orphans, "stacks": live}
        return [Event("capture_offer", f"{capturer} may capture the {ctx.names(orphans)} in {province}",
                      {"seat": capturer, "units": list(orphans)})]
    return []


def _after_attacker_loss(ctx: Ctx, stacks: list[Stack], defender_owner: str | None, target_id: int, province: str,
                         among) -> list[Event]:
    """004 [13.41] the other way: the attackers' Imperial units (``among``) left alone by the
    combat may be attached by the defending force."""
    s = ctx.s
    wiped = [x for x in stacks if x.id not in s.stacks or not ctx.b.fighting_units(x)]
    if not wiped or defender_owner is None or target_id not in s.stacks:
        return []
    if defender_owner in s.quit:                      # 004 [14.22]: a quitter attaches nothing
        return []
    if s.decision is not None or anarchists.alone_problem(ctx, s.stacks[target_id]):
        return []
    orphans = _orphan_imperials(ctx, province, among)
    if orphans:
        s.decision = {"kind": "capture", "seat": defender_owner, "units": orphans, "stacks": [target_id]}
        return [Event("capture_offer", f"{defender_owner} may capture the {ctx.names(orphans)} in {province}",
                      {"seat": defender_owner, "units": list(orphans)})]
    return []


def check_loss(ctx: Ctx, a: ChooseLoss) -> None:
    d = ctx.require_decision(a.seat, "loss", "004 [8.44]", "no Exchange losses are being chosen",
                             "{owner} chooses these losses")
    if a.unit not in d["units"]:
        raise ctx.illegal("004 [8.44]", "that unit is not in the force taking the losses")


def minimum_loss(ctx: Ctx, seat: str) -> list[int]:
    """The least loss that satisfies the Exchange ``seat`` is choosing (004 [8.44]: "at least" the
    strength points): the fewest leaders (a leader is never suggested while combat units alone
    make up the need: he is a Victory Point and a purge's strength), then the smallest total of
    ``need`` or more, then the fewest units, then the lowest ids.  Empty when ``seat`` chooses no
    losses now.  (A suggestion: any units that make up the need are legal.)"""
    d = ctx.s.decision
    if d is None or d["kind"] != "loss" or d["seat"] != seat:
        return []
    us = ctx.data.units
    best: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {(0, 0): (0, ())}   # (leaders, total) -> (units, ids)
    for u in sorted(d["units"]):
        n, lead = us[u].strength, int(us[u].is_leader)
        for (ls, total), (k, ids) in sorted(best.items(), reverse=True):
            key, cand = (ls + lead, total + n), (k + 1, ids + (u,))
            got = best.get(key)
            if got is None or cand < got:
                best[key] = cand
    enough = [key for key in best if key[1] >= d["need"]]
    return list(best[min(enough)][1]) if enough else sorted(d["units"])


def do_loss(ctx: Ctx, a: ChooseLoss) -> list[Event]:
    s = ctx.s
    d = s.decision
    ev: list[Event] = []
    ctx.eliminate(a.unit, d["section"], ev, "exchange")
    d["units"].remove(a.unit)
    d["need"] -= ctx.data.units[a.unit].strength
    if d["need"] > 0 and d["units"]:
        return ev
    s.decision = None
    held = d.get("imperials") or (None, None)
    ev += _offer_capture(ctx, d["target"], d["attacker"], d["attackers"], d["province"], held[0])
    ev += _after_attacker_loss(ctx, [s.stacks[x] if x in s.stacks else Stack(x, "", None, []) for x in d["attackers"]],
                               d["defender_owner"], d["target"], d["province"], held[1])
    return ev


def check_capture(ctx: Ctx, a: CaptureImperial) -> None:
    d = ctx.require_decision(a.seat, "capture", "004 [13.41]", "no Imperial unit may be captured now",
                             "{owner} decides this capture")
    if a.unit not in d["units"] or a.stack not in d["stacks"] or a.stack not in ctx.s.stacks:
        raise ctx.illegal("004 [13.41]", "name an Imperial unit on offer and one of your stacks that fought")
    st = ctx.s.stacks[a.stack]
    leaders = ctx.b.leaders_of(st)
    if (leaders and a.leader not in leaders) or (not leaders and a.leader):
        raise ctx.illegal("004 [13.21]", "name the leader who takes it (0 for a Blue/Green stack)")
    if a.unit in st.units:
        raise ctx.illegal("004 [7.11]", "that stack already holds it")


def do_capture(ctx: Ctx, a: CaptureImperial) -> list[Event]:
    d = ctx.s.decision
    st = ctx.s.stacks[a.stack]
    ctx.take(a.unit)
    ctx.put(a.unit, st, a.leader)
    st.attached[a.unit] = a.leader
    d["units"].remove(a.unit)
    if not d["units"]:
        ctx.s.decision = None
    ctx.bump("captures")
    holder = (f"{ctx.name(a.leader)} controls it now (004 [13.21])" if a.leader
              else f"it is stacked with {ctx.names(ctx.b.fighting_units(st))} now (004 [13.41])")
    return [Event("capture", f"{a.seat} captures the {ctx.name(a.unit)} in {st.province}: {holder}",
                  {"unit": a.unit, "seat": a.seat})]


def check_decline_capture(ctx: Ctx, a: DeclineCapture) -> None:
    d = ctx.s.decision
    if d is None or d["kind"] != "capture" or d["seat"] != a.seat:
        raise ctx.illegal("004 [13.41]", "no capture is offered to you", "no_decision")


def do_decline_capture(ctx: Ctx, a: DeclineCapture) -> list[Event]:
    ctx.s.decision = None
    return [Event("capture_declined", f"{a.seat} leaves the Imperial unit where it is", {})]


def candidates(ctx: Ctx, seat: str) -> list[Action]:
    s = ctx.s
    if s.attack is None:
        out: list[Action] = [EndCombat(seat)]
        mine = [st for st in s.stacks.values() if st.owner == seat and attack_units(ctx, st)]
        provinces = {st.province for st in mine}
        red_provinces = {st.province for st in mine if ctx.b.stack_color(st) == RED}
        for t in s.stacks.values():
            if not ctx.b.fighting_units(t):
                continue
            if t.province in provinces:
                out.append(DeclareAttack(seat, t.id, False))
            if ctx.b.stack_color(t) == BLUE and any(_subversion_adjacent(ctx, p, t.province) for p in red_provinces):
                out.append(DeclareAttack(seat, t.id, True))
        return out
    at = s.attack
    out = [CancelAttack(seat), ResolveAttack(seat)]
    for st in s.stacks.values():
        if st.owner == seat and st.id not in at.attackers:
            out.append(AddAttacker(seat, st.id))
    for x in at.attackers:
        out.append(RemoveAttacker(seat, x))
    return out


def decision_candidates(ctx: Ctx, seat: str) -> list[Action]:
    d = ctx.s.decision
    if d is None or d["seat"] != seat:
        return []
    if d["kind"] == "loss":
        return [ChooseLoss(seat, u) for u in d["units"]]
    if d["kind"] == "capture":
        out: list[Action] = [DeclineCapture(seat)]
        for u in d["units"]:
            for x in d["stacks"]:
                if x in ctx.s.stacks:
                    for lead in ctx.b.leaders_of(ctx.s.stacks[x]) or [0]:
                        out.append(CaptureImperial(seat, u, x, lead))
        return out
    return []


