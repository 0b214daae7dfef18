"""004 [15.0] How to set up and play: control letters, the Initial Forces Randomizer dealt
face up, the two extra Politburo markers, the pre-game trading session, deployment, the
Auxiliary Forces Randomizer and the first Player-Turn Sequencing draw."""

from __future__ import annotations

from rcw.actions import AcceptTrade, Action, DeclineTrade, EndTrading, Event, OfferTrade, WithdrawTrade
from rcw.data import BLUE, GREEN
from rcw.rules import auxiliary, balanced_deal, historical, masses, sequence
from rcw.rules.base import LENIN, TROTSKY, Ctx, counted
from rcw.state import Stack


def deal(ctx: Ctx) -> list[Event]:
    """004 [15.22], [15.31], [15.32]: deal the 65 Initial Forces clockwise from A, face up."""
    s, d = ctx.s, ctx.data
    cup: list = sorted(u.id for u in d.units.values() if u.is_leader)
    politburo = 0 if masses.on(ctx) else d.markers.politburo_initial      # 004 Masses [15.22]: 52 counters
    cup += ["P"] * politburo + ["A"] * d.markers.assassin_initial
    ctx.shuffle(cup)
    dealt: dict[str, list] = {p: [] for p in s.seats}
    for i, chit in enumerate(cup):
        dealt[s.seats[i % len(s.seats)]].append(chit)
    if s.options.get("balanced_deal"):                   # (ours: rcw.rules.balanced_deal)
        dealt = balanced_deal.balance(ctx, dealt, bonus=not masses.on(ctx))
    s.hand = {p: [] for p in s.seats}
    s.politburo = {p: 0 for p in s.seats}
    s.assassins = {p: 0 for p in s.seats}
    for p, chits in dealt.items():
        for chit in chits:
            if chit == "P":
                s.politburo[p] += 1
            elif chit == "A":
                s.assassins[p] += 1
            else:
                s.hand[p].append(chit)
    for p in s.seats:
        s.hand[p].sort()
        for special in (LENIN, TROTSKY):
            if special in s.hand[p] and not masses.on(ctx):          # 004 [15.32] (deleted by the Masses)
                s.politburo[p] += 1
    # 004 [15.23]: "after all of the units in the Initial Forces Randomizer have been distributed",
    # the Auxiliary Forces Randomizer, "the same container" (the markers of a player who quits in
    # the trading session go into it, 004 [14.23]; nothing is drawn before Game-Turn 1)
    m = d.markers
    s.aux = ([f"BC:{n}" for n in m.blue_control] + [f"WD:{n}" for n in historical.withdrawal_markers(ctx)]
             + [f"GC:{n}" for n in m.green_control] + ["A"] * (m.assassin - m.assassin_initial)) + s.aux
    return [Event("dealt", f"{p} receives {len(s.hand[p])} leaders, {s.politburo[p]} Politburo, "
                  f"{s.assassins[p]} Assassin markers", {"seat": p, "leaders": list(s.hand[p]),
                                                         "politburo": s.politburo[p], "assassins": s.assassins[p]})
            for p in s.seats]


# -- trading (004 [15.33]; marker trades any time, 004 [10.0], [11.0]) ------------------------------
def check_offer(ctx: Ctx, a: OfferTrade) -> None:
    s = ctx.s
    if s.phase == "over":
        raise ctx.illegal("004 [14.1]", "the game is over", "game_over")
    if a.to not in s.seats or a.to == a.seat:
        raise ctx.illegal("004 [15.33]", f"no other player {a.to!r} to trade with")
    if a.to in s.quit:
        raise ctx.illegal("004 [14.2]", f"{a.to} has left the game")
    if min(a.give_politburo, a.give_assassins, a.take_politburo, a.take_assassins) < 0:
        raise ctx.illegal("004 [15.33]", "counts must not be negative")
    if s.phase != "trading" and (a.give_leaders or a.take_leaders):
        raise ctx.illegal("004 [15.33]", "after the pre-game session only Politburo and Assassin markers may be traded")
    if not (a.give_leaders or a.take_leaders or a.give_politburo or a.give_assassins
            or a.take_politburo or a.take_assassins):
        raise ctx.illegal("004 [15.33]", "the offer trades nothing")
    _check_holdings(ctx, a.seat, a.give_leaders, a.give_politburo, a.give_assassins)
    _check_holdings(ctx, a.to, a.take_leaders, a.take_politburo, a.take_assassins)


def _check_holdings(ctx: Ctx, seat: str, leaders, pm: int, am: int) -> None:
    s = ctx.s
    if len(set(leaders)) != len(leaders):
        raise ctx.illegal("004 [15.33]", "a leader is listed twice")
    for lid in leaders:
        if lid not in s.hand.get(seat, []):
            who = ctx.name(lid) if lid in ctx.data.units else f"leader {lid}"
            raise ctx.illegal("004 [15.33]", f"{seat} does not hold {who}")
    # (a player trades what he holds: in the pre-game session, 004 [15.33]; later the markers are
    # his to trade "at any time during the game", 004 [11.0] for Politburo, [10.0] for Assassin markers)
    pre = s.phase == "trading"
    if s.politburo.get(seat, 0) < pm:
        raise ctx.illegal("004 [15.33]" if pre else "004 [11.0]",
                          f"{seat} holds only {counted(s.politburo.get(seat, 0), 'Politburo marker')}")
    if s.assassins.get(seat, 0) < am:
        raise ctx.illegal("004 [15.33]" if pre else "004 [10.0]",
                          f"{seat} holds only {counted(s.assassins.get(seat, 0), 'Assassin marker')}")


def do_offer(ctx: Ctx, a: OfferTrade) -> list[Event]:
    s = ctx.s
    oid = s.next_offer
    s.next_offer += 1
    s.offers[oid] = {"id": oid, "from": a.seat, "to": a.to, "give_leaders": list(a.give_leaders),
                     "give_politburo": a.give_politburo, "give_assassins": a.give_assassins,
                     "take_leaders": list(a.take_leaders), "take_politburo": a.take_politburo,
                     "take_assassins": a.take_assassins}
    return [Event("trade_offered", f"{a.seat} offers {a.to} a trade (#{oid})", {"offer": oid, "from": a.seat, "to": a.to})]


def _offer(ctx: Ctx, oid: int, seat: str, role: str) -> dict:
    o = ctx.s.offers.get(oid)
    if o is None:
        raise ctx.illegal("004 [15.33]", f"no open offer #{oid}", "unknown_offer")
    if o[role] != seat:
        raise ctx.illegal("004 [15.33]", f"offer #{oid} is not {'to' if role == 'to' else 'from'} {seat}", "not_your_offer")
    return o


# Decisions during which no trade is consummated: a purge or an execution order suspends all
# other game functions until resolved (004 [11.0] Procedure; 004 [17.0] postal [13.5]: "handled
# in the same manner as Purges"), and the end-game vote counts the markers held as it is
# held (004 [14.1] case 3).  Offers may still be made, declined and withdrawn.
SUSPENDING = {"purge_approval": "004 [11.0]", "purge_orders": "004 [11.0]", "spoils": "004 [11.0]",
              "counterpurge": "004 [11.0]", "execution_consent": "004 [11.0]", "execution": "004 [11.0]",
              "vote": "004 [14.1]", "red_terror": "004 [11.0]"}


def check_accept(ctx: Ctx, a: AcceptTrade) -> None:
    o = _offer(ctx, a.offer, a.seat, "to")
    d = ctx.s.decision
    if d is not None and d.get("kind") in SUSPENDING:
        raise ctx.illegal(SUSPENDING[d["kind"]], f"no trade is made while the {d['kind'].replace('_', ' ')} "
                          "decision is being resolved; accept it afterwards", "decision_pending")
    if ctx.s.phase != "trading" and (o["give_leaders"] or o["take_leaders"]):
        raise ctx.illegal("004 [15.33]", "leaders may be traded only in the pre-game session")
    _check_holdings(ctx, o["from"], o["give_leaders"], o["give_politburo"], o["give_assassins"])
    _check_holdings(ctx, o["to"], o["take_leaders"], o["take_politburo"], o["take_assassins"])


def do_accept(ctx: Ctx, a: AcceptTrade) -> list[Event]:
    s = ctx.s
    o = s.offers.pop(a.offer)
    f, t = o["from"], o["to"]
    for lid in o["give_leaders"]:
        s.hand[f].remove(lid)
        s.hand[t].append(lid)
    for lid in o["take_leaders"]:
        s.hand[t].remove(lid)
        s.hand[f].append(lid)
    for p in (f, t):
        if p in s.hand:
            s.hand[p].sort()
    s.politburo[f] += o["take_politburo"] - o["give_politburo"]
    s.politburo[t] += o["give_politburo"] - o["take_politburo"]
    s.assassins[f] += o["take_assassins"] - o["give_assassins"]
    s.assassins[t] += o["give_assassins"] - o["take_assassins"]
    if s.phase == "trading":
        s.ready = []          # the hands changed: everyone confirms the end again
    ctx.bump("trades")
    parts = []
    if o["give_leaders"] or o["give_politburo"] or o["give_assassins"]:
        parts.append(f"{f} gives {_describe(ctx, o['give_leaders'], o['give_politburo'], o['give_assassins'])}")
    if o["take_leaders"] or o["take_politburo"] or o["take_assassins"]:
        parts.append(f"{t} gives {_describe(ctx, o['take_leaders'], o['take_politburo'], o['take_assassins'])}")
    return [Event("trade", f"Trade #{a.offer} between {f} and {t}: " + "; ".join(parts), {"offer": o})]


def _describe(ctx: Ctx, leaders, pm: int, am: int) -> str:
    bits = [ctx.name(x) for x in leaders]
    if pm:
        bits.append(f"{pm} Politburo")
    if am:
        bits.append(f"{am} Assassin")
    return ", ".join(bits)


def check_decline(ctx: Ctx, a: DeclineTrade) -> None:
    _offer(ctx, a.offer, a.seat, "to")


def do_decline(ctx: Ctx, a: DeclineTrade) -> list[Event]:
    o = ctx.s.offers.pop(a.offer)
    return [Event("trade_declined", f"{a.seat} declines {o['from']}'s offer #{a.offer}", {"offer": a.offer})]


def check_withdraw(ctx: Ctx, a: WithdrawTrade) -> None:
    _offer(ctx, a.offer, a.seat, "from")


def do_withdraw(ctx: Ctx, a: WithdrawTrade) -> list[Event]:
    ctx.s.offers.pop(a.offer)
    return [Event("trade_withdrawn", f"{a.seat} withdraws offer #{a.offer}", {"offer": a.offer})]


def check_end_trading(ctx: Ctx, a: EndTrading) -> None:
    if ctx.s.phase != "trading":
        raise ctx.illegal("004 [15.33]", "the trading session is already over", "wrong_phase")
    if a.seat in ctx.s.ready:
        raise ctx.illegal("004 [15.33]", f"{a.seat} has already agreed to end the trading session")


def do_end_trading(ctx: Ctx, a: EndTrading) -> list[Event]:
    s = ctx.s
    s.ready.append(a.seat)
    ev = [Event("trading_agreed", f"{a.seat} agrees to end the trading session", {"seat": a.seat})]
    if set(ctx.b.active_seats()) <= set(s.ready):
        s.offers = {k: v for k, v in s.offers.items() if not (v["give_leaders"] or v["take_leaders"])}
        ev += deploy(ctx)
        ev += sequence.start_game_turn(ctx)
    return ev


def trading_candidates(ctx: Ctx, seat: str) -> list[Action]:
    out: list[Action] = []
    if ctx.s.phase == "trading" and seat not in ctx.s.ready:
        out.append(EndTrading(seat))
    for oid, o in sorted(ctx.s.offers.items()):
        if o["to"] == seat:
            out += [AcceptTrade(seat, oid), DeclineTrade(seat, oid)]
        if o["from"] == seat:
            out.append(WithdrawTrade(seat, oid))
    return out


# -- deployment (004 [15.4], [15.5]) --------------------------------------------------------------
def place_units(ctx: Ctx) -> None:
    """004 [15.41]-[15.42], [15.51]: every combat unit in its province, the Blue and Green units
    of one nationality stacked (five to a stack, 004 [7.11]) under the holder of their Control
    Marker, the Imperial units under their units.  No leaders; Red and White stacks have no owner
    yet.  (The SPI solitaire's set-up starts the same way, 004 [27.1].)"""
    s, d = ctx.s, ctx.data
    s.stacks = {}
    s.next_stack = 1
    by_key: dict[tuple, list[int]] = {}
    for u in sorted(d.units.values(), key=lambda u: u.id):
        if not u.is_combat or u.option in auxiliary.STATS:   # (the optional forces of 001 come by their own rules)
            continue
        if u.color in (BLUE, GREEN):
            by_key.setdefault((u.province, u.color, u.nationality), []).append(u.id)
        else:
            ctx.new_stack(u.province, None, [u.id])
    for (prov, _c, nat), ids in by_key.items():
        for i in range(0, len(ids), 5):                  # 004 [7.11]
            ctx.new_stack(prov, s.control.get(nat), ids[i:i + 5])
    if masses.no_imperial(ctx):                          # 004 Masses [13.0]: deleted
        return
    for imp, under in ((d.czar, d.czar_under), (d.gold, d.gold_under)):
        ctx.put(imp, ctx.b.stack_of(under))


def lead_unit(ctx: Ctx, lid: int, unit: int | None = None) -> Stack:
    """004 [15.52]: leader ``lid`` goes on top of the stack of ``unit`` (None: the combat unit of
    his colour in his province), with that unit and any Imperial unit there attached to him."""
    d = ctx.data
    u = d.units[lid]
    if unit is None:
        unit = next(v.id for v in d.units.values()
                    if v.is_combat and v.color == u.color and v.province == u.province)
    st = ctx.b.stack_of(unit)
    st.units.insert(0, lid)
    st.attached[unit] = lid
    for imp in (d.czar, d.gold):
        if imp in st.units:
            st.attached[imp] = lid
    ctx.b.invalidate()
    return st


def deploy(ctx: Ctx) -> list[Event]:
    s, d = ctx.s, ctx.data
    place_units(ctx)
    owner_of = {lid: p for p, ls in s.hand.items() for lid in ls}
    # 004 [15.52]: asterisk leaders stack with their colour's unit in their province.
    for lid in sorted(owner_of):
        if d.units[lid].asterisk:
            lead_unit(ctx, lid).owner = owner_of[lid]
    # 004 [15.53]-[15.54]: other leaders join a stack of the same player and colour if it has
    # room, else stand alone (our default deployment; stacks are rearranged in Movement Phases).
    for lid in sorted(owner_of):
        u = d.units[lid]
        if u.asterisk:
            continue
        p = owner_of[lid]
        host = next((st for st in ctx.b.stacks_in(u.province) if st.owner == p
                     and ctx.b.stack_color(st) == u.color and len(ctx.b.fighting_units(st)) < 5), None)
        if host:
            host.units.insert(0, lid)
            ctx.b.invalidate()
        else:
            ctx.new_stack(u.province, p, [lid])
    s.hand = {}
    ev = [Event("deployed", f"Forces deployed: {len(s.stacks)} stacks on the map", {"stacks": len(s.stacks)})]
    return ev + auxiliary.deploy(ctx)                       # the optional forces of 001
