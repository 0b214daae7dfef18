// The Orders panel: the seat's legal actions (sent by the server with every state) turned into
// step pickers the way a player thinks - pick a leader, attach units, click a destination; pick
// a target, add attackers, read the odds, resolve - plus every prompt that waits on this seat.
// Nothing here is offered unless the engine listed it, and the server is the judge: a refusal
// comes back as an error frame whose message and rule the page shows.  Every strength, odds
// and chance shown is the engine's too: the `facts` the server sends with each state
// (app.st.facts: attack options and odds, Purge Strengths; docs/protocol.md 3.1).

import { h, modal, tapWord, committeeOf, toast, plural, fmtLeft, membersKey } from "./util.js";
import {
  unit, uname, ulabel, pname, placeNames, shownStrength, pct, PHASE_NAMES, attachedTo, isLeader, stackOf,
} from "./data.js";
import { seatBadge, stackName, purgeOddsTable, openPurgeDialog, openAssassinDialog, openTradeDialog,
  openCommitteeDialog, openCzarDialog, answerInto } from "./dialogs.js";

const KIND_NAMES = {
  trading: "pre-game trading", random_events: "Random Events", movement: "Movement", force: "moving a force",
  combat: "Combat", attack: "an attack", randomizer: "the Randomizer", loss: "Exchange losses", capture: "a capture",
  vote: "the end-game vote", purge_approval: "approving a purge", purge_orders: "declaring purges", spoils: "purge spoils",
  counterpurge: "a counterpurge", execution_consent: "an execution order", execution: "the Czar's execution",
  redraw: "keep the marker or draw again", place: "placing a unit drawn", red_terror: "the Red Terror",
  leaders: "Red Leader Determination",
};
export function kindName(k) {
  return KIND_NAMES[k] || String(k).replace(/_/g, " ");
}

function groupBy(list, key) {
  const m = {};
  for (const x of list) (m[key(x)] ||= []).push(x);
  return m;
}

/** Build the panel.  Returns {el, marks} (marks: what the map should highlight). */
export function buildOrders(app) {
  const st = app.st;
  const view = st.view;
  const seat = app.seat;
  const legal = st.legal || [];
  const by = groupBy(legal, (a) => a.t);
  const marks = { moves: {}, targets: new Set(), attackers: new Set(), candidates: new Set(), duty: new Set(), path: null, force: null };
  const el = h("div.orders-body");
  const btn = (label, action, opts = {}) => {
    const b = h("button.btn" + (opts.cls ? "." + opts.cls.trim().split(/\s+/).join(".") : ""), {
      type: "button", disabled: app.busy, title: opts.title || "",
      dataset: { act: action.t, ...(opts.data || {}) },
      onclick: opts.onclick || (() => app.act(action)),
    }, label);
    return b;
  };
  const card = (title, ...body) => h("section.card", h("h3", title), ...body);

  if (app.lastError) {
    el.append(h("div.refusal", { role: "alert" },
      h("strong", "Refused: "), app.lastError.message,
      app.lastError.rule ? h("span.rule", ` (${app.lastError.rule})`) : null,
      h("button.link", { type: "button", onclick: () => { app.lastError = null; app.render(); } }, "dismiss")));
  }

  // -- before the start, after the end, spectators ------------------------------------------------
  if (st.status === "open") {
    el.append(waitingForPlayers(app));
    return { el, marks };
  }
  if (st.status === "over" || view.phase === "over") {
    el.append(gameOver(app));
    return { el, marks };
  }
  if (!seat) {
    el.append(card("Watching", h("p", "You are watching this game. Everything on the map and the Victory Point Chart is open information (004 [8.29]): click any stack to inspect it."),
      pendingLine(app)));
    return { el, marks };
  }

  const mine = (st.pending || []).some((p) => p.seat === seat);
  const d = view.decision;

  // -- decisions that suspend play ------------------------------------------------------------------
  if (d && d.seat === seat) {
    el.append(decisionCard(app, d, by, btn, marks));
  } else if (view.phase === "trading") {
    el.append(tradingCard(app, by, btn));
  } else if (view.phasing === seat && !d) {
    el.append(phaseCard(app, by, btn, marks));
  } else {
    el.append(h("section.card.waiting", pendingLine(app)));
  }

  // -- the SPI solitaire: how Red wins or loses, and the non-Red forces on their way ------------------
  const goal = soloGoal(app);
  if (goal) el.append(goal);

  // -- offers, politics, proposals: any time -------------------------------------------------------
  const offers = offersCard(app, by, btn);
  if (offers) el.append(offers);
  const pol = politicsCard(app, by, btn);
  if (pol) el.append(pol);
  void mine;
  return { el, marks };
}

export function pendingLine(app) {
  const st = app.st;
  const p = st.pending || [];
  if (!p.length) return h("p.pending-line", "Nobody is to act.");
  // a bot waits (a while) for this seat's answer to its Committee invitation: say so (QA: the
  // line said only "Waiting for Bot E (Movement)", the invitation further down)
  let members = null;
  const asks = p.find((x) => ((st.seats || {})[x.seat] || {}).kind === "bot" && (members = invitedBy(app, x.seat)));
  return h("p.pending-line", "Waiting for ",
    p.map((x, i) => [i ? ", " : "", seatBadge(x.seat), " ", app.seatName(x.seat), ` (${kindName(x.kind)})`]),
    h("span.dots", "…"),
    asks ? h("span.asks", ` ${app.seatName(asks.seat)} waits for your answer to its Central Committee invitation `,
      h("button.link", { type: "button", dataset: { act: "goto-invitation" }, onclick: () => showInvitation(asks.seat) }, "(Politics, below)"),
      waitLeft(app, asks.seat, members), ".") : null);
}

/** How long the bot `p` still waits for this seat's answer to its invitation to a Committee of
 *  `members` (the server's --bot-wait, `limits.bot_wait`, from its card's posting): a countdown,
 *  or nothing when the server sets no wait, the page has no card of it, or this seat answered it. */
function waitLeft(app, p, members) {
  const card = app.botWait && app.chat && app.chat.committeeCard ? app.chat.committeeCard(p, members) : null;
  if (!card || card.answer !== undefined || !card.ts) return null;
  const due = card.ts + app.botWait * 1000;
  return due > Date.now() ? [" (", h("span.countdown.bot-wait", { dataset: { at: String(due) }, title: "then it goes on without your answer" },
    fmtLeft(due - Date.now())), ", then it goes on without you)"] : null;
}

/** Bring the Politics card's invitation from `p` into view (the Orders panel scrolls to it) and
 *  flash it (QA: below the trade offers, its Join and Decline were out of sight). */
function showInvitation(p) {
  const el = document.querySelector(`.orders .invitation[data-seat="${p}"]`) || document.querySelector(".orders .invitation");
  if (!el) return;
  el.scrollIntoView({ block: "nearest", behavior: "smooth" });
  el.classList.remove("flash");
  void el.offsetWidth;
  el.classList.add("flash");
}

/** The members of the Central Committee seat `p` invites this seat to (its consent names this
 *  seat, which consents to another or none, and that Committee does not sit), or null. */
function invitedBy(app, p) {
  const view = app.st.view || {};
  const seat = app.seat;
  const members = (view.committee_consent || {})[p];
  if (!seat || p === seat || !members || !members.includes(seat)) return null;
  const mine = (view.committee_consent || {})[seat];
  return (mine && membersKey(mine) === membersKey(members)) || membersKey(members) === membersKey(view.committee || []) ? null : members;
}

// ==================================================================================================
export function waitingForPlayers(app) {
  const st = app.st;
  const open = Object.entries(st.seats || {}).filter(([, r]) => r.kind === "open").map(([s]) => s);
  const link = `${location.origin}/#/g/${app.gid}`;
  const body = [
    h("p", `The game begins when every seat is filled. Open: ${open.join(", ") || "none"}.`),
    h("div.share", h("input.share-link", { value: link, readonly: true, "aria-label": "Join link", onclick: (e) => e.target.select() }),
      h("button.btn", { type: "button", dataset: { act: "copy-link" }, onclick: (e) => copyLink(e.target.previousElementSibling) }, "Copy link")),
  ];
  if (app.adminToken) {
    body.push(h("p.hint", "As the game's creator you may seat bots in the open places:"),
      h("button.btn.primary", { type: "button", dataset: { act: "fill-bots" }, onclick: () => app.fillBots() }, "Fill open seats with bots"));
  }
  if (!app.seat && open.length) body.push(app.joinForm(open));
  return h("section.card", h("h3", "Waiting for players"), ...body);
}

/** Copy the join link in `input`, and say so (QA: the button gave no sign; on a plain-http
 *  server, not a secure context, the clipboard API is missing and it did nothing): the
 *  clipboard API, else the selection copied the old way, else the link left selected to copy. */
async function copyLink(input) {
  const done = "Link copied: send it to the players you invite.";
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(input.value);
      toast(done, "ok");
      return;
    }
  } catch (e) { /* (refused: the old way below) */ }
  input.focus();
  input.select();
  let ok = false;
  try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
  toast(ok ? done : "The link is selected: copy it (Ctrl+C, or touch and hold on a phone).", ok ? "ok" : "info");
}

/** The players the engine's result names winners: one, or those who share the win (tied with
 *  the most Victory Points; 004 [14.0] is silent on a tie), or none. */
export function winnersOf(r) {
  return r.winners || (r.winner ? [r.winner] : []);
}

/** "Anna (A) wins" or "Anna (A) and Boris (B) share the win". */
export function winnersLine(app, r) {
  const ws = winnersOf(r);
  if (!ws.length) return "No one wins";
  const who = ws.map((p) => `${app.seatName(p)} (${p})`);
  return ws.length > 1 ? `${who.slice(0, -1).join(", ")} and ${who[who.length - 1]} share the win` : `${who[0]} wins`;
}

/** The final scoreboard (004 [14.0]): every player's Red and White Victory Points as the engine
 * counts them (`view.scores`), the winning colour, the ranking by it (the engine's `result`). */
export function scoreboard(app) {
  const v = app.st.view;
  const r = app.st.result || v.result || {};
  const { Red: red = {}, White: white = {} } = v.scores || {};
  const col = r.winner_color || null;
  const ranking = (r.ranking && r.ranking.length ? r.ranking : []).concat(v.seats.filter((p) => !(r.ranking || []).includes(p)));
  const rank = (p) => ((r.ranking || []).indexOf(p) + 1) || "";
  const cell = (c, p) => h("td.num" + (col === c ? ".win-col" : ""), String((c === "Red" ? red : white)[p] ?? 0));
  return h("table.scores.final", { dataset: { winnerColor: col || "" } },
    h("thead", h("tr", col ? h("th", { scope: "col" }, "Rank") : null, h("th", { scope: "col" }, "Player"),
      h("th.num" + (col === "Red" ? ".win-col" : ""), { scope: "col" }, "Red VP"),
      h("th.num" + (col === "White" ? ".win-col" : ""), { scope: "col" }, "White VP"))),
    h("tbody", ranking.map((p) => h("tr" + (winnersOf(r).includes(p) ? ".winner" : ""), { dataset: { seat: p } },
      col ? h("td", String(rank(p))) : null, h("td", seatBadge(p), " ", app.seatName(p), (v.quit || []).includes(p) ? h("span.small", " (left)") : null),
      cell("Red", p), cell("White", p)))));
}

/** How the game ended, as the engine's result says it: {title, body} (the Orders panel's card and
 *  the modal shown when it ends).  The multi-player game: the winning colour, the scoreboard and
 *  the winner by Victory Points (004 [14.0]); the SPI solitaire: its victory level (004 [28.1]),
 *  which Victory Points do not decide. */
export function finalSummary(app) {
  const r = app.st.result || app.st.view.result || {};
  const title = r.title || (r.winner_color ? `${r.winner_color} Victory` : "The game is over");
  const body = [h("p", r.reason || "")];
  if (r.mode === "spi-solitaire") {
    body.push(r.winner ? h("p", h("strong", winnersLine(app, r)), `: ${r.title} on Game-Turn ${r.turn}.`)
      : h("p", "No side has won."));
  } else {
    const ws = winnersOf(r);
    body.push(scoreboard(app),
      ws.length ? h("p", h("strong", winnersLine(app, r)), ws.length > 1
        ? `, tied with the most ${r.winner_color} Victory Points (${(r.scores || {})[ws[0]] ?? 0} each).`
        : ` with the most ${r.winner_color} Victory Points.`)
        : h("p", "No side has won."));
  }
  return { title, body };
}

function gameOver(app) {
  const { title, body } = finalSummary(app);
  return h("section.card.over", h("h3", title), ...body,
    h("button.btn.primary", { type: "button", dataset: { act: "replay" }, onclick: () => app.openReplay() }, "Replay the game"));
}

// ==================================================================================================
function tradingCard(app, by, btn) {
  const view = app.st.view;
  const seat = app.seat;
  const hand = (view.hands || {})[seat] || [];
  const ready = view.ready || [];
  return h("section.card",
    h("h3", "Pre-game trading (004 [15.33])"),
    h("p", "You were dealt these leaders, face up (the map shows every leader faded where he will deploy). Trade leaders and markers with the other players, then agree to end the session; the forces deploy when everyone has agreed."),
    h("div.hand", hand.map((u) => h("span.chip.unit-chip", { dataset: { color: unit(u).color } }, `${unit(u).name} ${unit(u).strength}`))),
    h("p.small", `Politburo ${view.politburo[seat] || 0} · Assassins ${view.assassins[seat] || 0} · Ready: ${ready.join(", ") || "nobody yet"}`),
    h("div.row",
      by.EndTrading ? btn("Ready: end trading", by.EndTrading[0], { cls: "primary" }) : h("span.small", "You have agreed to end trading; waiting for the others."),
      h("button.btn", { type: "button", dataset: { act: "propose-trade" }, onclick: () => openTradeDialog(app) }, "Propose a trade…")));
}

// ==================================================================================================
function phaseCard(app, by, btn, marks) {
  const view = app.st.view;
  const ph = view.phase;
  const parts = [];
  if (ph === "random_events") {
    parts.push(h("h3", "Random Events"),
      h("p", "Roll the die twice on the Random Events Table, for its row and its column: an epidemic, Subversive Attacks doubled, or a draw from the Randomizer (004 [12.0])."),
      by.RollRandomEvents ? btn("Roll for Random Events", by.RollRandomEvents[0], { cls: "primary" }) : null);
  } else if (ph === "movement") {
    parts.push(...(view.force ? forcePicker(app, by, btn, marks) : movementPicker(app, by, btn, marks)));
  } else if (ph === "combat") {
    parts.push(...(view.attack ? attackPicker(app, by, btn, marks) : combatPicker(app, by, btn, marks)));
  } else if (ph === "randomizer") {
    const drawn = !by.DrawRandomizer && by.EndPlayerTurn;     // (the draw made: the turn stays open for assassinations)
    parts.push(h("h3", "Randomizer Phase"),
      drawn ? h("p", "You have drawn from the Auxiliary Forces Randomizer. You may still send assassins (004 [10.0]) before you end your Player-Turn.")
        : h("p", `Draw one chit from the Auxiliary Forces Randomizer (${view.randomizer} in the cup): an Assassin marker, a Blue or Green control marker, a Blue withdrawal (004 [12.13]).`),
      by.DrawRandomizer && by.EndPlayerTurn
        ? h("p.small", "Your forces alone hold a city: you may draw again, or end your Player-Turn (001 Additional Randomizer Draws).") : null,
      by.DrawRandomizer ? btn("Draw from the Randomizer", by.DrawRandomizer[0], { cls: "primary" }) : null,
      by.EndPlayerTurn ? btn("End your Player-Turn", by.EndPlayerTurn[0], { cls: "primary" }) : null);
  } else if (ph === "leaders") {
    parts.push(...leaderPicker(app, by, btn, marks));
  } else {
    parts.push(h("h3", PHASE_NAMES[ph] || ph), pendingLine(app));
  }
  if (by.Assassinate && !view.force && !view.attack) {
    parts.push(h("div.row.extra", h("button.btn", { type: "button", dataset: { act: "assassinate" }, onclick: () => openAssassinDialog(app) },
      "Send assassins…"), h("span.small", plural(view.assassins[app.seat] || 0, "Assassin marker"))));
  }
  return h("section.card.phase", ...parts);
}

/** The SPI solitaire's Red Leader Determination Phase (004 [24.0]): pick one of the leaders the
 *  engine lists (its DeployLeader actions), then where he goes - on top of a Red stack holding a
 *  Red combat unit, or alone in a province (004 [24.11]); as many as the die allows. */
function leaderPicker(app, by, btn, marks) {
  const view = app.st.view;
  const rld = (view.solitaire || {}).leaders || {};
  const deploys = by.DeployLeader || [];
  const byLeader = groupBy(deploys, (a) => a.leader);
  const left = Math.max(0, (rld.allowed || 0) - (rld.deployed || []).length);
  const out = [h("h3", "Red Leader Determination (004 [24.0])"),
    h("p", `The die (${rld.die ?? "?"}) allows ${plural(rld.allowed ?? 0, "Red leader")} this Game-Turn; ${left} more may be deployed. `
      + "A leader goes on top of a Red stack holding a Red combat unit, or alone in a province holding no non-Red unit (004 [24.11]).",
      // (the engine's word on what becomes of them: QA, they left the map again, unexplained)
      view.solitaire.leaders_note ? h("span.small", ` ${view.solitaire.leaders_note}`) : null)];
  if (!(app.pickedLeader in byLeader)) app.pickedLeader = null;
  const list = h("div.pick-list");
  for (const lead of Object.keys(byLeader)) {
    const u = unit(lead);
    list.append(h("button.pick" + (String(app.pickedLeader) === lead ? ".selected" : ""), {
      type: "button", disabled: app.busy, dataset: { act: "pick-leader", unit: lead }, "aria-pressed": String(String(app.pickedLeader) === lead),
      onclick: () => {
        app.pickedLeader = lead;
        app.render();
        // (where he may go, in view and with the focus: QA found it below all the leaders, out of
        // the panel's sight, and the keyboard's focus lost on the page's body)
        const first = document.querySelector(".orders .deploy-to .dest");
        if (first) {
          first.closest(".deploy-to").scrollIntoView({ block: "nearest" });
          first.focus({ preventScroll: true });
        }
      } }, h("span.pick-main", `${u.name} (${u.strength})`)));
  }
  const chosen = app.pickedLeader ? byLeader[app.pickedLeader] : null;
  if (chosen) {
    const stacks = stacksById(view);
    const dest = h("div.dest-list");
    for (const a of chosen) {
      const st = a.stack ? stacks[a.stack] : null;
      if (st) marks.candidates.add(st.id);
      dest.append(h("button.dest", { type: "button", disabled: app.busy, title: pname(a.province),
        dataset: { act: "DeployLeader", leader: a.leader, stack: a.stack, province: a.province },
        onclick: () => { app.pickedLeader = null; app.act(a); } },
      st ? `${a.province}: on ${stackName(st)}` : `${a.province}: alone`));
    }
    out.push(h("div.sub.deploy-to", h("h4", `Deploy ${uname(app.pickedLeader)}`), dest));   // (above the leaders: in sight)
  }
  out.push(deploys.length ? list : h("p.small", "No Red leader can be deployed now."));
  if (by.EndLeaderDeployment) {
    out.push(h("div.row.end", btn(left ? "Deploy no more leaders" : "End Leader Determination", by.EndLeaderDeployment[0], { cls: "primary" })));
  }
  return out;
}

function stacksById(view) {
  return Object.fromEntries(view.stacks.map((s) => [s.id, s]));
}

function movementPicker(app, by, btn, marks) {
  const view = app.st.view;
  const starts = by.StartForce || [];
  const rows = groupBy(starts, (a) => (stackOf(view, a.unit) || {}).province || "?");
  const out = [h("h3", "Movement — choose a force")];
  // (why there is no End button, first: 001 No Leader Suicide 3's duties, from the engine)
  if (!by.EndMovement && (view.options || {}).no_leader_suicide) out.push(stackingDuties(app, marks));
  out.push(h("p.small", "Pick a leader (with the units attached to him) or a Blue/Green force, then click where it goes. Forces move one at a time."));
  const list = h("div.pick-list");
  for (const prov of Object.keys(rows).sort()) {
    for (const a of rows[prov]) {
      const stk = stackOf(view, a.unit);
      if (stk) marks.candidates.add(stk.id);
      const u = unit(a.unit);
      let desc;
      if (u.kind === "leader") {
        const att = stk ? stk.units.filter((x) => attachedTo(stk, x) === a.unit) : [];
        desc = `${u.name} (${u.strength})` + (att.length ? ` + ${att.map(uname).join(", ")}` : "");
      } else {
        const grp = stk ? stk.units.filter((x) => !isLeader(x)) : [a.unit];
        desc = `${u.color} force: ${grp.map(ulabel).join(", ")}`;
      }
      list.append(h("button.pick", { type: "button", disabled: app.busy, dataset: { act: "StartForce", unit: a.unit, province: prov },
        onclick: () => app.act(a) }, h("span.pick-prov", prov), h("span.pick-main", desc)));
    }
  }
  out.push(starts.length ? list : h("p.small", "No force of yours can move now."));
  const other = [];
  for (const a of by.Merge || []) {
    const s1 = stacksById(view)[a.stack];
    const s2 = stacksById(view)[a.into];
    if (s1 && s2) other.push(btn(`Stack ${stackName(s1)} with ${stackName(s2)} (${s1.province})`, a));
  }
  for (const a of by.TransferImperial || []) {
    const to = stacksById(view)[a.to_stack];
    other.push(btn(`Transfer the ${uname(a.unit)} to ${a.leader ? uname(a.leader) : stackName(to)} in ${to ? to.province : "?"}`, a));
  }
  for (const a of by.Emigrate || []) other.push(btn(`The ${uname(a.unit)} emigrates (leaves Russia)`, a));
  for (const a of by.CzechExit || []) other.push(btn(`${ulabel(a.unit)} leaves from Vladivostok`, a));
  for (const a of by.Evacuate || []) other.push(btn(`Evacuate ${uname(a.unit)} (out of the game: the critic's evacuation)`, a));
  if (other.length) out.push(h("details.other", h("summary", `Other orders (${other.length})`), h("div.stack-col", other)));
  if (by.EndMovement) out.push(h("div.row.end", btn("End Movement Phase", by.EndMovement[0], { cls: "primary" })));
  return out;
}

/** Why the Movement Phase may not end yet (001 No Leader Suicide 3): the engine's list of the
 *  seat's leaders alone to be stacked with the nearest friendly units first (`leaders_to_stack`),
 *  their stacks marked on the map (`marks.duty`; the map is drawn again when the answer comes). */
function stackingDuties(app, marks) {
  const el = h("div.duties");
  const args = { seat: app.seat };
  const known = app.known ? app.known("leaders_to_stack", args) : undefined;
  if (known) for (const d of known) marks.duty.add(d.stack);
  else if (app.ask) app.ask("leaders_to_stack", args).then((ds) => { if (ds.length) app.renderSoon(); }, () => {});
  const line = (d) => {
    const who = d.force ? `${uname(d.leader)}, moving without troops (now in ${pname(d.province)})` : `${uname(d.leader)} (without troops in ${pname(d.province)})`;
    if (d.do === "merge") return h("li", `${who}: stack him with your units there (Other orders: Stack …)`);
    if (d.do === "attach") {
      return h("li", `${who}: pick up one of the loose units there — ${d.units.map(ulabel).join(", ")}` +
        (d.force ? "" : " (choose him as a force, then Pick up)"));
    }
    const take = Object.entries(d.take || {}).filter(([, us]) => us.length);
    return h("li", `${who}: ${d.force ? "continue" : "move him"} to the nearest friendly units he can reach — ${d.to.map(pname).join(", ")}` +
      (take.length ? `; where only loose units stand, pick one up (${take.map(([p, us]) => `${pname(p)}: ${us.map(ulabel).join(", ")}`).join("; ")})` : ""));
  };
  answerInto(app, el, "leaders_to_stack", args, (ds) => (ds.length
    ? [h("p.small", "Before the Movement Phase ends (optional rule No Leader Suicide: a leader without troops must join the nearest friendly units he can reach, even other leaders):"),
      h("ul.duty-list", ds.map(line))]
    : h("p.small", "The Movement Phase cannot end yet.")));
  return el;
}

function forcePicker(app, by, btn, marks) {
  const view = app.st.view;
  const [stackId, start, mode, mp, path] = view.force;
  const stop = ((app.st.facts || {}).force || {}).stop || null;     // the engine's (facts.force: 004 [5.27])
  const fs = stacksById(view)[stackId];
  marks.force = stackId;
  marks.path = [start, ...(path || [])];
  const out = [];
  const ma = ((app.st.facts || {}).force || {}).allowance ?? "?";   // the engine's (facts.force)
  const moves = by.Move || [];
  // rail only where the engine lists a move by rail (QA: "or rail" was said of Blue and Green forces, 004 [5.51])
  const free = moves.some((a) => a.rail) ? `${ma} MP, or rail` : `${ma} MP`;
  out.push(h("h3", `Moving: ${fs ? stackName(fs) : "force"}`));
  out.push(h("p.force-info",
    h("span", `From ${start}`), " · ",
    h("span", mode === "rail" ? "by rail" : mode === "overland" ? `${mp} of ${ma} MP (overland)` : free), " · ",
    h("span", `now in ${fs ? fs.province : "?"} ${fs ? pname(fs.province) : ""}`),
    stop && stop.rule === "004 [5.27]" ? h("span.warn", ` · must stop here (${stop.rule})`) : null));
  if (fs) out.push(forceUnits(app, fs, by));
  for (const a of moves) {
    const m = (marks.moves[a.to] ||= { rail: null, land: null });
    if (a.rail) m.rail = a;
    else m.land = a;
  }
  if (moves.length) {
    // (the thin dashed rings too: QA read a farther overland one as rail)
    out.push(h("p.legend-moves", h("span.nowrap", h("span.key.key-land"), " overland (1 MP)"),
      moves.some((a) => a.rail) ? h("span.nowrap", h("span.key.key-rail"), " by rail") : null,
      h("span.nowrap", h("span.key.key-reach"), " farther overland"),
      moves.some((a) => a.rail) ? h("span.nowrap", h("span.key.key-reach-rail"), " farther by rail") : null,
      h("span", `— ${tapWord()} a ringed province on the map, or:`)));
    const list = h("div.dest-list");
    for (const code of Object.keys(marks.moves).sort()) {
      const m = marks.moves[code];
      for (const a of [m.land, m.rail]) {
        if (!a) continue;
        list.append(h("button.dest" + (a.rail ? ".rail" : ".land"), { type: "button", disabled: app.busy,
          dataset: { act: "Move", to: code, rail: a.rail ? "1" : "0" }, title: `${pname(code)}${a.rail ? " by rail" : " overland"}`,
          onclick: () => app.act(a) }, a.rail ? [code, h("span.via", " rail")] : code));
      }
    }
    out.push(list);
  } else {
    // (why, where the view says: QA found the bare line, the reason only in the log)
    out.push(h("p.small.no-move", stop ? `No further move: ${placeNames(stop.message)} (${stop.rule}). Halt it here.`
      : "No further move is open to this force now. Halt it here."));
  }
  const pick = [];
  for (const a of by.JoinForce || []) pick.push(btn(`${uname(a.leader)} joins the force`, a, { data: { unit: a.leader } }));
  for (const a of by.Attach || []) {
    pick.push(btn(`Pick up ${ulabel(a.unit)}${a.leader ? ` → ${uname(a.leader)}` : ""}`, a, { data: { unit: a.unit } }));
  }
  if (pick.length) out.push(h("div.sub", h("h4", "Pick up here"), h("div.stack-col", pick)));
  const ends = [];
  if (by.EndForce) ends.push(btn("Halt here", by.EndForce[0], { cls: "primary", title: "End this force's move" }));
  if (by.EndMovement) ends.push(btn("End Movement Phase", by.EndMovement[0]));
  out.push(h("div.row.end", ends));
  if ((!by.EndForce || !by.EndMovement) && (view.options || {}).no_leader_suicide) out.push(stackingDuties(app, marks));   // (why it may not halt, or end the phase)
  for (const a of by.Emigrate || []) out.push(btn(`The ${uname(a.unit)} emigrates from ${fs ? fs.province : ""}`, a));
  return out;
}

function forceUnits(app, fs, by) {
  const detach = Object.fromEntries((by.Detach || []).map((a) => [a.unit, a]));
  const rows = fs.units.map((u) => {
    const lead = attachedTo(fs, u);
    return h("li", { dataset: { unit: u } },
      h("span.unit-dot", { dataset: { color: unit(u).kind === "imperial" ? "" : unit(u).color } }),
      h("span", ulabel(u)), lead ? h("span.small", ` → ${uname(lead)}`) : null,
      detach[u] ? h("button.link", { type: "button", disabled: app.busy, dataset: { act: "Detach", unit: u }, onclick: () => app.act(detach[u]) }, "drop") : null);
  });
  return h("ul.force-units", rows);
}

// -- combat --------------------------------------------------------------------------------------------
function facts(app) {
  return app.st.facts || {};
}

/** The engine's option for one DeclareAttack: the groups of the seat's stacks that may make the
 *  attack together (stacks of opposing colours never do, 004 [8.22]) and each group's odds. */
function optionFor(app, a) {
  return (facts(app).attack_options || []).find((o) => o.target === a.target && !!o.subversive === !!a.subversive);
}

/** Whether the engine says no group of stacks may make this attack at 1:2 or better (its
 *  option's `possible` false): no attack may be made at less than 1:2 (004 [8.47]), so,
 *  declared, it could only be called off. */
export function belowLowestOdds(app, a) {
  return (optionFor(app, a) || {}).possible === false;
}

/** A warning on an attack at a stack of a seat this one has a pact with (the pacts made in chat:
 *  the rules do not bind them, but a broken one is announced to its victim and bots remember). */
export function pactNote(app, owner) {
  const words = app.chat ? app.chat.pactBreak(owner) : "";
  return words ? h("span.small.warn.pact-note", ` · ${words}`) : null;
}

/** Declare the attack ``a`` and, when the engine names one group of the seat's stacks that may
 *  make it, add them at once (QA: a declared attack started with no attacker, "0 : 2, below
 *  1:2", which a newcomer read as a refusal); with several groups the player picks. */
export async function declareWith(app, a) {
  const groups = (optionFor(app, a) || {}).groups || [];
  if (!(await app.act(a)) || groups.length !== 1) return;
  for (const stack of groups[0].stacks) {
    if (!(await app.act({ t: "AddAttacker", seat: app.seat, stack }))) return;
  }
}

function combatPicker(app, by, btn, marks) {
  const view = app.st.view;
  const out = [h("h3", "Combat — choose a target")];
  const decl = by.DeclareAttack || [];
  const sById = stacksById(view);
  if (!decl.length) out.push(h("p.small", "None of your stacks can attack now."));
  const list = h("div.pick-list");
  let split = false;
  for (const a of decl) {
    const t = sById[a.target];
    if (!t) continue;
    // an attack the engine's odds put below 1:2 whoever joins it is shown, not offered
    const below = belowLowestOdds(app, a);
    if (!below) marks.targets.add(t.id);
    const groups = (optionFor(app, a) || {}).groups || [];
    if (groups.length > 1) split = true;
    const dfn = groups.length ? groups[0].odds.defense : shownStrength(facts(app).strengths, t);
    const names = (g) => g.stacks.map((x) => (sById[x] ? stackName(sById[x]) : x)).join(" + ");
    list.append(h("button.pick" + (a.subversive ? ".subversive" : "") + (below ? ".below" : ""), { type: "button", disabled: app.busy || below,
      dataset: { act: "DeclareAttack", target: t.id, province: t.province, subversive: a.subversive ? "1" : "0",
        odds: groups.map((g) => g.odds.label).join(" "), below: below ? "1" : "0" }, onclick: () => declareWith(app, a) },
      h("span.pick-prov", t.province),
      h("span.pick-main", `${a.subversive ? "Subversive attack on " : "Attack "}${stackName(t)}`,
        h("span.small", ` — ${t.color || "?"}${t.owner ? ", " + t.owner : ", uncontrolled"}, strength ${dfn ?? "?"}`),
        groups.length ? h("span.small.groups", " · with ", groups.map((g, i) => [i ? " or " : "",
          h("span.group", { dataset: { stacks: g.stacks.join(","), odds: g.odds.label } }, `${names(g)}: ${g.odds.attack} → ${g.odds.label}`)]))
          : null,
        below ? h("span.small.warn.below-note", " · whoever joins, no attack may be made at less than 1:2 (004 [8.47])") : null,
        // (QA: a newcomer was surprised to be offered his own stack: the rules allow it, and why)
        t.owner === app.seat ? h("span.small.own-note", " · your own stack: opposed colours fight even under one player, and "
          + "what falls goes to your own section of the Victory Point Chart (004 [8.0], [8.11], [8.45])") : null,
        pactNote(app, t.owner))));
  }
  if (decl.length) out.push(list);
  if (split) out.push(h("p.small", "Stacks of opposing colours may not attack together (004 [8.22]): each group makes its own attack."));
  if (view.subversion_doubled) out.push(h("p.small.warn", "Subversive Attacks are doubled this Player-Turn (004 [12.12])."));
  if (by.EndCombat) {
    // the SPI solitaire: Red's Combat Phase is his last chance this Game-Turn to clear Petrograd
    // and Tver (004 [28.13]); ending it with non-Red units there is asked first
    const danger = soloDanger(view);
    if (danger) out.push(h("p.solo-danger", { role: "alert" }, danger));
    const ask = () => modal("End the Combat Phase?", h("p", danger), [
      { label: "Go on attacking" },
      { label: "End it", kind: "primary danger", dataset: { act: "confirm-end-combat" }, onclick: () => { app.act(by.EndCombat[0]); } }]);
    out.push(h("div.row.end", btn("End Combat Phase", by.EndCombat[0], { cls: "primary", onclick: danger ? ask : null })));
  }
  return out;
}

/** The SPI solitaire's goal in the Orders panel (QA: a newcomer saw only "Roll for Random Events"
 *  and lost on Game-Turn 2 to a force he never saw coming): the engine's victory conditions and
 *  the non-Red stacks nearest to Petrograd and Tver by their routes (the engine's
 *  ``solitaire.routes``: every non-Red stack marches on one of them), open on Game-Turn 1. */
function soloGoal(app) {
  const view = app.st.view;
  const so = view.solitaire;
  if (!so || view.phase === "over") return null;
  const stacks = stacksById(view);
  const targets = new Set(so.targets || []);
  const coming = Object.entries(so.routes || {})
    .filter(([sid, r]) => targets.has(r.target) && stacks[sid] && (r.ahead || []).length)    // (off its route or there: none ahead)
    .map(([sid, r]) => [stacks[sid], r])
    .sort((a, b) => a[1].ahead.length - b[1].ahead.length || a[0].id - b[0].id);
  const names = [...targets].map(pname).join(" and ");
  return h("details.card.solo-goal", { open: view.turn === 1 },
    h("summary", `How you win or lose · the non-Red forces nearest ${names}`),
    (so.victory || []).map((t) => h("p.small", t)),
    coming.length ? [h("p.small", `${plural(coming.length, "non-Red stack")} march on ${names}; the nearest:`),
      h("ul.solo-coming", coming.slice(0, 3).map(([st, r]) => h("li", { dataset: { stack: st.id, target: r.target } },
        `${stackName(st)} in ${pname(st.province)}: ${plural(r.ahead.length, "province")} from ${pname(r.target)} by its route`)))]
      : null);
}

/** The SPI solitaire: the warning while non-Red units stand in Petrograd or Tver (the engine's
 *  ``solitaire.in_targets``), or null: if they are there at the end of the Game-Turn, the
 *  non-Red Player wins (004 [28.13]). */
export function soloDanger(view) {
  const held = Object.entries((view.solitaire && view.solitaire.in_targets) || {});
  if (!held.length) return null;
  return `⚠ Non-Red units in ${held.map(([p, us]) => `${pname(p)} (${us.length})`).join(", ")}: `
    + "if they are still there at the end of this Game-Turn, the non-Red Player wins (004 [28.13])";
}

function attackPicker(app, by, btn, marks) {
  const view = app.st.view;
  const [targetId, subversive, attackers] = view.attack;
  const sById = stacksById(view);
  const t = sById[targetId];
  marks.targets.add(targetId);
  for (const x of attackers) marks.attackers.add(x);
  const at = facts(app).attack || {};
  const odds = at.odds || null;
  const sAtt = (sid) => (at.strength || {})[String(sid)] ?? "?";
  const out = [h("h3", `${subversive ? "Subversive attack" : "Attack"} on ${t ? stackName(t) : "?"} in ${t ? t.province : "?"}`)];
  const adds = by.AddAttacker || [];
  const removes = Object.fromEntries((by.RemoveAttacker || []).map((a) => [a.stack, a]));
  const rows = [];
  for (const x of attackers) {
    rows.push(h("li.on", h("label", h("input", { type: "checkbox", checked: true, disabled: app.busy || !removes[x],
      dataset: { act: "RemoveAttacker", stack: x }, onchange: () => removes[x] && app.act(removes[x]) }),
      ` ${sById[x] ? stackName(sById[x]) : x} `, h("span.small", `strength ${sAtt(x)}`))));
  }
  for (const a of adds) {
    marks.candidates.add(a.stack);
    const s = sById[a.stack];
    const with_ = (at.adding || {})[String(a.stack)];
    rows.push(h("li", h("label", h("input", { type: "checkbox", checked: false, disabled: app.busy,
      dataset: { act: "AddAttacker", stack: a.stack }, onchange: () => app.act(a) }),
      ` ${s ? stackName(s) : a.stack} `, h("span.small", `strength ${sAtt(a.stack)}${with_ ? ` → ${with_.label}` : ""}`))));
  }
  out.push(h("ul.attackers", rows));
  if (odds) out.push(oddsBox(odds));
  const row = h("div.row.end");
  if (by.ResolveAttack) row.append(btn(`Resolve at ${odds ? odds.label : "the odds shown"}`, by.ResolveAttack[0], { cls: "primary danger" }));
  else if (attackers.length) row.append(h("span.small.warn", "Below 1:2 an attack may not be made (004 [8.47])."));
  else row.append(h("span.small", "Add at least one attacking stack."));
  if (by.CancelAttack) row.append(btn("Call off", by.CancelAttack[0]));
  out.push(row);
  return out;
}

/** The engine's odds of an attack (an `Odds`: attack, defense, column, label, results, and the
 *  six results of its column of the Combat Results Table as this attack has them, `row`: a
 *  Subversive Attack's "Ne", no effect, for all but De, 004 [8.33]). */
export function oddsBox(odds) {
  const { attack: att, defense: dfn, column: col, label, results: ch } = odds;
  if (col === null || col === undefined) {
    return h("div.odds", h("div.odds-big", `${att} : ${dfn}`), h("div.odds-col", "below 1:2"));
  }
  const names = { De: "defender eliminated", Ex: "Exchange", Ae: "attacker eliminated", Ne: "no effect" };
  const heads = { De: "Defender eliminated", Ex: "Exchange", Ae: "Attacker eliminated", Ne: "no effect" };
  const said = ["De", "Ex", "Ae", "Ne"].filter((k) => ch[k]).map((k) => `${heads[k]} ${ch[k]}/6`);
  return h("div.odds", { dataset: { odds: label } },
    h("div.odds-big", `${att} : ${dfn}`, h("span.odds-col", ` → ${label}`)),
    h("div.crt", odds.row.map((r, i) => h("span.crt-cell." + r, { title: `die ${i + 1}: ${names[r] || r}` }, h("b", i + 1), r))),
    h("div.small", said.join(" · ") + (ch.Ne ? " — a Subversive Attack has effect only on De; the attackers risk nothing (004 [8.33])" : "")));
}

/** Losses are for good: say which units go and how many points they make, with a way back
 *  before anything is sent; then one ChooseLoss a unit, the first refusal stopping. */
function confirmLoss(app, units, need) {
  const pts = units.reduce((n, u) => n + unit(u).strength, 0);
  const short = pts < need;
  modal("Remove these units?", h("div.loss-confirm",
    h("ul", units.map((u) => h("li", `${ulabel(u)} — ${unit(u).strength} point${unit(u).strength === 1 ? "" : "s"}`))),
    h("p", short ? `${pts} of the ${need} points needed: you will choose more after these.`
      : `${pts} point${pts === 1 ? "" : "s"}: the Exchange needs ${need}.`)), [
    { label: "Back", dataset: { act: "loss-back" } },
    { label: units.length > 1 ? `Remove ${units.length} units` : "Remove it", kind: "primary danger", dataset: { act: "confirm-loss" }, onclick: async () => {
      for (const u of units) if (!(await app.act({ t: "ChooseLoss", seat: app.seat, unit: u }))) break;
    } },
  ]);
}

// ==================================================================================================
function decisionCard(app, d, by, btn, marks) {
  const view = app.st.view;
  const k = d.kind;
  const parts = [];
  const sById = stacksById(view);
  if (k === "loss") {
    // Whose units these are: yours (004 [8.44]), or the defender's when it is uncontrolled or its
    // player has quit, and you, the attacker, choose for it (004 [8.46], [14.22]).
    const first = (d.units || []).concat((by.ChooseLoss || []).map((a) => a.unit))[0];
    const holder = view.stacks.find((s) => s.units.includes(first));
    const yours = !holder || holder.owner === app.seat;
    const them = holder && holder.owner ? `${app.seatName(holder.owner)}'s (who has left)` : "the uncontrolled defender's";
    const suggested = ((app.st.facts || {}).loss || {}).suggested || [];
    parts.push(h("h3", { dataset: { whose: yours ? "own" : "defender" } }, yours ? "Exchange — choose your losses" : `Exchange — choose ${them} losses`),
      h("p", yours ? `Remove at least ${d.need} strength point${d.need > 1 ? "s" : ""} from these units of yours (004 [8.44]). Each click removes one unit.`
        : `You attacked, and the defender cannot choose: you remove at least ${d.need} strength point${d.need > 1 ? "s" : ""} from the defender's units below (004 [8.46]). Each click removes one unit.`));
    const list = h("div.pick-list");
    for (const a of by.ChooseLoss || []) {
      const sug = suggested.includes(a.unit);
      list.append(h("button.pick" + (sug ? ".suggested" : ""), { type: "button", disabled: app.busy, dataset: { act: "ChooseLoss", unit: a.unit },
        onclick: () => confirmLoss(app, [a.unit], d.need) },
        h("span.pick-prov", String(unit(a.unit).strength)), h("span.pick-main", ulabel(a.unit)), sug ? h("span.pick-tag", "suggested") : null));
    }
    if (suggested.length) {
      const pts = suggested.reduce((n, u) => n + unit(u).strength, 0);
      // (the engine's suggestion keeps leaders, Victory Points and purge strength, when combat
      // units alone make up the need: not always the fewest points, so it says so)
      const kept = (by.ChooseLoss || []).some((a) => unit(a.unit).kind === "leader" && !suggested.includes(a.unit));
      parts.push(h("p.small", { dataset: { act: "loss-why" } }, `Suggested: ${suggested.map(uname).join(", ")} (${pts} point${pts === 1 ? "" : "s"}), `
        + (kept ? "the least loss of combat units that makes up the need: the leaders are kept (Victory Points, purge strength)."
          : "the least loss that makes up the need.")),
        h("button.btn.primary", { type: "button", disabled: app.busy, dataset: { act: "suggested-loss" }, onclick: () => confirmLoss(app, suggested, d.need) },
          `Remove the suggested unit${suggested.length > 1 ? "s" : ""}…`));
    }
    parts.push(list);
  } else if (k === "capture") {
    parts.push(h("h3", "Capture an Imperial unit"), h("p", "Every unit stacked with it was eliminated: you may attach it now (004 [13.41])."),
      d.note ? h("p.warn.decision-note", `${d.note}.`) : null);      // (the engine's word on it: the solitaire's Czar)
    const row = h("div.row");           // (spaced apart: on a phone a tap meant for one must not hit the other)
    for (const a of by.CaptureImperial || []) {
      const s = sById[a.stack];
      row.append(btn(`Attach the ${uname(a.unit)} to ${a.leader ? uname(a.leader) : s ? stackName(s) : "your force"}`, a, { cls: "primary" }));
    }
    if (by.DeclineCapture) row.append(btn("Leave it", by.DeclineCapture[0]));
    parts.push(row);
  } else if (k === "redraw") {
    const what = d.marker === "withdrawal"
      ? `the ${d.force} Withdrawal Marker; that force was totally eliminated`
      : `the ${d.force} Control Marker; that force was withdrawn or totally eliminated`;
    parts.push(h("h3", "Draw again?"),
      h("p", `You drew ${what}. You may keep it, or draw another chit from the Auxiliary Forces Randomizer (004 [12.13]).`));
    const again = (by.RedrawChit || []).find((a) => a.redraw);
    const keep = (by.RedrawChit || []).find((a) => !a.redraw);
    parts.push(h("div.row", again ? btn("Draw again", again, { cls: "primary" }) : null, keep ? btn("Keep the marker", keep) : null));
  } else if (k === "place") {
    // 001's optional forces: the unit drawn is placed where its drawer chooses (the engine lists where)
    const leaders = (by.PlaceUnit || []).filter((a) => a.leader);
    parts.push(h("h3", `Place ${uname(d.unit)}`),
      h("p", leaders.length ? `You drew ${ulabel(d.unit)}: place it with one of these leaders (001 optional forces).`
        : `You drew ${ulabel(d.unit)}: place it in a province of your choice (001 optional forces).`));
    const list = h("div.pick-list");
    for (const a of by.PlaceUnit || []) {
      const s = a.leader ? stackOf(view, a.leader) : null;
      list.append(h("button.pick", { type: "button", disabled: app.busy, dataset: { act: "PlaceUnit", province: a.province, leader: a.leader },
        onclick: () => app.act(a) },
        h("span.pick-prov", a.leader ? (s ? s.province : "") : a.province),
        h("span.pick-main", a.leader ? `with ${uname(a.leader)}${s && s.owner ? ` (${s.owner})` : ""}` : pname(a.province))));
    }
    parts.push(list);
  } else if (k === "vote") {
    parts.push(h("h3", "End-game vote (004 [14.1])"),
      h("p", `No White leaders remain outside Siberia. End the game in a Red Victory? Players holding ${(view.limits || {}).vote_markers} Politburo markers must agree.`),
      d.note ? h("p.warn.decision-note", `The only vote: ${d.note}.`) : null);
    const yes = (by.VoteEndGame || []).find((a) => a.yes);
    const no = (by.VoteEndGame || []).find((a) => !a.yes);
    parts.push(h("div.row", yes ? btn("End the game", yes, { cls: "primary" }) : null, no ? btn("Play on", no) : null));
  } else if (k === "purge_approval") {
    const rec = d.purge;
    parts.push(h("h3", "Approve the Committee's purge?"),
      h("p", `${d.by} proposes that the Committee (${rec.purgers.join(", ")}) purge ${rec.target}, the spoils divided in the order ${rec.shares.join(", ")} (004 [11.23]).`),
      facts(app).purge_decision ? purgeOddsTable(facts(app).purge_decision) : null);
    const yes = (by.ApprovePurge || []).find((a) => a.approve);
    const no = (by.ApprovePurge || []).find((a) => !a.approve);
    parts.push(h("div.row", yes ? btn("Approve", yes, { cls: "primary" }) : null, no ? btn("Refuse", no, { cls: "danger" }) : null));
  } else if (k === "purge_orders") {
    const orders = (d.orders || []).map((o) => `${o.purgers.join("+")} on ${o.target}`).join("; ");
    parts.push(h("h3", "Individual purges"), h("p", `Declared: ${orders}. Declare your own individual purge now, or pass (004 [11.0]).`));
    const me = facts(app).purge;
    for (const a of by.DeclarePurge || []) {
      parts.push(btn(`Purge ${a.target}` + (me ? ` (strength ${me.strength}, ${me.column})` : ""), a, { data: { target: a.target } }));
    }
    if (by.PassPurge) parts.push(btn("Declare no purge", by.PassPurge[0], { cls: "primary" }));
  } else if (k === "red_terror") {
    parts.push(h("h3", "The Red Terror"),
      h("p", `${d.target} sent assassins against ${uname(d.victim)} and failed. You may purge ${d.target} at once, free: no Central Committee is needed and it is not your purge of the Game-Turn (the critic's suggestion; 004 [11.0]).`));
    for (const a of by.DeclarePurge || []) parts.push(btn(`Purge ${a.target}`, a, { cls: "primary danger", data: { target: a.target } }));
    if (by.PassPurge) parts.push(btn("Let it pass", by.PassPurge[0]));
  } else if (k === "spoils") {
    const rec = d.purge;
    const rem = rec.points - Object.values(rec.got || {}).reduce((a, b) => a + b, 0);
    parts.push(h("h3", `Spoils of the purge of ${rec.target}`),
      h("p", `${rec.points} purged point${rec.points === 1 ? "" : "s"}; ${rem} remain. You are entitled to ${rec.entitled[app.seat] ?? rem}, and have taken ${rec.got[app.seat] || 0}. A Red leader costs his value; a Politburo marker costs 2 (004 [11.21], [11.22]).`));
    const list = h("div.pick-list");
    for (const a of by.TakeSpoil || []) {
      // (which units go with him, by the view's attachments: QA read "with his attached units" and
      // could not tell what they were)
      const st = a.leader ? stackOf(app.st.view, a.leader) : null;
      const under = st ? st.units.filter((u) => String(attachedTo(st, u)) === String(a.leader)).map(ulabel) : [];
      const label = a.leader ? `${uname(a.leader)} (${unit(a.leader).strength}) in ${st ? pname(st.province) : "?"}`
        + (under.length ? ` with ${under.join(", ")}` : ", with no unit attached") : "a Politburo marker (2)";
      list.append(h("button.pick", { type: "button", disabled: app.busy, dataset: { act: "TakeSpoil", leader: a.leader }, onclick: () => app.act(a) },
        h("span.pick-prov", a.leader ? String(unit(a.leader).strength) : "2"), h("span.pick-main", `Take ${label}`)));
    }
    parts.push(list);
    if (by.EndSpoils) parts.push(btn("Take nothing more", by.EndSpoils[0]));
  } else if (k === "counterpurge") {
    parts.push(h("h3", "Counterpurge!"),
      h("p", `The purge against you rolled C. You may counterpurge ${d.options.join(" or ")}, your Politburo markers counting double (004 [11.24]), or let it go.`));
    const odds = facts(app).purge_decision;
    if (odds) {
      parts.push(h("p.small", `Your counterpurge strength: ${odds.purgers[0].leaders} (Red leaders) + 2 × ${view.politburo[app.seat] || 0} (Politburo) = ${odds.strength}. `
        + `About ${odds.expected_points.toFixed(1)} points; ${pct(odds.counterpurge)} chance of a counter-counterpurge.`),
        purgeOddsTable(odds));
    }
    const row = h("div.row.wrap");
    for (const a of by.Counterpurge || []) {
      if (a.target) row.append(btn(`Counterpurge ${a.target}`, a, { cls: "primary danger", data: { target: a.target } }));
    }
    const no = (by.Counterpurge || []).find((a) => !a.target);
    if (no) row.append(btn("Do not counterpurge", no, { data: { target: "" } }));
    parts.push(row);
  } else if (k === "execution_consent") {
    parts.push(h("h3", "Execute the Czar?"), h("p", (view.options || {}).masses
      ? `${d.by} proposes the execution of the Czar. The consenting players, his holder among them, must control two thirds of the Red leadership on the map (the Masses' [13.52]).`
      : `${d.by} orders the execution of the Czar. Consenting members must hold ${(view.limits || {}).execution_markers} Politburo markers (004 [13.52]).`));
    const yes = (by.OrderExecution || []).find((a) => a.consent);
    const no = (by.OrderExecution || []).find((a) => !a.consent);
    parts.push(h("div.row", yes ? btn("Consent", yes, { cls: "primary" }) : null, no ? btn("Refuse", no) : null));
  } else if (k === "execution") {
    parts.push(h("h3", "The Committee orders the Czar's execution"),
      h("p", "Comply, and the Czar goes face up to your section of the VP chart; refuse, and he stays with your leader (004 [13.54])."));
    const yes = (by.AnswerExecution || []).find((a) => a.comply);
    const no = (by.AnswerExecution || []).find((a) => !a.comply);
    parts.push(h("div.row", yes ? btn("Execute the Czar", yes, { cls: "primary danger" }) : null, no ? btn("Refuse", no) : null));
  } else {
    parts.push(h("h3", kindName(k)));
    for (const a of app.st.legal) if (a.t !== "Quit") parts.push(btn(a.t, a));
  }
  void marks;
  return h("section.card.decision", { dataset: { decision: k } }, ...parts);
}

/** Decline on the invitation's chat cards (each inviter's in `by_`), the answer a bot waiting
 *  for this seat reads (it then goes on at once instead of waiting out its time, --bot-wait); or
 *  "declined" once this seat has, on every card.  Nothing where the page has no card (the
 *  invitation is then a consent alone: not joining is the answer).  Joining stays open. */
function declineInvitation(app, by_, members) {
  const cards = app.chat && app.chat.committeeCard ? by_.map((p) => app.chat.committeeCard(p, members)).filter(Boolean) : [];
  const open = cards.filter((c) => c.answer === undefined);
  if (!open.length) {
    return cards.length && cards.every((c) => c.answer === false) ? h("span.small.declined", "You declined (you may still join).") : null;
  }
  return h("button.btn", { type: "button", disabled: app.busy, dataset: { act: "decline-committee", members: [...members].join("") },
    onclick: async () => {
      for (const c of open) if (!(await app.chat.answer(c.channel, c.id, false))) break;
    } }, "Decline");
}

// ==================================================================================================
function offersCard(app, by, btn) {
  const view = app.st.view;
  const offers = view.offers || [];
  if (!offers.length) return null;
  const rows = offers.map((o) => {
    const acc = (by.AcceptTrade || []).find((a) => a.offer === o.id);
    const dec = (by.DeclineTrade || []).find((a) => a.offer === o.id);
    const wd = (by.WithdrawTrade || []).find((a) => a.offer === o.id);
    // (answered on its chat card when the page has it, looked for at the click: the card's
    // message may come after the offer's state frame)
    const answer = (yes, a) => () => {
      const msg = app.chat ? app.chat.proposalForOffer(o.id) : null;
      return msg ? app.chat.answer(msg.channel, msg.id, yes) : app.act(a);
    };
    return h("li.offer", { dataset: { offer: o.id } },
      h("div", tradeText(o, app)),
      h("div.row",
        acc ? h("button.btn.primary", { type: "button", disabled: app.busy, dataset: { act: "AcceptTrade", offer: o.id },
          onclick: answer(true, acc) }, "Accept") : null,
        dec ? h("button.btn", { type: "button", disabled: app.busy, dataset: { act: "DeclineTrade", offer: o.id },
          onclick: answer(false, dec) }, "Decline") : null,
        wd ? btn("Withdraw", wd) : null));
  });
  return h("section.card", h("h3", "Trade offers"), h("ul.offers", rows));
}

export function tradeText(o, app) {
  const side = (leaders, pm, am) => {
    const bits = (leaders || []).map((x) => `${uname(x)} (${unit(x).strength})`);
    if (pm) bits.push(`${pm} Politburo`);
    if (am) bits.push(`${am} Assassin`);
    return bits.join(", ") || "nothing";
  };
  const from = o.from || o.seat;
  const give = side(o.give_leaders, o.give_politburo, o.give_assassins);
  const take = side(o.take_leaders, o.take_politburo, o.take_assassins);
  return `#${o.id} ${app.seatName(from)} (${from}) offers ${app.seatName(o.to)} (${o.to}) ${give}` +
    (take === "nothing" ? ", asking nothing in return" : ` for ${take}`);
}

function politicsCard(app, by, btn) {
  if (app.st.view.solitaire) return null;     // (the SPI solitaire has no Politburo, Committee or trades: 004 [18.0])
  const view = app.st.view;
  const seat = app.seat;
  if (view.phase === "trading" || view.phase === "over") return null;
  const com = view.committee || [];
  const pm = (ss) => ss.reduce((a, p) => a + (view.politburo[p] || 0), 0);
  const rows = [];
  const politburo = (view.limits || {}).politburo !== false;     // (the engine's: none in the Masses game, 004 Masses [11.0])
  if (politburo) {
    rows.push(h("p.small", com.length ? `Central Committee: ${committeeOf(com)} (${pm(com)} Politburo markers)` : `There is no Central Committee (members consenting to each other and holding ${(view.limits || {}).committee_markers} Politburo markers, 004 [11.11]).`));
  } else {
    rows.push(h("p.small", "No Politburo, Central Committee or purges in this game (004 Masses [11.0])."));
  }
  // the consents given to Committees not formed yet (004 [11.11]: it forms when its members consent to each other)
  // (those that invite this seat are told below, as invitations)
  const consents = Object.entries(view.committee_consent || {});
  // an invitation: another seat's consent to a Committee with this one, which this seat does not
  // consent to already and which does not sit
  const invites = (p) => invitedBy(app, p) !== null;
  const others = consents.filter(([p]) => !invites(p));
  if (!com.length && others.length) {
    rows.push(h("ul.consents", others.map(([p, members]) => h("li", { dataset: { seat: p } }, seatBadge(p), " ",
      `${app.seatName(p)} consents to a Committee of ${committeeOf(members)} (${pm(members)} PM)`))));
  }
  // the invitations to this seat first, each with its Join (QA: a bot's invitation, in a side
  // channel, went unseen until its Committee without us had purged us)
  // (one for each Committee, whoever of the others consents to it; none for one this seat consents
  // to already; shown while another Committee sits too)
  const shown = new Set();
  const invited = new Map();                  // members' key -> [members, the seats that consent]
  for (const [p, members] of consents) {
    if (!invites(p)) continue;
    const got = invited.get(membersKey(members)) || [members, []];
    got[1].push(p);
    invited.set(membersKey(members), got);
  }
  for (const [k, [members, by_]] of invited) {
    const a = (by.JoinCommittee || []).find((j) => membersKey(j.members) === k);
    if (a) shown.add(k);
    const who = by_.map((p) => app.seatName(p)).join(" and ");
    rows.push(h("div.invitation", { dataset: { seat: by_[0], members: k } },
      h("p", ...by_.map((p) => seatBadge(p)), ` ${who} invite${by_.length > 1 ? "" : "s"} you to a Central Committee of ${committeeOf(members)} (${pm(members)} PM). `,
        h("span.small", "A member cannot be purged (004 [11.14]).")),
      h("div.row.wrap",
        a ? btn(by_.length > 1 ? "Join their Committee" : `Join ${app.seatName(by_[0])}'s Committee`, a, { cls: "primary", data: { members: a.members.join("") } }) : null,
        declineInvitation(app, by_, members))));
  }
  for (const a of by.JoinCommittee || []) {
    if (shown.has(membersKey(a.members))) continue;
    rows.push(btn(`Join a Committee of ${committeeOf(a.members)} (${pm(a.members)} PM)`, a, { data: { members: a.members.join("") } }));
  }
  // (a consent the game rewrote: QA read "you consent to a Committee of A alone", which he never
  // chose, after the others withdrew from the one he had joined)
  const own = (view.committee_consent || {})[seat];
  if (own && app.log && app.log.consentRewritten(seat)) {
    rows.push(h("p.small.consent-note", `Your consent now names ${committeeOf(own)}: the others withdrew from the Committee you joined, `
      + `and those who stay consent to each other still; they sit as the Committee whenever they hold ${(view.limits || {}).committee_markers} `
      + `Politburo markers (004 [11.12]).${by.LeaveCommittee ? " Withdraw it below if you want none." : ""}`));
  }
  if (by.LeaveCommittee) {
    const mine = (view.committee_consent || {})[seat];
    rows.push(btn(com.includes(seat) || !mine ? "Leave the Committee" : `Withdraw your consent (to ${committeeOf(mine)})`, by.LeaveCommittee[0]));
  }
  const purges = by.DeclarePurge || [];
  const tools = h("div.row.wrap");
  if (purges.length) {
    tools.append(h("button.btn.danger", { type: "button", dataset: { act: "purge-dialog" }, onclick: () => openPurgeDialog(app) }, "Purge…"));
  }
  if (by.OrderExecution && !view.decision) tools.append(h("button.btn", { type: "button", dataset: { act: "czar-dialog" }, onclick: () => openCzarDialog(app) }, "Order the Czar's execution…"));
  if (politburo) tools.append(h("button.btn", { type: "button", dataset: { act: "committee-dialog" }, onclick: () => openCommitteeDialog(app) }, "Propose a Committee…"));
  tools.append(h("button.btn", { type: "button", dataset: { act: "propose-trade" }, onclick: () => openTradeDialog(app) }, "Propose a trade…"));
  rows.push(tools);
  const me = facts(app).purge;
  if (me && politburo) {
    rows.push(h("p.small.purge-strength", `Your Purge Strength: ${me.leaders} (Red leaders) + ${view.politburo[seat] || 0} (Politburo) = ${me.strength}`,
      // (QA: a member saw his own alone, the Committee's only in the Purge dialog)
      me.committee ? ` · the Committee's (${me.committee.members.join(", ")}) together: ${me.committee.strength}, column ${me.committee.column}` : ""));
  }
  if (me && me.done && !purges.length) {        // (the engine's word: why there is no Purge… button)
    rows.push(h("p.small.purged-note", "You have taken part in a purge this Game-Turn: no other until the next (004 [11.13])."));
  }
  return h("section.card.politics", h("h3", "Politics"), ...rows);
}
