// The postal game's Orders panel (004 [17.0], issue 16): the order sheet written on the map and
// in small builders, each order judged by the engine as it is written (the `check` query:
// Game.check_sheet), sent with the `sheet` frame and replaceable until the phase closes; a
// countdown to the phase's deadline; who has submitted (never what); the phase report beside
// its drawing on the map (arrows for moves, marks for combats); the archive of reports, phase
// by phase, with a slider that shows the map after each; pauses, the return from civil
// disorder, and notifications (e-mail, the browser's Notification API).
//
// Every rule fact comes from the engine through the server: where a force may go (`reach`),
// whether a step, an attack, a purge is legal and why not (`check`), the odds of an attack
// (`attack_options`), the purge odds (`purge_odds`).

import { h, replace, store, toast, modal, notifyBrowser, fmtLeft, fmtSpan, fmtExact, tapWord, touchScreen } from "./util.js";
import { D, unit, uname, pname, placeNames, isLeader, PHASE_NAMES, stackOf } from "./data.js";
import { seatBadge } from "./dialogs.js";
import { waitingForPlayers } from "./orders.js";

/** A verdict's reason (the `check` query's, per order): the engine's message and its rule case. */
const why = (vd) => (vd ? `${placeNames(vd.message)}${vd.rule ? ` (${vd.rule})` : ""}` : "not checked");
/** Whether the engine carries an order out whole: not refused, no step of it refused. */
const whole = (vd) => vd.ok && vd.step === undefined;

/** What an order's verdict that is not whole says before the engine's reason: refused; a move
 *  that stops short, where; another kept order, the step the rules refuse (a stack that cannot
 *  join an attack) or "as things stand" (a purge the rules would refuse now, which this phase's
 *  trades may change). */
export const verdictHead = (o, vd) => {
  if (!vd.ok) return "refused";
  // (a move cut short says where it stops; one that goes all the way says which of its steps
  // fails, e.g. a pick-up: QA read "stops in Pskov" of a force that got there)
  const arrived = vd.path && o.path && vd.path.length >= o.path.length;
  if (o.order === "move" && !arrived) return `stops${vd.path && vd.path.length ? ` in ${pname(vd.path[vd.path.length - 1])}` : " where it is"}`;
  return vd.step || "in part";
};

export const PHASE_LABEL = { trading: "the pre-season trades", first: "First Phase (movement)", second: "Second Phase (combat)" };

/** Whether the game on the page is a postal game. */
export function isPostal(app) {
  return !!(app.st.view && app.st.view.postal);
}

/** Units' names for a list of them, told apart where two read alike ("Green 1-3 (1)",
 *  "Green 1-3 (2)"): a Map of unit -> name. */
function distinctNames(units) {
  const count = new Map();
  for (const u of units) count.set(uname(u), (count.get(uname(u)) || 0) + 1);
  const seen = new Map();
  return new Map(units.map((u) => {
    const n = uname(u);
    if (count.get(n) < 2) return [u, n];
    seen.set(n, (seen.get(n) || 0) + 1);
    return [u, `${n} (${seen.get(n)})`];
  }));
}

/** An order in words; ``from(unit)``: where a unit stands on the position the sheet is for, to
 *  begin a move's route with (QA: "VOLO–KOST" read as a move from Vologda). */
export function describe(o, from = null) {
  const n = (u) => (u === undefined || u === null ? "?" : uname(u));
  const list = (xs, none) => ([].concat(xs || []).length ? [].concat(xs).join(", ") : none);
  switch (o.order) {
    case "move": {
      const picks = Object.entries(o.pick || {}).map(([p, us]) => `picking up ${[].concat(us).map((x) => n(Array.isArray(x) ? x[0] : x)).join(", ")} in ${p}`);
      const drops = Object.entries(o.drop || {}).map(([p, us]) => `dropping ${[].concat(us).map(n).join(", ")} in ${p}`);
      const join = [].concat(o.join || []);
      const joined = join.length ? ` (with ${join.map(n).join(", ")})` : "";
      const start = typeof from === "function" && (o.path || []).length ? from(o.unit) : null;   // (not map's index)
      return `${n(o.unit)}${joined}: ${[start, ...(o.path || [])].filter(Boolean).join("–") || "stays"}${o.rail ? " by rail" : " overland"}` +
        (picks.length || drops.length ? ` (${[...picks, ...drops].join("; ")})` : "");
    }
    case "attack": return `${(o.attackers || []).map(n).join(" + ")} attack${o.subversive ? " (subversive)" : ""} ${n(o.target)}`;
    case "assassinate": return `Assassinate ${(o.victims || []).map(n).join(" and/or ")} (${o.markers || 1} marker${(o.markers || 1) > 1 ? "s" : ""})`;
    case "purge": return `Purge ${o.target} with ${(o.participants || []).join(", ")}${o.markers !== undefined && o.markers !== null ? ` (${o.markers} markers)` : ""}` +
      ((o.take || []).length ? `, spoils wanted: ${o.take.map((u) => (u === 0 ? "a Politburo marker" : n(u))).join(", ")}` : "");
    case "counterpurge": return `If purged: counterpurge ${o.target || "nobody"}`;
    case "trade": {
      const give = [o.give_politburo ? `${o.give_politburo} Politburo` : "", o.give_assassins ? `${o.give_assassins} Assassin` : "", ...(o.give_leaders || []).map(n)].filter(Boolean);
      const take = [o.take_politburo ? `${o.take_politburo} Politburo` : "", o.take_assassins ? `${o.take_assassins} Assassin` : "", ...(o.take_leaders || []).map(n)].filter(Boolean);
      return `Trade with ${o.with}: give ${give.join(", ") || "nothing"}, take ${take.join(", ") || "nothing"}`;
    }
    case "accept_gifts": return `Accept gifts${(o.from || []).length ? ` from ${o.from.join(", ")}` : ""}`;
    // (QA: the other kinds read as raw JSON with unit numbers, `merge {"unit":154,"into":153}`)
    case "steal": return `${n(o.leader)} takes ${n(o.unit)} along with the Gold`;
    case "merge": return `Stack ${n(o.unit)}'s stack with ${n(o.into)}'s`;
    case "transfer": return `Hand the ${n(o.unit)} over to ${n(o.to)}'s stack`;
    case "emigrate": return `The ${n(o.unit)} leaves Russia by sea`;
    case "czech_exit": return `${n(o.unit)} leaves the map from Vladivostok`;
    case "execute_czar": return `Order the Czar's execution with ${list(o.participants, "nobody")}`;
    case "comply_execution": return o.comply === false ? "If the Czar's execution is ordered: refuse it" : "If the Czar's execution is ordered: carry it out";
    case "redraw": return o.redraw ? "A withdrawn force's marker drawn: draw again" : "A withdrawn force's marker drawn: keep it";
    case "place": return `Units drawn go to ${list(o.provinces, "the first place offered")}` +
      ((o.leaders || []).length ? `, or with ${o.leaders.map(n).join(", ")}` : "");
    case "draws": return `${o.extra || 0} extra Randomizer draw${o.extra === 1 ? "" : "s"}`;
    case "losses": return `Exchange losses: ${(o.prefer || []).length ? `first ${o.prefer.map(n).join(", ")}` : "the least"}`;
    case "capture": return o.accept === false ? "Capture no Imperial unit" : "Capture Imperial units offered";
    case "vote": return o.end ? "Vote to end the game" : "Vote to play on";
    default: return `${o.order} ${JSON.stringify(Object.fromEntries(Object.entries(o).filter(([k]) => k !== "order")))}`;
  }
}

/** The order kinds with a card of their own (the rest are written in "More orders"). */
const OWN_CARDS = new Set(["move", "attack", "assassinate", "purge", "counterpurge", "trade", "accept_gifts"]);

/** Each other kind, and its fields, in a player's words. */
const KIND_WORDS = {
  execute_czar: "Order the Czar's execution (004 [13.5])",
  comply_execution: "If the Czar's execution is ordered of me",
  vote: "The end-game vote (004 [14.1])",
  steal: "Take Green units along with the Gold",
  merge: "Stack a stack with another",
  transfer: "Hand the Czar or the Gold to another stack",
  emigrate: "The Czar or the Gold leaves Russia from a port (004 [13.31])",
  czech_exit: "Czech units leave from Vladivostok",
  capture: "Capture of Imperial units",
  losses: "Exchange losses",
  redraw: "A marker drawn: keep it or draw again",
  place: "Where units drawn go (001)",
  draws: "Extra Randomizer draws (001)",
};
/** What a unit field the engine offers nothing for says instead of an empty list. */
const NONE_WORDS = {
  "steal.unit": "no Green unit of another player may be taken now", "steal.leader": "none of your leaders may take Green units now",
  "merge.unit": "none of your stacks may be stacked with another now", "merge.into": "none of your stacks may take another now",
  "transfer.unit": "none of your Imperial units may be handed over now", "transfer.to": "no stack of yours may take an Imperial unit now",
  "emigrate.unit": "none of your units may emigrate now", "czech_exit.unit": "none of your units may leave from Vladivostok now",
  "place.leaders": "no leader may take a unit drawn now", "losses.prefer": "none of your units may be lost now",
};
const FIELD_WORDS = {
  participants: "with", comply: "carry it out", end: "end the game now", unit: "unit", leader: "by the leader",
  into: "into the stack of", to: "to the stack of", accept: "capture them", prefer: "lose first", redraw: "draw again",
  provinces: "provinces", leaders: "or with the leaders", extra: "extra draws",
};

/** What each kind of notification is called on the page (the protocol's ``want`` names). */
const WANT_WORDS = { report: "phase reports", due: "orders due", decision: "a decision waits on me",
  message: "private messages", absence: "pauses and civil disorder" };

export class PostalDesk {
  constructor(app) {
    this.app = app;
    this.draft = [];
    this.draftKey = null;
    this.verdicts = null;        // the engine's verdict on the draft (check), for draftJSON
    this.plot = null;            // the move being plotted: {unit, stack, from, path, rail, join, pick, drop, problem, unchecked, routes, offers, queue, busy}
    this.reports = [];           // the archive (the `reports` frame), oldest first
    this.at = null;              // the archive's report shown (its index), or null: the latest, live position
    this.showReport = true;      // draw the last report on the map
    this.deadlines = {};
  }

  get view() { return this.app.st.view; }
  get phaseKey() { return `phase:${this.view.turn}:${this.view.postal.phase}`; }

  // -- the server's pushes -----------------------------------------------------------------------
  welcome(w) {
    this.deadlines = w.deadlines || {};
    this.fetchReports();
  }

  onDeadline(f) {
    this.deadlines = f.deadlines || {};
    // (the seat that paused has its own toast already: QA got two, differently rounded)
    if (f.why && f.why.seat && f.why.seat !== this.app.seat) {
      toast(`${this.app.seatName(f.why.seat)} (${f.why.seat}) paused the game: every deadline moves by ${fmtExact(f.why.seconds)}`, "info");
    }
    this.app.renderSoon();
  }

  onUpdate(f) {
    const rep = (f.events || []).find((e) => e.kind === "report");
    if (rep) {
      this.fetchReports();
      this.notify(`Game-Turn ${rep.data.turn}: the ${rep.data.phase} phase was adjudicated`, "The report is in.");
    }
    const me = this.app.seat;
    if (me && (f.pending || []).some((p) => p.seat === me) && rep) this.notify("Your orders are due", "A new phase is open for orders.");
  }

  notify(title, body) {
    notifyBrowser(this.app.gid, title, body);
  }

  async fetchReports() {
    try {
      const r = await this.app.conn.request("reports", { after: 0 });
      this.reports = r.reports;
      document.body.dataset.reports = String(this.reports.length);
      this.app.renderSoon();
    } catch { /* not joined yet */ }
  }

  // -- the draft -------------------------------------------------------------------------------------
  syncDraft() {
    const v = this.view;
    const key = `draft:${this.app.gid}:${this.app.seat}:${v.turn}:${v.postal.phase}`;
    if (key === this.draftKey) {
      // a sheet sent for the seat meanwhile (its bot's, for a seat in civil disorder or away at a
      // deadline) becomes the draft while the player has not begun one of his own (QA: the draft
      // stayed empty, "changed since you sent it", and sending it wiped the bot's orders)
      const sent = this.serverSheet();
      if (store.get(key, null) === null && JSON.stringify(sent) !== JSON.stringify(this.draft)) {
        this.draft = sent;
        this.sentMark = null;
        this.check();
      }
      return;
    }
    if (this.draftKey !== null) {
      // a phase closed while the page was open: the new phase's panel from its top, its title
      // and its sheet in view (QA: the pane kept the old scroll, deep in the last report)
      requestAnimationFrame(() => {
        const pane = this.app.ordersEl.closest(".orders-pane");
        if (pane) pane.scrollTop = 0;
      });
    }
    // (the drafts of closed phases go, this page's or one left by a page closed meanwhile)
    const mine = `draft:${this.app.gid}:${this.app.seat}:`;
    for (const k of store.keys(mine)) if (k !== key && k !== key + ":sent") store.remove(k);
    this.draftKey = key;
    this.draft = store.get(key, null) || this.serverSheet();
    this.sentMark = store.get(key + ":sent", null);    // {draft, server}: the draft as sent, the sheet the server kept
    this.plot = null;
    this.verdicts = null;
    this.check();
  }

  /** The orders of the sheet the server holds for this seat in the open phase (sent from any
   *  page, or by its bot). */
  serverSheet() {
    return (this.view.postal.sheet || []).map(([, o]) => o);
  }

  save() {
    store.set(this.draftKey, this.draft);
    this.check();
  }

  /** The engine's verdict on the draft (and the move being plotted: last, or in the place ``at``
   *  of the order it is an edit of). */
  async check(extra = null, at = null) {
    const orders = !extra ? this.draft : at === null ? [...this.draft, extra] : this.draft.map((o, j) => (j === at ? extra : o));
    const key = JSON.stringify(orders);
    try {
      // (with the engine's offers for the move being plotted)
      const a = await this.app.ask("check", extra ? { sheet: { orders }, offers: at === null ? orders.length - 1 : at } : { sheet: { orders } });
      this.checkError = null;
      if (!extra) {
        this.verdicts = { key, orders: a.orders };
        document.body.dataset.draftChecked = key.length.toString();
        this.app.renderSoon();
      }
      return a.orders;
    } catch (e) {
      this.checkError = e.message || String(e);
      if (!extra) this.app.showError(e);
      return null;
    }
  }

  async send() {
    const v = this.view;
    this.app.setBusy(true);
    try {
      const was = this.sentMark;
      const key = this.draftKey;
      const draft = this.draft;
      // (before the reply: its push may come first.  QA: the last sheet of a phase closes it at
      // once, and the update that opens the next phase reached the page before this reply; the
      // page had moved on to the new phase's draft and mark, and this one's looked lost)
      const mark = this.sentMark = { draft: JSON.stringify(draft), server: null };
      let r;
      try {
        r = await this.app.conn.request("sheet", { turn: v.turn, phase: v.postal.phase, sheet: { orders: draft } });
      } catch (e) {
        if (this.sentMark === mark) this.sentMark = was;
        throw e;
      }
      mark.server = JSON.stringify(r.sheet || []);
      const now = this.app.st.view;                    // (the sheet closed the phase: it was carried out)
      const closed = now.turn !== v.turn || (now.postal || {}).phase !== v.postal.phase;
      if (this.draftKey === key) {
        store.set(key, draft);
        store.set(key + ":sent", mark);
      }
      this.app.renderSoon();
      const n = r.sheet.length;
      toast(r.rejected.length ? `Sheet sent: ${r.rejected.length} order${r.rejected.length === 1 ? "" : "s"} refused`
        : `Sheet sent (${n} order${n === 1 ? "" : "s"})${closed ? ": it was the last, and the phase has been carried out" : ""}`,
        r.rejected.length ? "error" : "ok");
    } catch (e) {
      this.app.showError(e);
    } finally {
      this.app.setBusy(false);
    }
  }

  add(order) {
    this.draft.push(order);
    this.save();
    this.app.renderSoon();
  }

  // -- plotting a move on the map ------------------------------------------------------------------------
  /** The unit whose move a click on ``stack`` plots: its first leader the sheet does not move
   *  yet (so a second click plots the move of a leader left behind), else its first unit. */
  mover(stack) {
    const ordered = new Set(this.draft.filter((o) => o.order === "move").flatMap((o) => [o.unit, ...[].concat(o.join || [])]));
    const leaders = stack.units.filter((u) => isLeader(u));
    const free = leaders.find((u) => !ordered.has(u));
    return free !== undefined ? free : leaders.length ? leaders[0] : stack.units[0];
  }

  onStack(id, prov) {
    const v = this.view;
    if (this.app.replay || this.at !== null || !this.app.seat || v.postal.phase !== "first") return false;
    if (this.plot) return this.onProvince(prov);
    const st = v.stacks.find((s) => s.id === id);
    if (!st || st.owner !== this.app.seat) return false;
    const u = this.mover(st);
    // (every leader of the stack has his move on the sheet already: the click opens his order for
    // editing; QA got a plot the engine refused, "has already moved", and an Add that never came)
    const ordered = this.draft.findIndex((o) => o.order === "move" && (o.unit === u || [].concat(o.join || []).includes(u)));
    if (ordered >= 0) {
      this.edit(ordered);
      this.app.select({ stack: st.id });
      return true;
    }
    const p = this.plot = { unit: u, stack: st.id, from: st.province, path: [], rail: false, join: [], pick: {}, drop: {},
                            problem: null, routes: null, offers: null, queue: Promise.resolve(), busy: 0, was: null };
    // (004 [17.0]: "the path of each stack": the stack's other leaders, with the units attached to
    // them, move with the first unless the player leaves them out, 004 [5.26]: those the engine
    // lets join, not one the sheet moves already)
    this.plotTask(p, async () => {
      const first = await this.judge(p);
      if (!first) return;
      p.join = ((first.offers && first.offers.join) || []).map((j) => j.leader).filter((l) => st.units.includes(l));
      if (p.join.length) await this.recheck();
      else this.settle(p, first);
    });
    this.app.select({ stack: st.id });
    this.app.renderSoon();
    return true;
  }

  /** Run ``fn`` on the plot once the plot's earlier tasks are done: steps, rechecks and far rings
   *  are judged one at a time, each on the plot as the one before left it (a click made while a
   *  verdict is awaited waits for it). */
  plotTask(p, fn) {
    p.busy += 1;
    this.app.renderSoon();
    p.queue = p.queue.then(() => (this.plot === p ? fn() : null)).catch((e) => { p.unchecked = String(e.message || e); })
      .finally(() => { p.busy -= 1; this.app.renderSoon(); });
    return p.queue;
  }

  /** The engine's verdict on the plotted order (the ``check`` query, with its offers), or null
   *  when it could not be asked (then said on the plot: the path is kept as it is). */
  async judge(p) {
    const at = this.editing(p);
    const verdict = await this.check(this.plotOrder(p), at);
    if (this.plot !== p) return null;
    if (!verdict) {
      p.unchecked = this.checkError || "the server did not answer";
      return null;
    }
    p.unchecked = null;
    return verdict[at === null ? verdict.length - 1 : at];
  }

  onProvince(code) {
    const p = this.plot;
    if (!p || this.app.replay) return false;
    this.plotTask(p, () => this.toward(code));
    return true;
  }

  /** A province clicked while plotting: the next step, or a ring further on, which takes the
   *  engine's route there (by rail or overland as it goes, when the path is still empty). */
  async toward(code) {
    const p = this.plot;
    const last = p.path.length ? p.path[p.path.length - 1] : p.from;
    if (code === last) return;
    const route = p.routes && p.routes[code];
    if (route && (route.path.length > 1 || (!p.path.length && route.rail !== p.rail))) {
      if (!p.path.length) p.rail = !!route.rail;
      p.path.push(...route.path);
      await this.recheck();
      return;
    }
    await this.step(code);
  }

  /** Where on the sheet the order the plot changes is now (it may have moved up or down), or
   *  null: a new move, or the order it changed is gone (then it is added as a new one). */
  editing(p) {
    const i = p.was ? this.draft.indexOf(p.was) : -1;
    return i < 0 ? null : i;
  }

  plotOrder(p = this.plot) {
    const o = { order: "move", unit: p.unit, path: [...p.path], rail: p.rail };
    if (p.join.length) o.join = [...p.join];
    const pick = Object.fromEntries(Object.entries(p.pick).filter(([, us]) => us.length));
    const drop = Object.fromEntries(Object.entries(p.drop).filter(([, us]) => us.length));
    if (Object.keys(pick).length) o.pick = pick;
    if (Object.keys(drop).length) o.drop = drop;
    return o;
  }

  /** One more province on the path: kept if the engine takes the force there, else refused
   *  with its reason; a step of the order that is not a province's (a leader who cannot join, a
   *  pick-up) is shown as a warning on the order, the path kept.  (A plot task.) */
  async step(code) {
    const p = this.plot;
    p.path.push(code);
    p.problem = null;
    const before = p.routes;       // (the rings of where it stood, until the verdict says where it is)
    p.routes = null;
    this.app.renderSoon();
    const mine = await this.judge(p);
    if (this.plot !== p) return;
    if (!this.reaches(mine, p.path.length)) {
      p.path.pop();
      p.routes = before;
      if (mine) {
        p.problem = `${pname(code)}: ${why(mine)}`;
        document.body.dataset.plotRefused = String(Number(document.body.dataset.plotRefused || 0) + 1);
      }
    } else {
      this.settle(p, mine);
    }
    document.body.dataset.plotPath = p.path.join("-");
    this.app.renderSoon();
  }

  /** The engine's verdict on the plotted order taken in: what it refuses, and its offers: who
   *  may join the force, what it may drop and pick up in each province of its path, and where it
   *  may go on to from where the path leaves it (the reach rings). */
  settle(p, vd) {
    p.problem = !vd.ok ? why(vd) : this.warning(vd);
    if (vd.offers) {
      p.offers = vd.offers;
      p.routes = vd.offers.reach || {};
      document.body.dataset.reach = String(Object.keys(p.routes).length);
    }
    this.app.renderSoon();
  }

  /** Whether the engine's verdict on the plotted order takes the force all of its ``n`` steps. */
  reaches(vd, n) {
    return !!vd && vd.ok && (whole(vd) || (vd.path || []).length >= n);
  }

  /** A step of the order the engine refused that is not the path's (joining, picking up), or null. */
  warning(vd) {
    return vd && vd.ok && !whole(vd) ? `${vd.step}: ${why(vd)}` : null;
  }

  /** The path plotted, judged again (by rail or overland, or who moves with it, changed): the
   *  steps refused are dropped, and what else the engine refuses is said; when the engine could
   *  not be asked, the path is kept and that is said.  (A plot task.) */
  async recheck() {
    const p = this.plot;
    p.problem = null;
    const before = p.routes;
    p.routes = null;                // (the rings of the path as it was are no guide now)
    let dropped = null;
    for (;;) {
      const mine = await this.judge(p);
      if (this.plot !== p) return;
      if (!mine) {
        p.routes = before;
        break;
      }
      if (!p.path.length || this.reaches(mine, p.path.length)) {
        this.settle(p, mine);
        if (dropped && mine.ok) p.problem = dropped;
        break;
      }
      dropped = `${pname(p.path[p.path.length - 1])}: ${why(mine)}`;
      p.path.pop();
    }
    document.body.dataset.plotPath = p.path.join("-");
    this.app.renderSoon();
  }

  async finishPlot() {
    const p = this.plot;
    await p.queue;                  // (the last click's verdict first: its joins, its steps)
    if (this.plot !== p) return;
    const o = this.plotOrder(p);
    this.plot = null;
    this.app.select(null);
    const at = this.editing(p);
    if (at !== null) {                // (an edit: in its place on the sheet, 004 [17.0]: the moves
      this.draft[at] = o;             // are carried out in the sequence listed)
      this.save();
      this.app.renderSoon();
    } else {
      this.add(o);
    }
  }

  // -- the panel ---------------------------------------------------------------------------------------------
  build() {
    const app = this.app;
    const v = this.view;
    const pv = v.postal;
    const el = h("div.orders-body.postal");
    const marks = { moves: {}, targets: new Set(), attackers: new Set(), candidates: new Set(), path: null, force: null,
                    arrows: [], blasts: [], reach: null };
    if (app.lastError) {
      el.append(h("div.refusal", { role: "alert" }, h("strong", "Refused: "), app.lastError.message,
        app.lastError.rule ? h("span.rule", ` (${app.lastError.rule})`) : null,
        h("button.link", { type: "button", onclick: () => { app.lastError = null; app.render(); } }, "dismiss")));
    }
    if (app.st.status === "open") {        // (the game waits for its players: no sheet yet, the notifications already)
      el.append(waitingForPlayers(app), this.optionsCard() || "");     // (none for a watcher: QA saw "null")
      return { el, marks };
    }
    const over = app.st.status === "over" || v.phase === "over";
    const at = this.deadlines[this.phaseKey];
    el.append(h("section.card.postal-phase",
      h("h3", over ? "Game over" : `Game-Turn ${v.turn}: ${PHASE_LABEL[pv.phase] || PHASE_NAMES[pv.phase] || pv.phase}`),
      over ? null : h("p.deadline", at ? ["Orders due: ", h("span.countdown", { dataset: { at: String(at) } }, fmtLeft(at - Date.now()))]
        : (app.st.info || {}).deadline ? `Sheets are due ${fmtSpan(app.st.info.deadline)} after a phase opens.`
          : "No deadline: the phase closes when every sheet is in."),
      over ? null : h("p.submitted", "Sheets in: ",
        v.seats.map((s) => h("span.sub" + ((pv.submitted || []).includes(s) ? ".in" : ".out"), { dataset: { seat: s },
          title: (pv.submitted || []).includes(s) ? `${s} has sent a sheet` : `${s}'s sheet is awaited` }, seatBadge(s), (pv.submitted || []).includes(s) ? "✓" : "…")))));
    const seat = app.seat;
    const rec = (app.st.seats || {})[seat] || {};
    if (seat && rec.disorder) {
      el.append(h("section.card.disorder", { role: "alert" }, h("h3", "Your seat is in civil disorder"),
        h("p", rec.missed === 1 ? "You missed the last deadline: your bot plays this seat."
          : `You missed ${rec.missed || "several"} deadlines in a row: your bot plays this seat.`),
        h("button.btn.primary", { type: "button", dataset: { act: "reclaim" }, onclick: () => this.reclaim() }, "Take my seat back")));
    }
    if (seat && !over && pv.phase) {
      this.syncDraft();
      const builders = this.builders(marks);
      if (this.plot) el.append(builders.shift());       // (the move being plotted first, beside the map)
      el.append(this.sheetCard(), ...builders);
    }
    el.append(this.reportCard(marks), this.optionsCard() || "");
    this.drawDraft(marks);
    if (this.plot) {
      marks.path = [this.plot.from, ...this.plot.path];
      marks.reach = this.plot.routes;          // (where it may go on to; each step is judged)
      marks.reachFrom = marks.path[marks.path.length - 1];
    }
    return { el, marks };
  }

  sheetCard() {
    const pv = this.view.postal;
    const sent = (pv.submitted || []).includes(this.app.seat);
    const checked = this.verdicts && this.verdicts.key === JSON.stringify(this.draft) ? this.verdicts.orders : null;
    const move = (i, d) => {
      const j = i + d;
      if (j < 0 || j >= this.draft.length) return;
      [this.draft[i], this.draft[j]] = [this.draft[j], this.draft[i]];
      this.save();
      this.app.renderSoon();
    };
    const list = h("ol.draft", this.draft.map((o, i) => {
      const vd = checked && checked[i];
      return h("li.draft-order" + (vd ? (whole(vd) ? ".ok" : ".bad") : ""), { dataset: { order: o.order, index: i } },
        h("span.d-text", describe(o, (u) => (stackOf(this.view, u) || {}).province)),
        vd && !whole(vd) ? h("span.d-why", ` — ${verdictHead(o, vd)}: ${placeNames(vd.message)} (${vd.rule})`) : null,
        h("span.d-tools",
          h("button.icon", { type: "button", title: "Up", "aria-label": "Move up", onclick: () => move(i, -1) }, "↑"),
          h("button.icon", { type: "button", title: "Down", "aria-label": "Move down", onclick: () => move(i, 1) }, "↓"),
          h("button.icon", { type: "button", title: "Edit", "aria-label": "Edit", dataset: { act: "edit-order" }, onclick: () => this.edit(i) }, "✎"),
          h("button.icon", { type: "button", title: "Delete", "aria-label": "Delete", dataset: { act: "delete-order" }, onclick: () => {
            this.draft.splice(i, 1);
            this.save();
            this.app.renderSoon();
          } }, "✕")));
    }));
    const rejected = pv.rejected || [];
    const changed = sent && this.changedSinceSent();
    const last = this.lastToSend();
    return h("section.card.sheet-card",
      h("h3", "Your order sheet", sent && !changed ? h("span.sent-badge", { dataset: { sent: "1" } }, " — sent ✓") : null),
      changed ? h("p.unsent-badge", { role: "status" }, "Changed since you sent it: the sheet you sent counts until you send it again.") : null,
      // (QA: a draft plotted and never sent went at the deadline without a word)
      !sent && this.draft.length ? h("p.unsent-badge.never", { role: "status" },
        "Not sent yet: a draft counts for nothing until it is sent; at the deadline a stand-in's sheet is used instead.") : null,
      this.draft.length ? list : h("p.small", "No orders yet. Plot moves on the map, or add orders below; an empty sheet is a valid sheet."),
      rejected.length ? h("div.rejected", h("strong", "Refused when sent: "), rejected.map((r) => h("div", `#${r.index + 1} ${r.order}: ${placeNames(r.message)} (${r.rule})`))) : null,
      h("div.row",
        h("button.btn.primary", { type: "button", dataset: { act: "send-sheet" }, disabled: this.app.busy, onclick: () => this.confirmSend(checked) },
          sent ? "Send again (replaces the last)" : "Send the sheet")),
      last ? h("p.small.last-note", "The other players' sheets are in: sending yours carries out the phase at once, and it cannot be changed after.") : null);
  }

  /** Whether the draft differs from the sheet the server holds (sent from this page: the draft
   *  as it was sent, while the server still holds that sheet; else the server's own sheet, which
   *  a draft taken from it equals). */
  changedSinceSent() {
    const pv = this.view.postal;
    const draft = JSON.stringify(this.draft);
    const mark = this.sentMark;
    if (mark && (mark.server === null || mark.server === JSON.stringify(pv.sheet || []))) return draft !== mark.draft;
    return draft !== JSON.stringify(this.serverSheet());
  }

  /** Whether every other player's sheet is in: this seat's closes the phase when sent. */
  lastToSend() {
    const pending = this.app.st.pending || [];
    return pending.length === 1 && pending[0].seat === this.app.seat;
  }

  /** Send the sheet; when it closes the phase at once and orders of it are refused or cut short,
   *  ask first (they cannot be mended after). */
  async confirmSend(checked) {
    if (!this.lastToSend()) return this.send();
    const key = JSON.stringify(this.draft);
    if (!checked || !this.verdicts || this.verdicts.key !== key) {       // (clicked before the verdict came)
      await this.check();
      checked = this.verdicts && this.verdicts.key === key ? this.verdicts.orders : null;
    }
    const bad = (checked || []).filter((vd) => vd && !whole(vd)).length;
    if (!bad) return this.send();
    modal("Send the sheet now?", h("p", `${bad} of your orders ${bad === 1 ? "is" : "are"} refused, cut short or in doubt (marked in red). `
      + "The other players' sheets are in, so sending carries out the phase at once: the sheet cannot be changed after."),
    [{ label: "Keep editing" }, { label: "Send it as it is", kind: "primary", dataset: { act: "confirm-send" }, onclick: () => { this.send(); } }]);
  }

  /** The draft's moves on the map, each as far as the engine would take it (check's `path`). */
  drawDraft(marks) {
    const checked = this.verdicts && this.verdicts.key === JSON.stringify(this.draft) ? this.verdicts.orders : null;
    marks.plans = [];
    if (!checked || this.at !== null) return;
    this.draft.forEach((o, i) => {
      const vd = checked[i];
      const st = o.order === "move" && vd && vd.ok && this.view.stacks.find((x) => x.units.includes(o.unit));
      if (st && vd.path && vd.path.length && !(this.plot && this.plot.was === o)) {     // (not the one being changed)
        marks.plans.push({ path: [st.province, ...vd.path], rail: !!o.rail, index: i });
      }
    });
  }

  edit(i) {
    const o = this.draft[i];
    if (o.order === "move") {
      // (the order stays on the sheet, in its place, until the edit is added; Cancel leaves it as it was)
      const st = this.view.stacks.find((s) => s.units.includes(o.unit));
      this.plot = { unit: o.unit, stack: st ? st.id : null, from: st ? st.province : (o.path || [])[0], path: [...(o.path || [])],
                    rail: !!o.rail, join: [].concat(o.join || []), pick: { ...(o.pick || {}) }, drop: { ...(o.drop || {}) },
                    problem: null, routes: null, offers: null, queue: Promise.resolve(), busy: 0, was: o };
      this.plotTask(this.plot, () => this.recheck());   // (the engine's offers and reach for it, the path as far as it goes)
      this.app.renderSoon();
      return;
    }
    const ta = h("textarea.order-json", { rows: 10, "aria-label": "The order", spellcheck: "false" }, JSON.stringify(o, null, 1));
    const why = h("p.order-json-error", { role: "alert" });
    modal("Edit the order", h("div", h("p.small", "The order as the sheet holds it (JSON); the engine judges it when kept."), ta, why),
      [{ label: "Cancel" }, { label: "Keep", kind: "primary", dataset: { act: "keep-order" }, onclick: () => {
        let order;
        try {
          order = JSON.parse(ta.value);
        } catch (e) {
          why.textContent = `Not an order yet: ${e.message}. Mend it, or Cancel.`;   // (the dialog stays, the text too)
          return true;
        }
        if (!order || typeof order !== "object" || Array.isArray(order) || typeof order.order !== "string") {
          why.textContent = 'An order is an object with its kind in "order", e.g. {"order": "trade", ...}.';
          return true;
        }
        this.draft[i] = order;
        this.save();
        this.app.renderSoon();
        return undefined;
      } }]);
  }

  /** A card for each kind of order the engine offers this phase's sheet (``view.postal.kinds``,
   *  rcw.postal.sheets.open_kinds: e.g. no purge in a Second Phase after one in the First). */
  builders(marks) {
    const kinds = new Set(this.view.postal.kinds || []);
    const out = [];
    if (kinds.has("move")) out.push(this.plotCard());
    if (kinds.has("attack")) out.push(this.attackCard(marks));
    if (kinds.has("assassinate")) out.push(this.kept("assassin", () => this.assassinCard()));
    if (kinds.has("purge")) out.push(this.kept("purge", () => this.purgeCard()));
    if (kinds.has("trade")) out.push(this.kept("trade", () => this.tradeCard()));
    if ([...kinds].some((k) => !OWN_CARDS.has(k))) out.push(this.kept("more", () => this.moreCard()));
    return out;
  }

  /** The order kinds of this phase that have no card of their own (QA: the Czar's execution, the
   *  end-game vote, the answer to a redraw and the rest could be written only as JSON), each as
   *  a form built from the engine's fields for it (data.json ``postal_orders``, rcw.postal.KINDS);
   *  the engine's check judges the order once added. */
  moreCard() {
    const v = this.view;
    const me = this.app.seat;
    const kinds = (v.postal.kinds || []).filter((k) => !OWN_CARDS.has(k) && D.postal_orders[k]);
    // the units a field may name: the engine's (view.postal.choices, PostalGame.order_choices:
    // judged by the check the order gets), never every unit on the map (QA)
    const choices = v.postal.choices || {};
    const unitOpt = (u) => {
      const st = stackOf(v, u);
      return h("option", { value: String(u) }, st ? `${uname(u)} (${st.owner || "no one"}, ${st.province})` : uname(u));
    };
    const units = (kind, name, multiple) => {
      const allowed = (choices[kind] || {})[name];
      if (!allowed) return h("span.none", { dataset: { none: "1" } }, "not offered now");
      if (!allowed.length) return h("span.none", { dataset: { none: "1" } }, NONE_WORDS[`${kind}.${name}`] || "none may be named now");
      const mine = allowed.filter((u) => (stackOf(v, u) || {}).owner === me);
      const others = allowed.filter((u) => (stackOf(v, u) || {}).owner !== me);
      return h("select", multiple ? { multiple: true, size: Math.min(4, allowed.length) } : {},
        mine.length ? h("optgroup", { label: "Yours" }, mine.map(unitOpt)) : null,
        others.length ? h("optgroup", { label: "Others'" }, others.map(unitOpt)) : null);
    };
    const seats = () => h("span.seat-picks", v.seats.filter((p) => !(v.quit || []).includes(p)).map((p) =>
      h("label.chk", h("input", { type: "checkbox", value: p, checked: p === me }), ` ${p}`)));
    const provinces = () => h("select", { multiple: true, size: 4 },
      Object.keys(D.provinces).sort((a, b) => pname(a).localeCompare(pname(b))).map((c) => h("option", { value: c }, `${pname(c)} (${c})`)));
    // one input per field, by its type (and name: seats and provinces are both lists of strings)
    const widget = (name, [type, dflt]) => {
      if (type === "bool") return h("input", { type: "checkbox", checked: !!dflt });
      if (type === "nat" || type === "pos" || type === "nat?") return h("input", { type: "number", min: type === "pos" ? 1 : 0, value: dflt ?? "" });
      if (type === "int") return units(kind.value, name, false);
      if (type === "ints") return units(kind.value, name, true);
      if (type === "strs") return name === "provinces" ? provinces() : seats();
      return h("input", { type: "text" });
    };
    const read = (el, [type]) => {
      if (type === "bool") return el.checked;
      if (type === "nat" || type === "pos" || type === "nat?") return el.value === "" ? null : Number(el.value);
      if ((type === "int" || type === "ints") && el.dataset.none) return type === "int" ? null : [];
      if (type === "int") return Number(el.value);
      if (type === "ints") return [...el.selectedOptions].map((o) => Number(o.value));
      if (type === "strs") return el.tagName === "SELECT" ? [...el.selectedOptions].map((o) => o.value)
        : [...el.querySelectorAll("input:checked")].map((c) => c.value);
      return el.value;
    };
    const kind = h("select", { "aria-label": "Order" }, kinds.map((k) => h("option", { value: k }, KIND_WORDS[k] || k)));
    const form = h("div.more-fields");
    let inputs = [];
    const show = () => {
      const spec = D.postal_orders[kind.value];
      inputs = Object.entries(spec.fields).map(([f, t]) => [f, t, widget(f, t)]);
      replace(form, h("p.small", `${spec.rule}`), inputs.map(([f, , el]) => h("div.row", h("label", `${FIELD_WORDS[f] || f} `, el))));
      // a kind with two unit fields: the second offers the partners the engine pairs with the
      // first (``pairs``: a Gold's leader may take only the Green units beside him)
      const pairs = (choices[kind.value] || {}).pairs;
      const [one, two] = inputs.map(([, , el]) => el);
      if (pairs && inputs.length === 2 && one.tagName === "SELECT" && two.tagName === "SELECT") {
        const sync = () => {
          const ok = new Set(pairs.filter(([x]) => x === Number(one.value)).map(([, y]) => y));
          for (const o of two.options) o.hidden = o.disabled = !ok.has(Number(o.value));
          if (!ok.has(Number(two.value))) two.value = String([...ok][0] ?? "");
        };
        one.addEventListener("change", sync);
        sync();
      }
      // (a field the order needs that nothing may fill: the order cannot be written now)
      add.disabled = inputs.some(([, [type, dflt], el]) => type === "int" && dflt === null && el.dataset.none);
    };
    const add = h("button.btn", { type: "button", dataset: { act: "add-more" }, onclick: () => {
      const o = { order: kind.value };
      for (const [f, t, el] of inputs) {
        const x = read(el, t);
        if (x !== null) o[f] = x;
      }
      this.add(o);
    } }, "Add");
    kind.addEventListener("change", show);
    if (kinds.length) show();
    return h("details.card.more-card", h("summary", "More orders"), h("div.row", kind), form, add);
  }

  /** The same card element for as long as the phase lasts (the position it offers cannot change
   *  before the phase closes): the panel is drawn again at every push and every order added, and
   *  a half-filled card keeps what the player chose, and stays open. */
  kept(name, make) {
    const pv = this.view.postal;
    const phase = `${this.app.seat}:${pv.turn}:${pv.phase}`;
    const before = this.cards ? this.cards.made : {};
    if (!this.cards || this.cards.phase !== phase) this.cards = { phase, made: {} };
    let card = this.cards.made[name];
    if (!card) {
      card = this.cards.made[name] = make();
      if (before[name] && before[name].open) card.open = true;     // (a card the player has open stays open)
    }
    return card;
  }

  plotCard() {
    const p = this.plot;
    if (!p) {
      return h("section.card.plot-card", h("h3", "Moves"),
        h("p.small", `${touchScreen() ? "Tap one of your stacks on the map (the Map tab)" : "Click one of your stacks on the map"}, then the provinces of its path one by one (pick-ups and drops on the way); the engine checks each step. A second ${tapWord()} on a stack plots the move of a leader it leaves behind.`));
    }
    const offers = p.offers || {};
    // who may move with him: the leaders the engine lets join the force as it starts (004 [5.26]),
    // each with the units attached to him
    const joins = (offers.join || []).length ? h("div.joins", h("span", "Moving with him: "), offers.join.map((j) => h("label.chk",
      h("input", { type: "checkbox", dataset: { join: String(j.leader) }, checked: p.join.includes(j.leader), onchange: (e) => {
        const on = e.target.checked;
        this.plotTask(p, () => {
          if (on) p.join.push(j.leader); else p.join.splice(p.join.indexOf(j.leader), 1);
          return this.recheck();
        });
      } }), uname(j.leader), j.with.length ? ` (${j.with.map(uname).join(", ")})` : ""))) : null;
    const along = [p.from, ...p.path];
    // pick-ups and drops: what the engine says the force may pick up and drop in each province of
    // its path (004 [5.13]); the order's own unit is the one it is of, never dropped from it here
    const offeredIn = (what, prov) => (offers[what] || {})[prov] || [];
    const named = distinctNames([...new Set([...along.flatMap((prov) => offeredIn("pick", prov)), ...along.flatMap((prov) => offeredIn("drop", prov))])]
      .filter((u) => u !== p.unit));
    const picks = along.map((prov) => {
      const here = offeredIn("pick", prov);
      if (!here.length) return null;
      return h("div.pick", h("span", `Pick up in ${pname(prov)}: `), here.map((u) => h("label.chk", h("input", { type: "checkbox", dataset: { pick: String(u), province: prov },
        checked: (p.pick[prov] || []).includes(u), onchange: (e) => {
          const on = e.target.checked;
          this.plotTask(p, () => {
            const l = (p.pick[prov] ||= []);
            if (on) l.push(u); else l.splice(l.indexOf(u), 1);
            return this.recheck();
          });
        } }), named.get(u))));
    });
    // (a leader offered to move with him is left in the start by unticking him above: his drops
    // are offered further on only; his units may be left there as he moves on)
    const joining = new Set((offers.join || []).map((j) => j.leader));
    const dropsAt = (u) => along.filter((prov) => offeredIn("drop", prov).includes(u) && !(prov === p.from && joining.has(u)));
    const moving = [...new Set(along.flatMap((prov) => offeredIn("drop", prov)))].filter((u) => u !== p.unit && dropsAt(u).length);
    const drops = moving.map((u) => h("label.drop", `Drop ${named.get(u)} in `, h("select", { dataset: { drop: String(u) }, onchange: (e) => {
      const where = e.target.value;
      this.plotTask(p, () => {
        for (const l of Object.values(p.drop)) if (l.includes(u)) l.splice(l.indexOf(u), 1);
        if (where) (p.drop[where] ||= []).push(u);
        return this.recheck();
      });
    } }, h("option", { value: "" }, "(keep)"), dropsAt(u)
      .map((prov) => h("option", { value: prov, selected: (p.drop[prov] || []).includes(u) }, pname(prov))))));
    return h("section.card.plot-card.plotting",
      h("h3", this.editing(p) === null ? `Plotting ${uname(p.unit)}'s move` : `Changing order #${this.editing(p) + 1}: ${uname(p.unit)}'s move`),
      p.problem ? h("p.plot-problem", { role: "alert" }, "Refused: ", p.problem) : null,
      p.unchecked ? h("p.plot-problem.unchecked", { role: "alert" }, "Not checked: ", p.unchecked, " (try again)") : null,
      h("p.plot-path", { dataset: { path: p.path.join("-") } }, [p.from, ...p.path].map(pname).join(" → "), ` (${tapWord()} the next province)`),
      // (offered where the engine says the force may go by rail, 004 [5.51]-[5.53]; or ticked already)
      offers.rail || p.rail ? h("label.chk", h("input", { type: "checkbox", dataset: { act: "rail" }, checked: p.rail, onchange: (e) => {
        const on = e.target.checked;
        this.plotTask(p, () => { p.rail = on; return this.recheck(); });
      } }),
        " by rail (004 [5.5]; otherwise overland)") : null,
      joins, picks, drops,
      h("div.row",
        h("button.btn.primary", { type: "button", dataset: { act: "add-move" }, disabled: !p.offers,
          title: p.offers ? null : "waiting for the engine's verdict", onclick: () => this.finishPlot() }, p.busy ? "Add to sheet (checking…)" : "Add to sheet"),
        h("button.btn", { type: "button", onclick: () => this.plotTask(p, () => {
          if (!p.path.length) return null;
          p.path.pop();
          return this.recheck();
        }) }, "Undo step"),
        h("button.btn", { type: "button", onclick: () => { this.plot = null; this.app.select(null); this.app.renderSoon(); } }, "Cancel")));
  }

  attackCard(marks) {
    const app = this.app;
    const opts = app.known("attack_options", { seat: app.seat });
    if (opts === undefined) app.ask("attack_options", { seat: app.seat }).then(() => app.renderSoon()).catch(() => {});
    const top = (id) => ((this.view.stacks.find((s) => s.id === id) || {}).units || [])[0];
    for (const o of opts || []) marks.targets.add(o.target);
    return h("section.card.attack-card", h("h3", "Attacks (the engine's odds)"),
      !opts ? h("p.small", "…") : !opts.length ? h("p.small", "No attack is possible from your stacks now.") :
        h("ul", opts.slice(0, 20).map((o) => h("li", { dataset: { target: String(o.target), possible: o.possible ? "1" : "0" } },
          `${pname(o.province)}: ${uname(top(o.target))}${o.subversive ? " (subversive)" : ""} — `,
          // a group the engine gives no odds column (below 1:2) may not make the attack (004 [8.47])
          o.groups.slice(0, 3).map((g) => h("button.btn.small", { type: "button", disabled: g.odds.column === null,
            title: g.odds.column === null ? "no attack may be made at less than 1:2 (004 [8.47])" : null,
            dataset: { act: "add-attack", target: String(o.target) }, onclick: () =>
              this.add({ order: "attack", target: top(o.target), attackers: g.stacks.map(top), subversive: o.subversive }) },
          `${g.stacks.map((s) => uname(top(s))).join(" + ")} at ${g.odds.label}`)),
          o.possible ? null : h("span.small.why", " whoever joins, no attack may be made at less than 1:2 (004 [8.47])")))));
  }

  assassinCard() {
    const v = this.view;
    const me = this.app.seat;
    const victims = v.stacks.filter((s) => s.owner && s.owner !== me).flatMap((s) => s.units.filter(isLeader));
    // (each with whose he is: QA could not tell)
    const at = (u) => v.stacks.find((s) => s.units.includes(u)) || {};
    const sel = h("select", { multiple: true, size: 4, "aria-label": "Victims" }, victims.map((u) => h("option", { value: String(u) }, `${uname(u)} (${at(u).owner}, ${at(u).province})`)));
    const held = (v.assassins || {})[me] || 0;
    const n = h("input", { type: "number", min: 1, max: 9, value: 1, "aria-label": "Markers" });
    return h("details.card.assassin-card", h("summary", "Assassination (postal [10.0])"),
      h("p.small.held", { dataset: { held: String(held) } }, `You hold ${held} Assassin marker${held === 1 ? "" : "s"} now.`),
      h("p.small", "Victims whose route meets the final province of one of your leaders (and/or); the engine judges it."), sel,
      h("label", " markers ", n),
      h("button.btn", { type: "button", dataset: { act: "add-assassination" }, onclick: () => {
        const vs = [...sel.selectedOptions].map((o) => Number(o.value));
        if (vs.length) this.add({ order: "assassinate", victims: vs, markers: Number(n.value) || 1 });
      } }, "Add"));
  }

  purgeCard() {
    const v = this.view;
    const me = this.app.seat;
    const target = h("select", { "aria-label": "Target" }, v.seats.filter((s) => s !== me).map((s) => h("option", { value: s }, `Seat ${s}`)));
    const parts = v.seats.map((s) => h("label.chk", h("input", { type: "checkbox", value: s, checked: s === me }), s));
    const markers = h("input", { type: "number", min: 0, max: 40, placeholder: "all", "aria-label": "Markers" });
    const odds = h("p.small.purge-odds");
    const chosen = () => parts.map((l) => l.firstChild).filter((c) => c.checked).map((c) => c.value);
    // the spoils wanted (004 [11.31]): a Politburo marker (0), or the target's leaders the engine
    // says may be purged (its purge odds' ``spoils``: Red leaders on the map; QA was offered
    // White ones, which the Gamesmaster then passed over in silence)
    const spoilsOf = () => {
      const sel = h("select", { multiple: true, size: 3, "aria-label": "Spoils" }, h("option", { value: "0" }, "a Politburo marker"));
      const who = target.value;
      this.app.ask("purge_odds", { purgers: [me], target: who }).then((a) => {
        if (target.value !== who) return;
        for (const u of (a && a.spoils) || []) sel.append(h("option", { value: String(u) }, uname(u)));
        sel.dataset.ready = "1";
      }).catch(() => { sel.dataset.ready = "1"; });
      return sel;
    };
    let spoils = spoilsOf();
    target.addEventListener("change", () => { const n = spoilsOf(); spoils.replaceWith(n); spoils = n; });
    const showOdds = () => {
      const ps = chosen();
      if (!ps.length) return;
      this.app.ask("purge_odds", { purgers: ps, target: target.value }).then((a) => {
        odds.textContent = a ? `Purge Strength ${a.strength}, column ${a.column}` : "";
      }).catch((e) => { odds.textContent = e.message; });
    };
    const counter = h("select", { "aria-label": "Counterpurge" }, h("option", { value: "strongest" }, "the strongest purger"),
      h("option", { value: "weakest" }, "the weakest purger"), v.seats.filter((s) => s !== me).map((s) => h("option", { value: s }, `Seat ${s}`)));
    return h("details.card.purge-card", h("summary", "Purge and counterpurge (postal [11.0])"),
      h("div.row", "Purge ", target, " with ", parts, " markers ", markers),
      h("div.row", "spoils wanted ", spoils),
      h("div.row", h("button.btn", { type: "button", onclick: showOdds }, "Odds"), odds),
      h("button.btn", { type: "button", dataset: { act: "add-purge" }, onclick: () => {
        const ps = chosen();
        const o = { order: "purge", target: target.value, participants: ps, shares: ps,
                    take: [...spoils.selectedOptions].map((x) => Number(x.value)) };
        if (markers.value !== "") o.markers = Number(markers.value);
        this.add(o);
      } }, "Add purge"),
      h("div.row", "If I am purged and roll C, counterpurge ", counter,
        h("button.btn", { type: "button", dataset: { act: "add-counterpurge" }, onclick: () => this.add({ order: "counterpurge", target: counter.value }) }, "Add")));
  }

  tradeCard() {
    const v = this.view;
    const me = this.app.seat;
    const withSel = h("select", { "aria-label": "With" }, v.seats.filter((s) => s !== me).map((s) => h("option", { value: s }, `Seat ${s}`)));
    const num = (label) => h("input", { type: "number", min: 0, max: 40, value: 0, "aria-label": label });
    const gp = num("Give Politburo"), ga = num("Give Assassins"), tp = num("Take Politburo"), ta = num("Take Assassins");
    // the leaders a trade may name: the hands the view shows (the engine's check judges the trade)
    const hands = Object.fromEntries(Object.entries(v.hands || {}).filter(([, us]) => us.some(isLeader)));
    const leaders = (seat, label) => h("select", { multiple: true, size: 3, "aria-label": label, dataset: { leaders: label } },
      (hands[seat] || []).filter(isLeader).map((u) => h("option", { value: String(u) }, uname(u))));
    const gl = leaders(me, "Give leaders");
    let tl = leaders(withSel.value, "Take leaders");
    withSel.addEventListener("change", () => { const n = leaders(withSel.value, "Take leaders"); tl.replaceWith(n); tl = n; });
    const picked = (sel) => [...sel.selectedOptions].map((o) => Number(o.value));
    // (the pre-season trades are 004 [15.33]'s; a phase's, postal [4.2]'s: QA saw [15.33] in every phase)
    return h("details.card.trade-card", h("summary", `Trades (${v.postal.phase === "trading" ? "004 [15.33]" : "postal [4.2]"})`),
      h("div.row", h("label.pair", "With ", withSel)),
      // (each number with its word, kept together where a phone wraps the row, and a side's
      // numbers in a column beside its word: QA saw them apart, and under "Give")
      h("div.row.trade-side", h("b", "Give"), h("span.trade-nums", h("label.pair", gp, " Politburo"), h("label.pair", ga, " Assassin"))),
      h("div.row.trade-side", h("b", "Take"), h("span.trade-nums", h("label.pair", tp, " Politburo"), h("label.pair", ta, " Assassin"))),
      Object.keys(hands).length ? h("div.row.trade-leaders", h("label.pair", "Give leaders ", gl), h("label.pair", "Take leaders ", tl)) : null,
      h("div.row",
        h("button.btn", { type: "button", dataset: { act: "add-trade" }, onclick: () => {
          this.add({ order: "trade", with: withSel.value,
            give_leaders: picked(gl), give_politburo: Number(gp.value) || 0, give_assassins: Number(ga.value) || 0,
            take_leaders: picked(tl), take_politburo: Number(tp.value) || 0, take_assassins: Number(ta.value) || 0 });
          // the trade is on the sheet: the form is blank again for the next one (the partner kept)
          for (const sel of [gl, tl]) for (const o of sel.options) o.selected = false;
          for (const n of [gp, ga, tp, ta]) n.value = 0;
        } }, "Add trade"),
        h("button.btn", { type: "button", dataset: { act: "add-gifts" }, onclick: () => this.add({ order: "accept_gifts" }) }, "Accept gifts")));
  }


  // -- reports and the archive -----------------------------------------------------------------------------
  reportCard(marks) {
    const n = this.reports.length;
    if (!n) return h("section.card.report-card", h("h3", "Reports"), h("p.small", "No phase has been adjudicated yet."));
    const i = this.at === null ? n - 1 : this.at;
    const r = this.reports[i];
    if (this.showReport && !this.plot) this.drawReport(r.report, marks);
    const go = (j) => {
      this.at = j >= n - 1 ? null : Math.max(0, j);
      this.app.renderSoon();
      this.app.renderBoard();
    };
    return h("section.card.report-card", { dataset: { turn: String(r.turn), phase: r.phase, index: String(i) } },
      h("h3", `Report: Game-Turn ${r.turn}, ${PHASE_LABEL[r.phase] || r.phase}`),
      h("div.archive.row",
        h("button.icon", { type: "button", "aria-label": "Earlier report", dataset: { act: "report-prev" }, disabled: i === 0, onclick: () => go(i - 1) }, "‹"),
        h("input.report-slider", { type: "range", min: 0, max: n - 1, value: i, "aria-label": "Reports, phase by phase", oninput: (e) => go(Number(e.target.value)) }),
        h("button.icon", { type: "button", "aria-label": "Later report", dataset: { act: "report-next" }, disabled: i === n - 1, onclick: () => go(i + 1) }, "›"),
        h("span.small", `${i + 1} of ${n}`),
        h("label.chk", h("input", { type: "checkbox", checked: this.showReport, onchange: (e) => { this.showReport = e.target.checked; this.app.renderSoon(); } }), " on the map")),
      this.at !== null ? h("p.small.archive-note", "The map shows the position after this phase. ",
        h("button.link", { type: "button", onclick: () => go(n - 1) }, "Back to now")) : null,
      h("pre.report-text", r.text));
  }

  /** The replay of a postal game: the archive from its first report, beside the map. */
  openArchive() {
    this.at = this.reports.length > 1 ? 0 : null;
    this.showReport = true;
    this.app.setTab("orders");
    this.app.render();
    const card = document.querySelector(".report-card");
    if (card) card.scrollIntoView({ block: "nearest" });
  }

  /** The report's moves as arrows and its combats as marks (js/board.js `arrows`, `blasts`). */
  drawReport(rep, marks) {
    marks.arrows = [];
    marks.blasts = [];
    for (const e of rep.happened || []) {
      if (e.kind === "move" && e.data) marks.arrows.push({ from: e.data.from, to: e.data.to, rail: !!e.data.rail, seat: e.data.seat });
      if (e.kind === "combat" && e.data) marks.blasts.push({ province: e.data.province, text: e.text, result: e.data.result });
    }
  }

  /** The board's view: the live one, or the position after the archive's report shown. */
  boardView(view) {
    if (this.at === null) return view;
    const rep = this.reports[this.at].report;
    const stacks = [];
    const strengths = {};        // the engine's strength of each stack as the report gives it, by the ids made here
    let id = -1;
    const add = (s, owner) => {
      strengths[String(id)] = s.strength;
      stacks.push({ id: id--, province: s.province, owner, units: s.units, attached: s.attached || {}, color: (unit(s.units[0]) || {}).color });
    };
    for (const [seat, list] of Object.entries(rep.stacks || {})) for (const s of list) add(s, seat);
    for (const s of rep.unaligned || []) add(s, null);
    this.boardStrengths = strengths;
    return { ...view, stacks, vp: rep.vp || view.vp, control: rep.control || view.control };
  }

  /** The strengths of the stacks :meth:`boardView` shows: a past report's own, or null (the live map's). */
  shownStrengths() {
    return this.at === null ? null : this.boardStrengths || {};
  }

  // -- absences and notifications ------------------------------------------------------------------------------
  /** The Pauses and notifications card: made once for the seat and kept across the panel's
   *  renders (QA: rebuilt at every push, it closed under the player's hands and dropped the address
   *  being typed), its inputs set again only when the seat's settings change (saved here, in
   *  another tab, or the address confirmed by its link: the server's `notify` push). */
  optionsCard() {
    const app = this.app;
    if (!app.seat) return null;
    let o = this.options;
    if (!o || o.seat !== app.seat) o = this.options = { seat: app.seat, shown: null, ...this.makeOptionsCard() };
    const prefs = app.notifyPrefs || {};
    const key = JSON.stringify(prefs);
    if (o.shown !== key) {
      o.shown = key;
      o.set(prefs);
    }
    if (o.browserNotify) o.browserNotify.hidden = typeof Notification === "undefined" || Notification.permission === "granted";
    return o.card;
  }

  makeOptionsCard() {
    const app = this.app;
    const email = h("input", { type: "email", placeholder: "you@example.org", "aria-label": "E-mail address" });
    const status = h("span.small.email-status");
    const wants = ["report", "due", "decision", "message", "absence"];
    const boxes = wants.map((w) => h("input", { type: "checkbox", value: w }));
    const hours = h("input", { type: "number", min: 0, max: 720, step: "any", "aria-label": "Hours before the deadline" });
    const pause = h("input", { type: "number", min: 0.1, step: "any", value: 24, "aria-label": "Pause (hours)" });
    const allowed = (app.st.info || {}).pause;
    const set = (prefs) => {
      email.value = prefs.email || "";
      status.textContent = !prefs.email ? "" : prefs.verified ? " (confirmed)" : " (check your mail for the confirmation link)";
      boxes.forEach((b) => { b.checked = (prefs.want || wants).includes(b.value); });
      hours.value = prefs.due_hours !== undefined ? prefs.due_hours : 12;
    };
    const browserNotify = typeof Notification !== "undefined" ? h("button.btn", { type: "button", dataset: { act: "browser-notify" },
      onclick: () => Notification.requestPermission().then(() => app.renderSoon()) }, "Notify me in this browser") : null;
    const card = h("details.card.absence-card", h("summary", "Pauses and notifications"),
      allowed ? h("div.row", "Pause the game for ", pause, " hours ",
        h("button.btn", { type: "button", dataset: { act: "pause" }, onclick: async () => {
          const h_ = Number(pause.value);
          if (!(h_ > 0)) {            // (QA read the server's "'seconds' must be a number of seconds" for hours)
            toast("A pause is a number of hours above 0.", "error");
            return;
          }
          try {
            const r = await app.conn.request("pause", { seconds: h_ * 3600 });
            toast(`Every deadline moved ${fmtExact(Number(pause.value) * 3600)} later; you may pause ${fmtExact(r.left)} more`, "ok");
          } catch (e) { app.showError(e); }
        } }, "Pause")) : h("p.small", "The creator allows no pauses in this game."),
      h("div.row", "E-mail ", email, status),
      // (in words: QA read the protocol's names "report, due, decision, message, absence")
      h("div.row", boxes.map((b) => h("label.chk", { dataset: { want: b.value } }, b, ` ${WANT_WORDS[b.value]}`)),
        " (orders due ", hours, " h before the deadline)"),
      h("div.row",
        h("button.btn", { type: "button", dataset: { act: "save-notify" }, onclick: async () => {
          try {
            const r = await app.conn.request("notify", { email: email.value.trim() || null, want: boxes.filter((c) => c.checked).map((c) => c.value),
              due_hours: Number(hours.value) || 0 });
            app.notifyPrefs = r.notify;
            toast(r.notify.email && !r.notify.verified ? "Saved: open the link we e-mailed you to confirm the address" : "Saved", "ok");
            app.renderSoon();
          } catch (e) { app.showError(e); }
        } }, "Save"),
        browserNotify));
    return { card, set, browserNotify };
  }

  async reclaim() {
    try {
      await this.app.conn.request("reclaim", {});
      toast("Your seat is yours again", "ok");
    } catch (e) {
      this.app.showError(e);
    }
  }
}
