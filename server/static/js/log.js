// The event log: engine events turned into lines a player reads ("Wrangel (C) moves ASTR→EKAT by
// rail with 3 units"; "Purge of B by A+E: strength 29, roll 2, 3 points"), rebuilt from the
// server's `events` history on every (re)connection, and the replay caption.

import { h, store, clear, toast, followBottom, membersKey } from "./util.js";
import { D, uname, unit } from "./data.js";

export const RESULT_WORDS = { De: "defender eliminated", Ae: "attacker eliminated", Ex: "exchange" };
const MAX_SHOWN = 3000; // lines kept in the page (the oldest go first)
/** The game's own events, no player's: the Interphase's (004 [4.2] B) and the game's end. */
const GAME_EVENTS = new Set(["turn", "sequence", "replaced", "replacement_blocked", "game_over"]);
/** The events of a purge's course other than its approvals (:meth:`EventLog._purged`). */
const PURGE_EVENTS = new Set(["purge_declared", "purge_rejected", "purge", "purge_cancelled"]);
/** Whether ``frame``'s events are a postal phase's adjudication (the Gamesmaster's work). */
const adjudication = (frame) => frame.action === "SubmitOrders" || frame.action === "ClosePhase";

/** The strategy tables' short names (004's "Solitaire for Fanatics") that the bots' reasons
 *  and chat use, spelled out on hover, and in a toast on a tap, a click or Enter (they take the
 *  keyboard's focus). */
export const TABLE_WORDS = {
  PIT: "Political Indicator Table: each player's Red and White leaders' strength",
  PCM: "Political Control Marker: Red leaders' strength minus White leaders' (below 1: White; above a band of Undecided that narrows each Game-Turn and is gone from Game-Turn 6: Red)",
  PCT: "Player Cooperation Table: how friendly a bot is to another player, 2 (friendliest) to 7 (most hostile)",
  SDT: "Strategy Determination Table: a bot's roll for how many attacks it makes this Player-Turn, and at what odds",
  APT: "Attack Priority Table: the order in which a bot of its colour picks its targets",
  VST: "Vindictive Strategy Table: which player a vindictive bot attacks",
};
const TABLE_RE = new RegExp(`\\b(${Object.keys(TABLE_WORDS).join("|")})\\b`);

/** ``text`` as nodes, each table's short name an <abbr> that spells it out. */
export function glossed(text) {
  const parts = String(text).split(TABLE_RE);
  if (parts.length === 1) return text;
  const tell = (s) => toast(s, "info", TABLE_WORDS[s]);
  return parts.map((s, i) => (i % 2 ? h("abbr", { title: TABLE_WORDS[s], tabindex: 0, onclick: () => tell(s),
    onkeydown: (e) => { if (e.key === "Enter") tell(s); } }, s) : s));
}

export class EventLog {
  constructor(gid) {
    this.gid = gid;
    this.lines = [];           // {seq, turn, cls, text, seat}
    this.force = null;         // the force being moved: {seat, names, start, rail, n}
    this.lastSeq = 0;          // every action up to this one is in the log
    this.turn = 1;
    this.pturn = null;         // whose Player-Turn it is (its player_turn event)
    this.queued = new Map();   // updates that arrived before the history behind them
    this.fates = new Map();    // trade offer id -> {fate: "accepted" | "declined" | "withdrawn", by: seat}
    // seat -> its Committee consents in order: {seq, members (sorted, joined; "" none), own (its
    // own consent, not the rest's rewritten by another's withdrawal, 004 [11.12])}
    this.consents = new Map();
    // purge declaration seq -> {target, answers: {seat: approved}, over: null | how it ended}: a
    // purge card follows the game (QA: approved from the Orders panel, it still asked for an answer)
    this.purges = new Map();
    this.onFate = null;        // told of each offer settled, and of each consent (null): the chat's cards follow the game
    this.onFrame = null;       // told of every frame taken, in order: the history's and the live ones
    this.loading = null;
    store.remove("log:" + gid); // (earlier versions kept the log in localStorage)
  }

  /**
   * After (re)connecting at `seq`: fetch what happened since the last action in the log from
   * the server (`events`, docs/protocol.md), so a reloaded page, a new device or a spectator
   * arriving mid-game reads the whole game.  Calls are chained; resolves when the log is current.
   */
  catchUp(conn, seq) {
    const run = async () => {
      if (this.lastSeq > seq) {     // cannot happen with one game id; start again if it does
        this.lines = [];
        this.fates.clear();
        this.consents.clear();
        this.purges.clear();
        this.lastSeq = 0;
        this.force = null;
        this.setupTaken = false;
      }
      try {
        while (this.lastSeq < seq || (this.lastSeq === 0 && !this.setupTaken)) {
          const r = await conn.request("events", { after: this.lastSeq, limit: 500 });
          if (this.lastSeq === 0 && !this.setupTaken && r.setup && r.setup.length) {   // how the game was set up
            this.setupTaken = true;
            this._take({ seq: 0, actor: null, events: r.setup });
          }
          let took = 0;
          for (const e of r.entries || []) {
            if (e.seq === this.lastSeq + 1) {
              this._take(e);
              took++;
            }
          }
          this._drain();
          if (!took || r.last <= this.lastSeq) break;
        }
      } catch (e) {
        // no history from this server: say so, and go on from here
        if (this.lastSeq < seq) {
          const n = seq - this.lastSeq;
          this.lines.push({ seq, turn: this.turn, cls: "gap",
            text: `… ${n} earlier action${n > 1 ? "s" : ""} not shown (${e && e.message ? e.message : "no history"})` });
          this.lastSeq = seq;
          this.force = null;
          this._drain();
        }
      }
    };
    this.loading = (this.loading || Promise.resolve()).then(run, run);
    return this.loading;
  }

  /** One `update` frame: returns the new lines (none while the history before it is missing). */
  add(frame) {
    if (frame.seq <= this.lastSeq) return [];
    if (frame.seq > this.lastSeq + 1) {
      this.queued.set(frame.seq, frame);
      return [];
    }
    const n = this.lines.length;
    this._take(frame);
    this._drain();
    return this.lines.slice(n);
  }

  _take(frame) {
    // (a postal phase is adjudicated by the Gamesmaster, whoever's sheet closed it: its lines are
    // the GM's unless an event names its seat; QA saw them all badged with the last sender)
    const actor = adjudication(frame) ? "GM" : frame.actor || null;
    const push = (cls, text, extra = {}) => this.lines.push({ seq: frame.seq, turn: this.turn, cls, text, seat: actor, ...extra });
    // a bot's reasons ("B: Attack Consideration: rolled 4, PCT 3", what rcw solo prints with *), before what it did
    for (const w of frame.why || []) {
      const m = /^([A-F]): (.*)$/s.exec(w);
      push("why", m ? m[2] : w, { seat: m ? m[1] : frame.actor || null });
    }
    for (const e of frame.events || []) this._event(e, frame, push);
    this.lastSeq = frame.seq;
    if (this.onFrame) this.onFrame(frame);
  }

  /** A trade offer's fate as the game's events tell it, whichever way it was answered (a chat
   *  card, the Orders panel, a bot, a deadline). */
  _settled(e, frame) {
    const fate = { trade: "accepted", trade_declined: "declined", trade_withdrawn: "withdrawn" }[e.kind];
    const d = e.data || {};
    const id = d.offer && typeof d.offer === "object" ? d.offer.id : d.offer;
    if (!fate || id == null) return;
    this.fates.set(id, { fate, by: e.kind === "trade" ? d.offer.to : frame.actor || null });
    if (this.onFate) this.onFate(id);
  }

  /** A Committee consent given or withdrawn, as the game's events tell it: the seat's own, and
   *  the remaining members' rewritten to name the rest (004 [11.12]). */
  _consented(e, frame) {
    const d = e.data || {};
    const note = (seat, members, own) => {
      if (!this.consents.has(seat)) this.consents.set(seat, []);
      this.consents.get(seat).push({ seq: frame.seq, members: members ? membersKey(members) : "", own });
    };
    if (!d.seat) return;
    note(d.seat, e.kind === "committee_consent" ? d.members : null, true);
    for (const p of d.rest || []) note(p, d.rest, false);
    if (this.onFate) this.onFate(null);      // (the chat's Committee cards follow the game too)
  }

  /** A purge declared, answered, rolled or lapsed, as the game's events tell it (004 [11.2]). */
  _purged(e, frame) {
    const d = e.data || {};
    const key = (x) => `${x.target}:${(x.purgers || []).join(",")}`;      // (a purge: its target and its purgers)
    if (e.kind === "purge_declared") {
      this.purges.set(frame.seq, { key: key(d), answers: {}, over: null });
    } else {
      // (the purge a roll or a lapse is of: the open one of its target and purgers; an answer is
      // to the latest declared, the one whose approval is asked)
      const open = [...this.purges.values()].filter((x) => !x.over);
      const rec = e.kind === "purge_approved" || e.kind === "purge_rejected" ? open[open.length - 1]
        : open.find((x) => x.key === key(e.kind === "purge_cancelled" ? d.purge || {} : d));
      if (!rec) return;
      if (e.kind === "purge_approved" || e.kind === "purge_rejected") rec.answers[d.seat] = e.kind === "purge_approved";
      if (e.kind === "purge_rejected") rec.over = `called off by ${d.seat}`;
      else if (e.kind === "purge") rec.over = "made: its roll is in the log";
      else if (e.kind === "purge_cancelled") rec.over = "called off: it lapsed";
    }
    if (this.onFate) this.onFate(null);      // (the chat's purge cards follow the game)
  }

  /** What the game's log tells of the purge declared at ``seq``: ``{answers, over}``, or undefined. */
  purgeAt(seq) {
    return this.purges.get(seq);
  }

  /** What the game's log tells of the chat proposal ``p`` however it was answered (a chat card,
   *  the Orders panel, a bot, a deadline): ``{answers: {seat: bool}, fate, purge}``: a trade's
   *  fate (accepted or declined by its addressee, or withdrawn), the Committee's addressees who
   *  joined it after it was proposed, a purge's approvals and its end (made, called off,
   *  lapsed).  QA: cards answered from the Orders panel still asked for an answer. */
  answersTo(p) {
    const answers = {};
    let fate;
    let purge;
    if (p.kind === "trade") {
      fate = this.fates.get(p.offer);
      if (fate && (fate.fate === "accepted" || fate.fate === "declined") && fate.by) answers[fate.by] = fate.fate === "accepted";
    } else if (p.kind === "committee" && p.seq != null) {
      for (const s of p.addressees || []) if (this.joinedAfter(s, p.members, p.seq)) answers[s] = true;
    } else if (p.kind === "purge" && p.seq != null) {
      purge = this.purgeAt(p.seq);
      if (purge) Object.assign(answers, purge.answers);
    }
    return { answers, fate, purge };
  }

  /** Whether ``seat``'s standing consent is one the game rewrote (a member of its Committee
   *  withdrew, and it names those who stayed, 004 [11.12]) rather than one it gave. */
  consentRewritten(seat) {
    const cs = this.consents.get(seat) || [];
    const last = cs[cs.length - 1];
    return !!(last && !last.own && last.members);
  }

  /** Whether ``seat`` has consented of itself to a Committee of exactly ``members`` after ``seq``. */
  joinedAfter(seat, members, seq) {
    const key = membersKey(members);
    return (this.consents.get(seat) || []).some((c) => c.own && c.seq > seq && c.members === key);
  }

  /** Whether ``seat``'s consent changed from ``members`` after ``seq`` (withdrawn, given to
   *  another Committee, or rewritten by a member's withdrawal): an invitation of its then is over,
   *  even if it consents to the same again later.  (A consent no event tells of, or one in a gap
   *  of the log, is not known here: the chat's card asks the engine while this says no.) */
  leftAfter(seat, members, seq) {
    const key = membersKey(members);
    return (this.consents.get(seat) || []).some((c) => c.seq > seq && c.members !== key);
  }

  _drain() {
    for (const k of [...this.queued.keys()]) if (k <= this.lastSeq) this.queued.delete(k);
    while (this.queued.has(this.lastSeq + 1)) {
      const f = this.queued.get(this.lastSeq + 1);
      this.queued.delete(f.seq);
      this._take(f);
    }
  }

  _event(e, frame, pushAs) {
    const d = e.data || {};
    const view = frame.view || {};
    // A line is credited to the player the event names (the purger, the attacker, the drawer),
    // not to whoever sent the action that set it off (e.g. the last member approving a purge).
    if (e.kind === "player_turn") this.pturn = d.seat;
    // (the SPI solitaire: a marker Red draws goes to N; and the engine plays the non-Red
    // Player-Turn, N's, inside Red's last action: its attacks and losses are N's, not Red's)
    // (the game's own events - the Game-Turn, the order of play, replacements, the end - are no
    // player's: QA saw them badged with the last to act, whose action set them off, and in the
    // solitaire with N, whose Player-Turn the engine had just played)
    const none = GAME_EVENTS.has(e.kind);
    // (a purge's end is its purgers', not the last approver's or the last taker's: QA)
    const purgers = e.kind === "purge_cancelled" ? (d.purge || {}).purgers : d.purgers;
    const by = none ? null : ["purge", "counterpurge", "purge_resolved", "purge_cancelled"].includes(e.kind) ? (purgers || [])[0]
      : (d.drawn_by || d.seat || (this.pturn === "N" ? "N" : null));
    const push = (cls, text, extra = {}) => pushAs(cls, text, typeof by === "string" && by ? { seat: by, ...extra } : none ? { seat: null, ...extra } : extra);
    switch (e.kind) {
      case "turn":
        this.turn = d.turn;
        push("turn", `Game-Turn ${d.turn}`);
        return;
      case "sequence":
        push("system", e.text);
        return;
      case "player_turn":
        push("pturn", `${d.seat}'s Player-Turn`);
        return;
      case "phase":
        push("minor", e.text);
        return;
      case "force": {
        // (the force is named by its leaders, or by its first unit; "with N units": the others, as
        // the Orders panel's "Lenin + 1 unit")
        const units = d.units || [];
        const leaders = units.filter((u) => unit(u) && unit(u).kind === "leader");
        const named = leaders.length ? leaders : units.slice(0, 1);
        this.force = { seat: d.seat, names: named.map(uname), named: new Set(named), start: d.province, rail: null,
          stack: null, n: units.length - named.length };
        return;
      }
      case "force_join":
        if (this.force) {
          this.force.names.push(uname(d.leader));
          this.force.named.add(d.leader);
          this.force.n = null;    // his attached units come too; the event does not list them
        }
        push("minor", e.text);
        return;
      case "attach":
        if (this.force && this.force.n !== null) this.force.n += 1;
        push("minor", e.text);
        return;
      case "detach":
        if (this.force && this.force.n !== null) this.force.n -= (d.units || []).length;
        push("minor", e.text);
        return;
      case "move":
        if (this.force) {
          this.force.rail = d.rail;
          this.force.stack = d.stack;
        }
        return;
      case "stop":
        push("minor", e.text);
        return;
      case "force_done": {
        const route = d.route || [];
        const f = this.force || { seat: frame.actor, names: [], named: new Set(), rail: null };
        const st = (view.stacks || []).find((x) => x.id === d.stack);
        // (the force's own count when the log kept it: a postal report's view is the phase's end,
        // after later merges, QA read "with 3 units" of a leader with one)
        const own = adjudication(frame) && this.force && this.force.n !== null;
        const n = own ? this.force.n : st ? st.units.filter((u) => !f.named.has(u)).length : this.force ? this.force.n : null;
        const who = `${f.names.join(", ") || "A force"} (${f.seat || frame.actor})`;
        const mover = f.seat ? { seat: f.seat } : {};       // (the force's owner: the GM moved it by his order)
        if (route.length <= 1) {
          push("move", `${who} stays in ${route[0] || "place"}${n ? ` with ${n} unit${n > 1 ? "s" : ""}` : ""}`, mover);
        } else {
          const via = route.slice(1, -1);
          const how = f.rail ? "by rail" : "overland";
          const viaText = via.length ? ` via ${via.join(", ")}` : "";
          push("move", `${who} moves ${route[0]}→${route[route.length - 1]} ${how}${n ? ` with ${n} unit${n > 1 ? "s" : ""}` : ""}`,
            { title: `route ${route.join("→")}${viaText ? "" : ""}`, ...mover });
        }
        this.force = null;
        return;
      }
      case "combat":
      case "roving": {              // (001 Anarchists: Makhno's Roving Attack)
        const words = RESULT_WORDS[d.result] ? ` (${RESULT_WORDS[d.result]})` : "";
        push("combat", `${e.text}${words}`);
        return;
      }
      case "purge":
      case "counterpurge": {
        if (e.kind === "purge") this._purged(e, frame);
        const dice = d.dice || [];
        const roll = dice.reduce((a, b) => a + b, 0);
        const what = d.result === "C" ? "Counterpurge!" : `${d.result} point${d.result === "1" ? "" : "s"}`;
        const name = d.counter ? "Counterpurge" : "Purge";
        push("purge", `${name} of ${d.target} by ${(d.purgers || []).join("+")}: strength ${d.strength}, roll ${roll}, ${what}`,
          { title: e.text });
        return;
      }
      case "assassination":
        push("purge", e.text);
        return;
      case "eliminated":
        push("loss", e.text);
        return;
      case "purge_approved":
        this._purged(e, frame);
        push("minor", e.text);
        return;
      case "attacker_added":
      case "attacker_removed":
      case "attack_declared":
      case "attack_cancelled":
      case "trading_agreed":
      case "purge_pass":
      case "spoils_end":
        push("minor", e.text);
        return;
      case "random_event":
      case "drew":
      case "withdrawal":
      case "placed":
      case "makhno_returns":
        push("random", e.text);
        return;
      case "trade":
      case "trade_offered":
      case "trade_declined":
      case "trade_withdrawn":
        this._settled(e, frame);
        push("trade", e.text);
        return;
      case "game_over":
        push("over", e.text);
        return;
      default:
        if (e.kind === "committee_consent" || e.kind === "committee_leave") this._consented(e, frame);
        if (PURGE_EVENTS.has(e.kind)) this._purged(e, frame);
        push(["committee", "committee_consent", "committee_leave", "purge_declared", "purge_resolved", "spoil",
          "purge_rejected", "counterpurge_declared", "counterpurge_declined", "execution_proposed",
          "execution_ordered", "czar_executed", "execution_refused"].includes(e.kind) ? "politics" : "event", e.text);
    }
  }
}

/** The log pane. */
export class LogPane {
  constructor(log) {
    this.log = log;
    this.list = h("ol.log-list", { "aria-live": "off", tabindex: 0, "aria-label": "Game log" });
    this.wait = h("p.log-loading.small", { hidden: true }, "Loading the game's history…");
    this.el = h("div.log-pane", this.wait, this.list);
    this.rendered = 0;
    this.limit = null;
    // Whether the reader is at the newest lines (then new ones are followed): changed only when
    // the list is scrolled, by the reader or by render; not by the pane shrinking under it (the
    // Orders card growing above it once left the log behind for the rest of the game).
    followBottom(this, this.list, 60);
  }

  render(full = false) {
    const lines = this.log.lines;
    if (full || this.rendered > lines.length) {
      clear(this.list);
      this.rendered = 0;
    }
    const stick = this.stuck;
    const frag = document.createDocumentFragment();
    for (let i = this.rendered; i < lines.length; i++) frag.append(this._line(lines[i]));
    this.list.append(frag);
    this.rendered = lines.length;
    while (this.list.childElementCount > MAX_SHOWN) this.list.firstElementChild.remove();
    this.markReplay(this.limit);
    if (stick || full) this.list.scrollTop = this.list.scrollHeight;
  }

  loading(on) {
    this.wait.hidden = !on;
  }

  _line(l) {
    return h("li.log-line." + l.cls, { dataset: { seq: l.seq }, title: l.title || `#${l.seq}` },
      l.seat && !["turn", "pturn"].includes(l.cls) ? h("span.seat-dot", { dataset: { seat: l.seat } }, l.seat) : null,
      h("span.log-text", l.cls === "why" ? glossed(l.text) : l.text));
  }

  /** In replay: dim lines after `seq`, scroll to the last one shown. */
  markReplay(seq) {
    this.limit = seq;
    let last = null;
    for (const li of this.list.children) {
      const after = seq !== null && Number(li.dataset.seq) > seq;
      li.classList.toggle("future", after);
      if (!after) last = li;
    }
    if (seq !== null && last) last.scrollIntoView({ block: "nearest" });
  }
}

/** What an action was, for the replay's caption. */
export function describeAction(a) {
  if (!a) return "the position after set-up";
  const s = a.seat;
  switch (a.t) {
    case "Move": return `${s} moves to ${a.to}${a.rail ? " by rail" : ""}`;
    case "StartForce": return `${s} forms a force with ${uname(a.unit)}`;
    case "Attach": return `${s} attaches ${uname(a.unit)}`;
    case "Detach": return `${s} drops ${uname(a.unit)}`;
    case "DeclareAttack": return `${s} declares ${a.subversive ? "a Subversive Attack" : "an attack"}`;
    case "AddAttacker": return `${s} adds an attacker`;
    case "ResolveAttack": return `${s} resolves the attack`;
    case "DeclarePurge": return `${s} declares a purge of ${a.target}`;
    case "Assassinate": return `${s} sends assassins against ${uname(a.victim)}`;
    case "RedrawChit": return a.redraw ? `${s} draws again from the Randomizer` : `${s} keeps the marker drawn`;
    case "PlaceUnit": return a.leader ? `${s} places the unit drawn with ${uname(a.leader)}` : `${s} places the unit drawn in ${a.province}`;
    default: return `${s}: ${a.t.replace(/([a-z])([A-Z])/g, "$1 $2")}`;
  }
}

void D;
