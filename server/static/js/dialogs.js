// Dialogs: purge (with the Purge Table odds), assassination (with the chance), and the
// structured proposals posted to a chat channel (trade, Central Committee, Czar's execution, pact).
// The odds and chances are the engine's: asked with a `query` frame (app.ask) as the player
// changes the choices in the dialog.

import { h, modal, toast, replace, committeeOf, plural } from "./util.js";
import { unit, uname, leadersOf, SEAT_COLOURS, pct } from "./data.js";

export function seatBadge(seat) {
  return h("span.seat-badge", { dataset: { seat: seat || "" }, style: { background: SEAT_COLOURS[seat] || "#777" } }, seat || "·");
}

export function stackName(st) {
  if (!st) return "?";
  const leaders = leadersOf(st);
  const rest = st.units.filter((u) => !leaders.includes(u) && unit(u).kind !== "imperial");
  const imp = st.units.filter((u) => unit(u).kind === "imperial");
  const parts = leaders.map(uname);
  if (rest.length) parts.push(leaders.length ? `${rest.length} unit${rest.length > 1 ? "s" : ""}` : rest.map((u) => unit(u).label).join(", "));
  if (imp.length) parts.push(imp.map(uname).join(", "));
  return parts.join(" + ") || "empty stack";
}

/** The engine's purge odds (``Game.purge_odds`` as the server sends it: strength, column, the
 *  Purge Table row of each two-dice total with its ways out of 36, the chances). */
export function purgeOddsTable(odds) {
  return h("div.purge-odds", { dataset: { column: odds.column } },
    h("div.odds-big", `Strength ${odds.strength}`, h("span.odds-col", ` → column ${odds.column}`)),
    h("table.purge-table", h("thead", h("tr", h("th", "Roll"), odds.rows.map((r) => h("th", r.roll)))),
      h("tbody", h("tr", h("th", "Result"), odds.rows.map((r) => h("td." + (r.result === "C" ? "res-c" : Number(r.result) ? "res-n" : "res-0"),
        { title: `${r.ways}/36` }, r.result))))),
    h("p.small", `Expected ${odds.expected_points.toFixed(1)} purged points · nothing ${pct(odds.nothing)} · Counterpurge ${pct(odds.counterpurge)}`));
}

/** Fill ``el`` with ``draw(answer)`` once the engine answers ``q`` (at once if the page knows
 *  the answer for this position already); the latest call for an element wins. */
export function answerInto(app, el, q, args, draw) {
  const token = (el.dataset.asked = String(Number(el.dataset.asked || 0) + 1));
  const known = app.known ? app.known(q, args) : undefined;
  if (known !== undefined) {
    replace(el, draw(known));
    return;
  }
  if (!el.childNodes.length) el.append(h("span.small.asking", "…"));
  Promise.resolve(app.ask(q, args)).then((ans) => {
    if (el.dataset.asked === token) replace(el, draw(ans));
  }).catch((e) => {
    if (el.dataset.asked === token) replace(el, h("span.small.warn", e.message || String(e)));
  });
}

/** A warning in a dialog whose act against ``owner`` breaks this seat's pact with him (the pacts
 *  made in chat: the rules do not bind them, but a broken one is announced to its victim and
 *  bots remember). */
function pactWarning(app, owner, act) {
  const words = owner && app.chat ? app.chat.pactBreak(owner) : "";
  return words ? h("p.warn.pact-note", `${act} ${words}.`) : null;
}

// -- purge ------------------------------------------------------------------------------------------
export function openPurgeDialog(app, preset = {}) {
  const view = app.st.view;
  const seat = app.seat;
  const com = view.committee || [];
  const legal = (app.st.legal || []).filter((a) => a.t === "DeclarePurge");
  // (those this seat has a pact with last: the first is the one chosen until another is)
  const pact = (t) => (app.chat && app.chat.pactWith(t) ? 1 : 0);
  const targets = [...new Set(legal.map((a) => a.target))].sort((a, b) => pact(a) - pact(b));
  if (!targets.length) {
    toast("No purge can be declared now.", "info");
    return;
  }
  let target = preset.target && targets.includes(preset.target) ? preset.target : targets[0];
  let group = false;
  const body = h("div.purge-dialog");
  const dlg = modal("Purge (004 [11.0])", body, [
    { label: "Cancel" },
    { label: "Declare the purge", kind: "primary danger", dataset: { act: "declare-purge" }, onclick: () => submit() },
  ], { cls: "wide" });
  const order = () => {
    const o = (view.order && view.order.length ? view.order : view.seats);
    const at = (x) => (o.includes(x) ? o.indexOf(x) : o.length + view.seats.indexOf(x));   // (not drawn yet: after)
    return [...com].sort((a, b) => at(a) - at(b));
  };
  const answer = h("div.purge-answer");
  const refusal = h("div.purge-refusal");
  // (the engine lists the whole Committee's purge of a target only when it would take it: QA was
  // offered a Committee purge, odds and all, that it refused, a member having purged already)
  const groupOk = () => legal.some((a) => a.target === target && a.purgers.length > 1);
  const declare = () => dlg.el.querySelector('[data-act="declare-purge"]');
  const render = () => {
    const purgers = group ? order() : [seat];
    replace(body, 
      h("p", "A member of the Central Committee purges a player outside it: Purge Strength is the value of the purgers' Red leaders on the map plus their Politburo markers; two dice on the Purge Table give the points taken, or C - a counterpurge."),
      h("div.form-row", h("label", "Target "), h("div.seg", targets.map((t) => h("button" + (t === target ? ".on" : ""), {
        type: "button", dataset: { target: t }, onclick: () => { target = t; render(); } }, seatBadge(t), " ", app.seatName(t))))),
      com.length > 1 ? h("div.form-row", h("label", "Purgers "), h("div.seg",
        h("button" + (!group ? ".on" : ""), { type: "button", dataset: { purgers: "alone" }, onclick: () => { group = false; render(); } }, `${seat} alone`),
        h("button" + (group ? ".on" : ""), { type: "button", dataset: { purgers: "committee" }, onclick: () => { group = true; render(); } }, `the whole Committee (${order().join(", ")})`))) : null,
      pactWarning(app, target, `A purge of ${target}`),
      refusal,
      answer,
      group ? h("p.small", `A group purge is posted as a proposal to the other members; the spoils are divided as equally as possible in the order ${order().join(", ")} (004 [11.23]).`) : null,
    );
    const refused = group && !groupOk();
    if (declare()) declare().disabled = refused;
    if (refused) {
      answerInto(app, refusal, "why_illegal", { action: { t: "DeclarePurge", seat, target, purgers, shares: purgers } }, (why) =>
        h("p.warn", `The whole Committee may not purge ${target} now: ${why ? `${why.message} (${why.rule})` : "the game refuses it"}.`));
    } else {
      refusal.dataset.asked = String(Number(refusal.dataset.asked || 0) + 1);   // (an answer on its way is stale)
      replace(refusal);
    }
    answerInto(app, answer, "purge_odds", { purgers, target }, (odds) => [
      h("table.strength", h("tbody",
        odds.purgers.map((p) => h("tr", h("td", seatBadge(p.seat), " ", app.seatName(p.seat)), h("td.num", `Red leaders ${p.leaders}`),
          h("td", "+"), h("td.num", `Politburo ${view.politburo[p.seat] || 0}`), h("td", "="), h("td.num", h("b", p.strength)))))),
      purgeOddsTable(odds),
      h("p.small", `${target} has ${odds.spoils.length ? odds.spoils.map((u) => `${uname(u)} (${unit(u).strength})`).join(", ") : "no Red leaders on the map"}`
        + ` and ${plural(view.politburo[target] || 0, "Politburo marker")} (2 points each) to lose.`)]);
  };
  const submit = async () => {
    if (group && !groupOk()) return true;
    if (group) {
      const purgers = order();
      const ok = await app.chat.propose(purgers, { kind: "purge", target, purgers, shares: purgers }, `Purge ${target}?`);
      return ok ? undefined : true;
    }
    const a = legal.find((x) => x.target === target && x.purgers.length === 1);
    const ok = await app.act(a || { t: "DeclarePurge", seat, target, purgers: [seat], shares: [] });
    return ok ? undefined : true;
  };
  render();
  return dlg;
}

// -- assassination ------------------------------------------------------------------------------------
export function openAssassinDialog(app) {
  const view = app.st.view;
  const legal = (app.st.legal || []).filter((a) => a.t === "Assassinate");
  const where = (u) => (view.stacks.find((s) => s.units.includes(u)) || {});
  const own = (u) => where(u).owner === app.seat;
  // Enemy leaders first; your own last and marked: nothing is chosen until you choose (one click
  // on Strike must never kill your own man).
  const victims = [...new Set(legal.map((a) => a.victim))].sort((a, b) => own(a) - own(b));
  if (!victims.length) return;
  let victim = null;
  let markers = 1;
  const held = view.assassins[app.seat] || 0;
  const body = h("div.assassin-dialog");
  const chance = h("div.odds");
  let dlg = null;
  const render = () => {
    const max = victim === null ? 1 : Math.max(...legal.filter((a) => a.victim === victim).map((a) => a.markers));
    markers = Math.min(markers, max);
    replace(body,
      h("p", "Assassins strike a leader in a province where you have another leader: two dice, plus one for each marker after the first, minus the victim's value; 7 or more kills (004 [10.0]). Failed markers go to the victim's owner."),
      h("div.form-row", h("label", "Victim "), h("select", { "aria-label": "Victim", onchange: (e) => { victim = e.target.value ? Number(e.target.value) : null; render(); } },
        h("option", { value: "", selected: victim === null }, "— choose the victim —"),
        victims.map((u) => h("option", { value: u, selected: u === victim, dataset: { own: own(u) ? "1" : "0" } },
          `${own(u) ? "YOUR OWN " : ""}${uname(u)} (${unit(u).color} ${unit(u).strength}) in ${where(u).province} — ${own(u) ? "yours" : where(u).owner || "uncontrolled"}`)))),
      // (how many markers may go depends on the victim: no count before one is chosen)
      h("div.form-row.markers-row", h("label", "Markers "), victim === null
        ? h("span.small", `none yet: choose a victim first (you hold ${held} Assassin marker${held === 1 ? "" : "s"})`)
        : [h("input", { type: "number", min: 1, max, value: markers, "aria-label": "Markers",
          oninput: (e) => { markers = Math.max(1, Math.min(max, Number(e.target.value) || 1)); render(); } }), h("span.small", ` of ${max}`)]),
      victim !== null && own(victim) ? h("p.warn", "This is one of your own leaders.") : null,
      victim !== null && !own(victim) ? pactWarning(app, where(victim).owner, `Striking ${uname(victim)}`) : null,
      chance);
    if (victim === null) replace(chance, h("div.small", "Choose a victim to see the chance."));
    else answerInto(app, chance, "assassination", { victim, markers }, (r) => [
      h("div.odds-big", `Chance of success ${pct(r.chance)}`), h("div.small", `needs ${r.need}+ on two dice`)]);
    const strike = dlg && dlg.el.querySelector('[data-act="Assassinate"]');
    if (strike) strike.disabled = victim === null;
  };
  render();
  dlg = modal("Send assassins", body, [
    { label: "Cancel" },
    { label: "Strike", kind: "primary danger", disabled: true, dataset: { act: "Assassinate" }, onclick: async () => {
      const a = legal.find((x) => x.victim === victim && x.markers === markers);
      if (!a) return true;
      return (await app.act(a)) ? undefined : true;
    } },
  ]);
}

// -- proposals posted to chat ---------------------------------------------------------------------------
function counter(label, value, max, onchange, testid) {
  return h("label.num-field", label, " ", h("input", { type: "number", min: 0, max, value, dataset: { field: testid },
    oninput: (e) => {
      // (a negative count is none: the box says so, QA typed -1 and read "the offer trades nothing")
      if (Number(e.target.value) < 0) e.target.value = "0";
      onchange(Math.max(0, Number(e.target.value) || 0));
    } }));
}

export function openTradeDialog(app, preset = {}) {
  const view = app.st.view;
  const seat = app.seat;
  const others = view.seats.filter((p) => p !== seat && !(view.quit || []).includes(p));
  const o = { to: preset.to && others.includes(preset.to) ? preset.to : others[0], give_leaders: [], take_leaders: [],
              give_politburo: 0, give_assassins: 0, take_politburo: 0, take_assassins: 0 };
  const trading = view.phase === "trading";
  const body = h("div.trade-dialog");
  const leaderPicks = (who, key) => {
    const hand = ((view.hands || {})[who] || []);
    if (!trading || !hand.length) return null;
    return h("div.leader-picks", hand.map((u) => h("label.chip.unit-chip", { dataset: { color: unit(u).color } }, h("input", { type: "checkbox", checked: o[key].includes(u), dataset: { leader: u },
      onchange: (e) => { o[key] = e.target.checked ? [...o[key], u] : o[key].filter((x) => x !== u); } }), ` ${unit(u).name} ${unit(u).strength}`)));
  };
  const render = () => {
    replace(body, 
      h("p", trading ? "In the pre-game session leaders and markers may be traded (004 [15.33]); later only Politburo and Assassin markers." :
        "Politburo and Assassin markers may be traded at any time (004 [10.0], [11.0])."),
      h("div.form-row", h("label", "With "), h("div.seg", others.map((p) => h("button" + (p === o.to ? ".on" : ""), { type: "button", dataset: { to: p },
        onclick: () => { o.to = p; o.take_leaders = []; render(); } }, seatBadge(p), " ", app.seatName(p))))),
      h("div.trade-sides",
        h("fieldset", h("legend", `You give (you hold ${view.politburo[seat] || 0} PM, ${view.assassins[seat] || 0} AM)`),
          counter("Politburo", o.give_politburo, 99, (v) => { o.give_politburo = v; }, "give_politburo"),
          counter("Assassins", o.give_assassins, 99, (v) => { o.give_assassins = v; }, "give_assassins"),
          leaderPicks(seat, "give_leaders")),
        h("fieldset", h("legend", `You ask for (${o.to} holds ${view.politburo[o.to] || 0} PM, ${view.assassins[o.to] || 0} AM)`),
          counter("Politburo", o.take_politburo, 99, (v) => { o.take_politburo = v; }, "take_politburo"),
          counter("Assassins", o.take_assassins, 99, (v) => { o.take_assassins = v; }, "take_assassins"),
          leaderPicks(o.to, "take_leaders"))),
      view.postal
        // (postal [4.2]: no offer in the game; the trade is made if both sheets hold the matching orders)
        ? h("p.small.post-hint", `By post: the proposal is posted in your private channel and ${o.to} answers it there ` +
          `(a bot at once, writing its order on its sheet if it accepts). The trade is made in this phase's trades only if ` +
          `your sheet holds your side too: its card then offers to add it to your sheet.`)
        : h("p.small", "The offer is posted in your private channel; the other player answers it there (Accept / Decline)."));
  };
  render();
  modal("Propose a trade", body, [
    { label: "Cancel" },
    { label: "Post the offer", kind: "primary", dataset: { act: "post-trade" }, onclick: async () => {
      const prop = { kind: "trade", to: o.to };
      for (const k of ["give_leaders", "take_leaders"]) if (o[k].length) prop[k] = o[k];
      for (const k of ["give_politburo", "give_assassins", "take_politburo", "take_assassins"]) if (o[k]) prop[k] = o[k];
      return (await app.chat.propose([seat, o.to], prop, "")) ? undefined : true;
    } },
  ], { cls: "wide" });
}

export function openCommitteeDialog(app, preset = {}) {
  const view = app.st.view;
  const seat = app.seat;
  // (opened in a pair or group channel: its members ticked)
  const members = new Set([seat, ...(preset.members || []).filter((p) => view.seats.includes(p) && !(view.quit || []).includes(p))]);
  const body = h("div.committee-dialog");
  const need = (view.limits || {}).committee_markers;
  const render = () => {
    const pm = [...members].reduce((a, p) => a + (view.politburo[p] || 0), 0);
    replace(body, 
      h("p", `A Central Committee is a set of players who all consent to exactly each other's membership and together hold at least ${need} Politburo markers (004 [11.11]). Only its members purge, and none of them may be purged while a member, though a member may be counterpurged (004 [11.14]).`),
      h("div.member-picks", view.seats.filter((p) => !(view.quit || []).includes(p)).map((p) => h("label.chip",
        h("input", { type: "checkbox", checked: members.has(p), disabled: p === seat, dataset: { member: p },
          onchange: (e) => { if (e.target.checked) members.add(p); else members.delete(p); render(); } }),
        " ", seatBadge(p), ` ${app.seatName(p)} · ${view.politburo[p] || 0} PM`))),
      h("p", h("b", `${pm} Politburo markers`), pm >= need ? " — enough for a Committee." : ` — a Committee needs ${need}.`),
      botsDecline());
  };
  // the bots that would decline it now, and why, said before it is sent (QA: proposed in the
  // Randomizer Phase, every bot declined): the server asks the bots' policy (facts.committee_bots;
  // the SDT bots answer in the convener's Movement Phase alone; random bots, at random)
  const botsDecline = () => {
    const why = (app.st.facts || {}).committee_bots || {};
    const bots = [...members].filter((p) => p !== seat && why[p]);
    if (!bots.length) return null;
    const reasons = [...new Set(bots.map((p) => why[p]))];
    return h("p.small.bots-decline", { role: "note" }, `${bots.join(", ")} ${bots.length === 1 ? "is played by a bot" : "are played by bots"} ` +
      `and would decline it now: ${reasons.join("; ")}.`);
  };
  render();
  modal("Propose a Central Committee", body, [
    { label: "Cancel" },
    { label: "Propose", kind: "primary", dataset: { act: "post-committee" }, onclick: async () => {
      const ms = view.seats.filter((p) => members.has(p));
      return (await app.chat.propose(ms, { kind: "committee", members: ms }, `Central Committee of ${committeeOf(ms)}?`)) ? undefined : true;
    } },
  ]);
}

/** A pact (issue 18): no attack on each other's stacks, no purge, no assassination until the
 *  end of a Game-Turn.  Posted in the pair channel; the server keeps it once accepted, the
 *  engine is not bound by it. */
export function openPactDialog(app, preset = {}) {
  const view = app.st.view;
  const seat = app.seat;
  const others = view.seats.filter((p) => p !== seat && !(view.quit || []).includes(p));
  const o = { with: preset.to && others.includes(preset.to) ? preset.to : others[0], until: view.turn || 1 };
  const body = h("div.pact-dialog");
  const render = () => {
    replace(body,
      h("p", "A pact: no attack on each other's stacks, no purge and no assassination until the end of the Game-Turn you name. " +
        "The rules do not enforce it: a player may break it, and the break is announced to its victim; the bots keep theirs and remember a broken one."),
      h("div.form-row", h("label", "With "), h("div.seg", others.map((p) => h("button" + (p === o.with ? ".on" : ""), { type: "button", dataset: { with: p },
        onclick: () => { o.with = p; render(); } }, seatBadge(p), " ", app.seatName(p))))),
      h("div.form-row", h("label", { for: "pact-until" }, "Until the end of Game-Turn "),
        h("input#pact-until", { type: "number", min: view.turn || 1, value: o.until, dataset: { field: "until" },
          oninput: (e) => { o.until = Number(e.target.value) || 0; } })),
      h("p.small", `Now: Game-Turn ${view.turn || 1}. The proposal is posted in your private channel; the other player answers it there.`));
  };
  render();
  modal("Propose a pact", body, [
    { label: "Cancel" },
    // (the Game-Turn as typed: the server says why one is out of range, and the dialog stays; QA
    // saw "until 2" mended silently to this Game-Turn)
    { label: "Propose the pact", kind: "primary", dataset: { act: "post-pact" }, onclick: async () =>
      ((await app.chat.propose([seat, o.with], { kind: "pact", with: o.with, until: o.until }, "")) ? undefined : true) },
  ]);
}

export function openCzarDialog(app) {
  const view = app.st.view;
  const com = view.committee || [];
  const to = com.filter((p) => p !== app.seat);
  const body = (view.limits || {}).politburo === false
    ? h("div", h("p", "The Czar is executed by a coalition of players, his holder among them, who together control at least two thirds of the Red leadership on the map (004 Masses [13.52]). His holder is asked first, then the others who control Red leaders, in turn."))
    : h("div", h("p", `The Central Committee may order the player whose Red leader holds the Czar to execute him; members holding ${(view.limits || {}).execution_markers} Politburo markers must consent (004 [13.5]). The other members are asked in turn.`),
      h("p.small", `Committee: ${com.join(", ")}`));
  modal("Order the Czar's execution", body, [
    { label: "Cancel" },
    { label: "Give the order", kind: "primary danger", dataset: { act: "post-execution" }, onclick: async () => {
      if (to.length) return (await app.chat.propose(com, { kind: "execution", to }, "Execute the Czar?")) ? undefined : true;
      return (await app.act({ t: "OrderExecution", seat: app.seat, consent: true })) ? undefined : true;
    } },
  ]);
}
