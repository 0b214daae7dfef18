// The game page: header (turn, sequence of play, phase, whose decision), the players' strip
// (Politburo and Assassin markers, Blue/Green control, VP chart), the map, the Orders panel,
// negotiation, the event log and the replay.

import { h, clear, store, seatsHeld, holdSeat, dropSeat, toast, modal, debounceFrame, replace, notifyBrowser, fmtLeft, tickCountdowns, tapWord, sr, plural } from "./util.js";
import {
  D, loadData, unit, uname, ulabel, pname, placeNames, SEAT_COLOURS, PHASES, PHASE_NAMES, attachedTo, leadersOf, nationalityName,
  shownStrength,
} from "./data.js";
import { GameConnection, api } from "./net.js";
import { Board } from "./board.js";
import { buildOrders, kindName, finalSummary, belowLowestOdds, soloDanger, winnersOf, winnersLine, declareWith } from "./orders.js";
import { Chat } from "./chat.js";
import { EventLog, LogPane, describeAction } from "./log.js";
import { seatBadge, stackName, openAssassinDialog } from "./dialogs.js";
import { noteCommitment, openVerify } from "./verify.js";
import { resultsOf } from "./results.js";
import { forgetSeen, hideAway, lastSeen, markSeen, summarize, showAway } from "./away.js";
import { PostalDesk } from "./postal.js";
import { openRulesInBrief } from "./help.js";

const TRAIL_MAX = 60;          // the most arrows of other seats' moves the map shows (noteMoves)

export async function startGame(root, gid, seatHint) {
  await loadData();
  const app = new GameApp(root, gid, seatHint);
  window.rcwApp = app;
  await app.init();
  return app;
}

/** What the replay needs of a position: the view (the map, the markers, the VP chart and its
 *  scores) and the engine's strengths of the stacks. */
function snapshot(v, facts) {
  const { offers, decision, committee_consent: cc, pending, result, ...rest } = v;
  void offers; void decision; void cc; void pending; void result;
  return { view: rest, strengths: (facts || {}).strengths || {} };
}


/** The game's options in play, each with its help and source (the lobby's words for it). */
function optionList(options) {
  const known = D.options || {};
  const rows = Object.entries(options || {}).filter(([k, v]) => known[k] && v !== null && k !== "mode")
    .map(([k, v]) => {
      const o = known[k];
      return h("li", { dataset: { option: k } }, h("b", o.label || k), v === true ? "" : v === false ? ": off" : `: ${v}`,
        o.help ? ` — ${o.help}` : "", o.source ? h("span.small", ` (${o.source})`) : null);
    });
  return rows.length ? h("ul.option-list", rows) : null;
}

/** The game's events after which a chat proposal card may no longer stand (its offer answered or
 *  withdrawn, its proposer's Committee consent changed, its proposer gone). */
const PROPOSAL_NEWS = new Set(["committee", "committee_consent", "committee_leave", "trade_offered", "trade", "trade_declined", "trade_withdrawn",
  "quit"]);     // (a player who quits takes back his offers and consents, 004 [14.2])

/** Refusals that may only mean the page was behind the game (GameApp.movedOn). */
const MOVED_ON_CODES = new Set(["illegal_action", "stale", "not_your_turn"]);

class GameApp {
  constructor(root, gid, seatHint) {
    this.root = root;
    this.gid = gid;
    this.seatHint = seatHint || null;
    this.st = { seq: -1, status: "", view: null, pending: [], legal: [], facts: {}, seats: {}, result: null, info: {} };
    this.seat = null;
    this.token = null;
    this.busy = false;
    this.lastError = null;
    this.sel = null;            // {stack} or {province}
    this.snaps = new Map();     // seq -> {view, strengths}, for the replay
    this.trail = [];            // the other seats' latest moves, as arrows on the map (noteMoves)
    this.moveLog = [];          // every frame's Player-Turn starts and moves, in order: the replay's arrows (trailAt)
    this._trailOld = false;     // (a Player-Turn has begun since: the next move starts a new trail)
    this.answers = new Map();   // "q|args" -> the engine's answer (a promise, then its value) at answersSeq
    this.answersSeq = -1;
    this.replay = null;
    this.log = new EventLog(gid);
    this.log.onFate = () => this.chat && this.chat.renderMessagesSoon();     // (a trade card follows the game)
    this.log.onFrame = (f) => this.noteMoves(f);    // (the history's frames too: a reloaded page shows them)
    this.logPane = new LogPane(this.log);
    this.chat = new Chat(this);
    this.renderSoon = debounceFrame(() => this.render());
    this.adminToken = store.get("admin:" + gid, null);
    this._wasMine = false;
  }

  seatName(s) {
    const r = (this.st.seats || {})[s];
    if (!r) return s;
    if (r.name) return r.name;
    if (r.kind === "bot") return `Bot ${s}`;
    if (r.kind === "open") return `(open ${s})`;
    return `Player ${s}`;
  }

  // -- set-up ------------------------------------------------------------------------------------
  async init() {
    const held = seatsHeld(this.gid);
    let seat = this.seatHint && held[this.seatHint] ? this.seatHint : Object.keys(held).sort()[0] || null;
    if (seat) {
      this.seat = seat;
      this.token = held[seat].token;
    }
    if (this.seatHint && !held[this.seatHint]) {
      // an address naming a seat this browser holds no token for: the page shows the seat it
      // holds (or watches), and says so; the address names what is shown
      history.replaceState(null, "", `#/g/${this.gid}${seat ? "/" + seat : ""}`);
      toast(`This browser does not hold seat ${this.seatHint} of this game: `
        + (seat ? `you play seat ${seat}` : "you are watching"), "info");
    }
    this.chat.setSeat(this.seat);
    this.buildLayout();
    this.watchVisibility();
    setInterval(tickCountdowns, 1000);
    this.board = new Board(this.mapEl, {
      onStack: (id, prov) => (this.postal && this.postal.onStack(id, prov)) || (id < 0 ? this.select({ province: prov }) : this.select({ stack: id })),
      // (a stack not selected yet is dragged too: it is selected as the drag starts, and its
      // rings come with the engine's answer; QA: such a drag panned the map instead)
      canDrag: (id) => !this.busy && this.mayMove(id),
      onDragStart: (id) => { if (!(this.reachInfo && this.reachInfo.stackId === id)) this.select({ stack: id }); },
      onDrop: (id, code) => this.reachInfo && this.reachInfo.stackId === id && this.moveAlong(code),
      onProvince: (code, e) => (this.postal && this.postal.onProvince(code)) || this.provinceClick(code, e),
      onBlank: () => this.select(null),
      covers: () => [this.inspectEl, this.mapPrompt], // (panels over the map: centreOn keeps provinces clear of them)
    });
    await this.board.mount();
    this.connect();
    window.addEventListener("resize", () => this.renderSoon());
  }

  connect() {
    if (this.conn) this.conn.close();
    this.conn = new GameConnection(this.gid, this.token, {
      onWelcome: (w) => this.onWelcome(w),
      onPush: (f) => this.onPush(f),
      onStatus: (s) => this.onConnStatus(s),
      onError: (e) => this.showError(e),
      onHelloError: (e) => this.onHelloError(e),
    });
    this.conn.open();
  }

  onHelloError(e) {
    if (e.code === "bad_token") {
      toast(`Seat ${this.seat} is no longer yours (it was left); watching instead.`, "error");
      dropSeat(this.gid, this.seat);
      forgetSeen(this.gid, null);     // (an old look of this browser's spectator, from before the seat: QA)
      this.seat = null;
      this.token = null;
      this.chat.setSeat(null);
      this.connect();
    } else if (e.code === "unknown_game") {
      this.conn.close();
      const f = e.frame || {};
      if (f.memory) {       // (the embedded store: a restart of the server lost every game it had: QA)
        const since = f.started ? new Date(f.started) : null;
        clear(this.root).append(h("div.notfound", { dataset: { why: "memory" } }, h("h1", "This game is no longer on the server"),
          h("p", `There is no game “${this.gid}” on this server now. The server keeps its games in memory only, so when it is restarted every game on it is lost`
            + `${since ? `; it was last started ${since.toLocaleString()}` : ""}. If this game was here before, it was lost when the server restarted, and it cannot be resumed.`),
          h("p", "Start a new game from the lobby."),
          h("a.btn.primary", { href: "#/" }, "Back to the lobby")));
      } else {
        clear(this.root).append(h("div.notfound", h("h1", "No such game"), h("p", `There is no game “${this.gid}” on this server.`),
          h("a.btn.primary", { href: "#/" }, "Back to the lobby")));
      }
    } else {
      this.showError(e);
    }
  }

  onConnStatus(s) {
    this.root.dataset.conn = s;
    if (this.connEl) {
      this.connEl.dataset.state = s;
      this.connEl.title = s === "open" ? "connected" : s === "connecting" ? "reconnecting…" : "disconnected";
      this.connEl.textContent = s === "open" ? "● live" : "● reconnecting…";
    }
    // a connection lost after the game was shown: said plainly over the page, and the orders
    // are out of reach until it is back (QA: only a small "reconnecting…", buttons clickable)
    const lost = s !== "open" && !!(this.conn && this.conn.welcomed);
    this.root.dataset.offline = lost ? "1" : "0";
    if (this.connLostEl) this.connLostEl.hidden = !lost;
    // (the orders, the inspector and the composer take no click, key or focus meanwhile)
    for (const el of this.root.querySelectorAll(".orders, .inspector, .map-prompt, .composer")) el.inert = lost;
    clearInterval(this._connTick);
    if (lost) {
      this.connTry();
      this._connTick = setInterval(() => this.connTry(), 500);
    }
  }

  /** The banner's line on the reconnection: which try, and when the next one starts. */
  connTry() {
    const c = this.conn;
    if (!this.connTryEl || !c) return;
    const n = c.attempts || 1;
    const left = c.nextTry ? Math.max(0, Math.ceil((c.nextTry - Date.now()) / 1000)) : 0;
    this.connTryEl.textContent = c.nextTry && left > 0 ? `Attempt ${n} in ${left} s.` : `Attempt ${n}: trying now…`;
  }

  async onWelcome(w) {
    this.seat = w.seat || null;
    this.chat.setSeat(this.seat);
    this.st = { seq: w.seq, hash: w.hash, status: w.status, view: w.view, pending: w.pending, legal: w.legal || [],
                facts: w.facts || {}, seats: w.seats, result: w.result, info: w.info || {}, deadlines: w.deadlines || {},
                pacts: w.pacts || [] };
    noteCommitment(this.gid, this.st.info);
    this.notifyPrefs = w.notify || null;
    this.botWait = (w.limits || {}).bot_wait || 0;     // (seconds a bot waits for an invited human: the pending line's countdown)
    this.st.online = w.online || [];
    if (w.view && w.view.postal) {               // a postal game (004 [17.0]): its own Orders panel (js/postal.js)
      this.postal = this.postal || new PostalDesk(this);
      this.postal.welcome(w);
    }
    if (w.away && w.away.lines && lastSeen(this.gid, this.seat) === null && !this._awayChecked) {
      this._awayChecked = true;                   // (a browser new to this seat: the server's last look)
      showAway(this.root, w.away.lines);
    }
    this.snaps.set(w.seq, snapshot(w.view, w.facts));
    this.logPane.loading(this.log.lastSeq < w.seq);
    this.log.catchUp(this.conn, w.seq).then(() => {
      this.logPane.loading(false);
      this.logPane.render();
      if (this.trail.length) this.renderSoon();     // (the other sides' moves the history holds, on the map)
      document.body.dataset.logSeq = String(this.log.lastSeq);
      if (!this._awayChecked) {             // reopened: what happened since this browser last looked
        this._awayChecked = true;
        this.awaySummary(lastSeen(this.gid, this.seat));
      }
      this.noteSeen();
    });
    await this.chat.onWelcome(w.channels || []);
    if (!this._welcomed) {
      this._welcomed = true;
      // before the deployment the map is empty, and after the end the Orders pane says who won
      // and why (QA: a finished game opened on a phone's map): start a phone on the Orders pane
      const over = w.status === "over" || (w.view && w.view.phase === "over");
      if ((w.status === "open" || over || (w.view && w.view.phase === "trading")) && this.root.dataset.mtab === "map") this.setTab("orders", true);
    }
    this.render();
    this.centreOnForce();
  }

  onPush(f) {
    if (f.t === "update") {
      if (f.seq <= this.st.seq && f.action) return;
      const st = this.st;
      const ending = st.status !== "over" && f.status === "over";
      st.seq = f.seq;
      st.hash = f.hash;
      st.status = f.status;
      st.view = f.view;
      st.pending = f.pending;
      st.legal = f.legal || [];
      st.facts = f.facts || {};
      st.result = f.result;
      this.snaps.set(f.seq, snapshot(f.view, f.facts));
      if (this.snaps.size > 4000) this.snaps.delete(this.snaps.keys().next().value);
      this.log.add(f);
      if (this.seat && f.actor === this.seat && (f.by === "player" || f.by === "chat") && this.conn
          && !this.conn.acting && !this.conn.ownSeqs.has(f.seq)) {
        // (QA: with the seat open in two tabs, the one that did not act was not told; a choice
        // it made from before is refused as no longer open: movedOn)
        this.actedElsewhere = Date.now();
        if (Date.now() - (this._elsewhereSaid || 0) > 20000) {
          this._elsewhereSaid = Date.now();
          const said = this.log.lines.find((l) => l.seq === f.seq && l.cls !== "minor");
          toast(`Your seat acted in another tab or window${said ? ` — ${said.text}` : ""}. This page follows it.`, "info.elsewhere");
        }
      }
      if (this.seat && f.actor === this.seat && f.by === "deadline") {
        // (QA: a step the deadline's bot took for the player went by without a word)
        const said = this.log.lines.find((l) => l.seq === f.seq && l.cls !== "minor");
        toast(`Your time ran out: a bot acted for you${said ? ` — ${said.text}` : ""}`, "info.deadline-step");
      }
      if (this.postal) this.postal.onUpdate(f);
      this.showResults(f);
      this.noteSeen();
      document.body.dataset.logSeq = String(this.log.lastSeq);
      if (f.actor === this.seat && f.by === "player") this.lastError = null;
      const waits = this.seat && (f.pending || []).some((p) => p.seat === this.seat);
      if (waits && !this._waitedOn && !this.postal) notifyBrowser(this.gid, "Russian Civil War: your decision", `Game-Turn ${f.view.turn}: the game waits on you`);
      this._waitedOn = waits;
      this.renderSoon();
      // (a Committee consent or a trade offer changed: the proposal cards in chat may stand no more)
      if ((f.events || []).some((e) => PROPOSAL_NEWS.has(e.kind))) this.chat.renderMessagesSoon();
      if (ending) {
        this.chat.renderMessages();       // (the proposals' Accept and Decline go: the game takes no more answers)
        this.showFinalScores();
      }
    } else if (f.t === "seats") {
      this.st.seats = f.seats;
      this.st.status = f.status;
      if (f.legal) {                      // (the game has started, or waits again: what this seat may do now)
        this.st.legal = f.legal;
        this.st.facts = f.facts || {};
      }
      this.renderSoon();
    } else if (f.t === "msg" || f.t === "channel") {
      this.chat.onPush(f);
    } else if (f.t === "presence") {     // (who holds a seat on a page now)
      this.st.online = f.online;
      this.renderSoon();
    } else if (f.t === "notify") {       // (this seat's notification settings changed: saved elsewhere, or confirmed)
      this.notifyPrefs = f.notify;
      this.renderSoon();
    } else if (f.t === "deadline") {
      this.st.deadlines = f.deadlines;
      if (this.postal) this.postal.onDeadline(f);
      this.renderSoon();
    }
  }

  // -- acting --------------------------------------------------------------------------------------
  setBusy(b) {
    this.busy = b;
    this.root.dataset.busy = b ? "1" : "0";
    this.renderSoon();
  }

  /** Send one action; resolves true when the engine took it. */
  async act(action) {
    if (!action || this.busy) return false;
    if (this.conn && this.conn.state !== "open") {
      toast("Not connected: nothing was sent. The page is reconnecting; try again once it is back.", "error");
      return false;
    }
    const basis = this.st.seq;      // (the position the page showed when the order was given)
    this.setBusy(true);
    try {
      await this.conn.act(action);
      this.lastError = null;
      hideAway();                  // (the player is back and playing: QA saw the card stay a whole Game-Turn)
      return true;
    } catch (e) {
      if (!(MOVED_ON_CODES.has(e.code) && await this.movedOn(basis, e))) this.showError(e);
      return false;
    } finally {
      this.setBusy(false);
    }
  }

  /** Ask the engine (a `query` frame: odds, purge_odds, assassination...); resolves to its
   *  answer.  Answers are kept for the position they were asked at. */
  ask(q, args = {}) {
    if (this.answersSeq !== this.st.seq) {
      this.answers.clear();
      this.answersSeq = this.st.seq;
    }
    const key = `${q}|${JSON.stringify(args)}`;
    let a = this.answers.get(key);
    if (!a) {
      a = { promise: this.conn.request("query", { q, ...args }).then((f) => { a.value = f.answer; return f.answer; }) };
      a.promise.catch(() => this.answers.delete(key));
      this.answers.set(key, a);
    }
    return a.promise;
  }

  /** The engine's answer to `q` at this position if the page has it already, else undefined. */
  known(q, args = {}) {
    if (this.answersSeq !== this.st.seq) return undefined;
    const a = this.answers.get(`${q}|${JSON.stringify(args)}`);
    return a ? a.value : undefined;
  }

  /** An order the engine refused: had the game moved on from `basis`, the position the page
   *  showed (this seat acting in another tab or window, or the page's news of the game late)?
   *  Then say so, not the rule (QA: a second tab of one seat was told its order broke a rule),
   *  and show the game as it is now.  Resolves true when it had. */
  async movedOn(basis, e) {
    let fresh;
    try {
      fresh = await this.conn.request("view");
    } catch {
      return false;
    }
    // (the same position, but a choice the page offered before the seat acted in another tab or
    // window, say from a dialog left open: no longer open, not a rule broken)
    const same = fresh.seq === basis && this.st.seq === basis;
    if (same && !(this.actedElsewhere && Date.now() - this.actedElsewhere < 120000)) return false;   // (the rule stands)
    if (fresh.seq > this.st.seq) {
      const st = this.st;
      for (const k of ["seq", "hash", "status", "view", "pending", "result"]) st[k] = fresh[k];
      st.legal = fresh.legal || [];
      st.facts = fresh.facts || {};
      if (fresh.seats) st.seats = fresh.seats;
      if (fresh.deadlines) st.deadlines = fresh.deadlines;
      this.snaps.set(fresh.seq, snapshot(fresh.view, fresh.facts));
    }
    await this.log.catchUp(this.conn, this.st.seq);
    this.logPane.render();
    document.body.dataset.logSeq = String(this.log.lastSeq);
    const mine = this.seat && this.log.lines.some((l) => l.seq > basis && l.seat === this.seat);
    this.lastError = null;
    if (same) {
      toast("That choice is no longer open: your seat acted in another tab or window. This page shows the game as it is now.",
        "info.moved-on", `The game said: ${placeNames(e.message)}`);
    } else {
      toast(mine
        ? "The game had moved on: this seat acted in another tab or window meanwhile. Nothing was done here; the page now shows the game as it is."
        : "The game had moved on before your order arrived. Nothing was done; the page now shows the game as it is.", "info.moved-on");
    }
    this.render();
    return true;
  }

  showError(e) {
    const rule = e.rule || (e.frame && e.frame.rule) || null;
    const message = placeNames(e.message);
    this.lastError = { message, rule, code: e.code };
    toast(message, "error", rule ? `Rule ${rule}` : "");     // (a code such as bad_request says nothing to a player)
    this.renderSoon();
  }

  async fillBots() {
    try {
      await api("POST", `/api/games/${this.gid}/bots`, {}, this.adminToken);
      toast("Bots take the open seats", "ok");
    } catch (e) {
      this.showError(e);
    }
  }

  joinForm(open) {
    const name = h("input", { type: "text", maxlength: 40, value: store.get("name", ""), placeholder: "Your name", "aria-label": "Your name" });
    const sel = h("select", { "aria-label": "Seat" }, open.map((s) => h("option", { value: s }, `Seat ${s}`)));
    return h("div.join-form", h("h4", "Take a seat"), h("div.row", name, sel,
      h("button.btn.primary", { type: "button", dataset: { act: "join" }, onclick: async () => {
        try {
          store.set("name", name.value.trim());
          const r = await api("POST", `/api/games/${this.gid}/join`, { seat: sel.value, name: name.value.trim() || null });
          holdSeat(this.gid, r.seat, r.token, name.value.trim());
          location.hash = `#/g/${this.gid}/${r.seat}`;
          location.reload();
        } catch (e) {
          this.showError(e);
        }
      } }, "Join")));
  }

  async leaveSeat() {
    // (what the creator chose for this game, its info.on_leave: QA read the either-or as vague)
    const quits = (this.st.info || {}).on_leave === "quit";
    const body = h("p.leave-what", this.st.status === "open" ? "Your seat reopens for someone else." : quits
      ? "You quit the game (004 [14.2]): no one takes your seat, your leaders and combat units stay on the map unable to move or attack, your markers go into the Randomizer, and you score no Victory Points. You cannot come back to it."
      : "A bot takes your seat and plays it to the end. You cannot come back to it.");
    modal("Leave this game?", body, [{ label: "Stay" }, { label: "Leave", kind: "danger", onclick: async () => {
      try {
        await this.conn.request("leave");
        // (said in the lobby, which a fresh document shows: QA had no word of it)
        store.set("notice", quits ? `You have quit the game (004 [14.2]); seat ${this.seat} is no longer yours` :
          `You have left the game; a bot plays seat ${this.seat} from now on`);
        dropSeat(this.gid, this.seat);
        forgetSeen(this.gid, null);     // (looking on later, an ex-player is told no "While you were away": QA)
        location.hash = "#/";
      } catch (e) {
        this.showError(e);
      }
    } }]);
  }

  // -- map interaction -----------------------------------------------------------------------------
  provinceClick(code, e = null) {
    const mv = this.marks && this.marks.moves && this.marks.moves[code];
    if (mv && !this.replay) {
      if (mv.land && mv.rail) {
        modal(`Move to ${pname(code)}`, h("p", "The force can enter by rail or overland. Rail movement is unlimited along the line but cannot be combined with overland movement (004 [5.5])."), [
          { label: "Overland (1 MP)", kind: "primary", dataset: { act: "Move", rail: "0" }, onclick: () => { this.act(mv.land); } },
          { label: "By rail", dataset: { act: "Move", rail: "1" }, onclick: () => { this.act(mv.rail); } },
        ], { tapGuard: e && e.pointerType === "touch" ? 600 : 0 });
      } else {
        this.act(mv.land || mv.rail);
      }
      return;
    }
    if (!this.replay && this.reachInfo && this.reachInfo.routes && this.reachInfo.routes[code]) {
      this.moveAlong(code);
      return;
    }
    this.select({ province: code });
  }

  /** Whether a drag of stack `id` may move it: the force under way, or a stack the engine lets
   *  start one now (a StartForce of one of its units is among the seat's legal actions). */
  mayMove(id) {
    const st = this.st;
    const v = st.view;
    if (this.replay || !this.seat || !v || v.phase !== "movement" || st.status !== "playing") return false;
    if (v.force) return v.force[0] === id;
    const s = v.stacks.find((x) => x.id === id);
    return !!s && (st.legal || []).some((a) => a.t === "StartForce" && s.units.includes(a.unit));
  }

  /** The provinces the seat's force (or its selected stack, before it starts) can end its move in
   *  this phase: the engine's `reach` query (routes with the stop rule and rail), asked once a
   *  position; drawn as rings on the map (js/board.js). */
  updateReach() {
    this._updateReach();
    if (!this.reachInfo || !this.reachInfo.routes) document.body.dataset.reach = "0";   // (none drawn, or not yet)
  }

  _updateReach() {
    const st = this.st;
    const v = st.view;
    if (this.replay || !this.seat || !v || v.phase !== "movement" || st.status !== "playing") {
      this.reachInfo = null;
      return;
    }
    let u = null;
    let stackId = null;
    let from = null;
    if (v.force) {
      stackId = v.force[0];
      const fs = v.stacks.find((s) => s.id === stackId);
      from = fs ? fs.province : null;
    } else if (this.sel && this.sel.stack) {
      const s = v.stacks.find((x) => x.id === this.sel.stack);
      const starts = s ? (st.legal || []).filter((a) => a.t === "StartForce" && s.units.includes(a.unit)) : [];
      const start = starts.find((a) => unit(a.unit).kind === "leader") || starts[0];
      if (!start) {
        this.reachInfo = null;
        return;
      }
      ({ unit: u } = start);
      stackId = s.id;
      from = s.province;
    } else {
      this.reachInfo = null;
      return;
    }
    const key = `${st.seq}|${stackId}|${u}`;
    if (this.reachInfo && this.reachInfo.key === key) return;
    const info = { key, unit: u, stackId, from, routes: null };
    this.reachInfo = info;
    this.ask("reach", u === null ? {} : { unit: u }).then((routes) => {
      if (this.reachInfo !== info) return;
      info.routes = routes;
      document.body.dataset.reach = String(Object.keys(routes).length);
      this.renderBoard();
    }).catch(() => {});
  }

  /** Move to `code` in one gesture: StartForce (if the stack has not started) and then the
   *  engine's Move steps along its route; the first refusal stops and shows the engine's reason. */
  async moveAlong(code) {
    const info = this.reachInfo;
    const route = info && info.routes && info.routes[code];
    if (!route || this.busy) return false;
    this.board.plan(null);
    if (info.unit !== null) {
      const start = (this.st.legal || []).find((a) => a.t === "StartForce" && a.unit === info.unit);
      if (!start || !(await this.act(start))) return false;
    }
    for (const to of route.path) {
      if (!(await this.act({ t: "Move", seat: this.seat, to, rail: route.rail }))) return false;
    }
    return true;
  }

  select(sel) {
    this.sel = sel;
    this.updateReach();
    this.renderBoard();
    this.renderInspector();
    this.board.settle();          // (the province panel opened or closed over the map)
  }

  /** The seat's own force under way, or the target of its attack, brought into view. */
  centreOnMine() {
    const v = this.st.view;
    if (!v || this.root.dataset.mine !== "1") return;
    if (v.force) return this.centreOnForce();
    const target = v.attack ? v.stacks.find((x) => x.id === v.attack[0]) : null;
    if (target) this.board.centreOn(target.province);
  }

  centreOnForce() {
    const v = this.st.view;
    if (!v || !v.force || !this.board) return;
    const fs = v.stacks.find((s) => s.id === v.force[0]);
    if (fs) this.board.bringIntoView([fs.province, ...Object.keys((this.marks || {}).moves || {}).sort()]);
  }

  // -- layout --------------------------------------------------------------------------------------
  buildLayout() {
    const root = this.root;
    clear(root);
    root.className = "game";
    root.dataset.dtab = root.dataset.dtab || "talk";
    root.dataset.mtab = root.dataset.mtab || "map";
    this.connEl = h("span.conn", { dataset: { state: "connecting" } }, "● connecting…");
    this.headEl = h("div.head-game");
    this.header = h("header.topbar",
      h("h1.brand-h", h("a.brand", { href: "#/", title: "Back to the lobby" }, h("span.brand-star", "★"), h("span.brand-name", "Russian Civil War"))),
      this.headEl,
      h("div.head-right", this.connEl, h("button.menu-btn", { type: "button", "aria-label": "Menu", onclick: (e) => this.menu(e) }, "☰")));
    this.stripEl = h("section.strip", { "aria-label": "Players at a glance" });
    this.mapEl = h("div.map");
    this.inspectEl = h("div.inspector", { hidden: true });
    this.mapPrompt = h("button.map-prompt", { type: "button", hidden: true, onclick: () => this.setTab("orders") });
    this.replayEl = h("div.replay-bar", { hidden: true });
    this.bannerEl = h("div.map-banner", { hidden: true });
    this.connLostEl = h("div.conn-lost", { role: "alert", hidden: true },
      h("b", "Connection lost — reconnecting…"), this.connTryEl = h("span.conn-try"),
      // (nothing can be sent meanwhile: QA read "your orders and messages wait" as kept to be sent)
      " Orders and messages can be sent again once the page is back in the game.",
      h("button.btn.conn-retry", { type: "button", dataset: { act: "reconnect" }, onclick: () => this.conn && this.conn.retryNow() },
        "Reconnect now"));
    this.ordersEl = h("div.orders");
    this.playersEl = h("div.players-pane", { tabindex: 0, "aria-label": "Players' markers and Victory Point Chart" });
    this.dtabs = h("nav.dtabs", { role: "tablist" },
      ["talk", "log", "players"].map((t) => h("button.dtab", { type: "button", role: "tab", dataset: { tab: t }, onclick: () => this.setTab(t) },
        { talk: "Talk", log: "Log", players: "Players" }[t], h("span.badge", { hidden: true }))));
    this.mnav = h("nav.mnav", { "aria-label": "Panes" },       // (a landmark: the phone's bottom bar; aria-current marks the pane shown)
      ["map", "orders", "talk", "log", "players"].map((t) => h("button.mtab", { type: "button", dataset: { tab: t }, onclick: () => this.setTab(t) },
        h("span.mtab-ico", { map: "▦", orders: "⚑", talk: "✉", log: "☷", players: "♟" }[t]),
        h("span", { map: "Map", orders: "Orders", talk: "Talk", log: "Log", players: "Players" }[t]), h("span.badge", { hidden: true }))));
    const side = h("aside.side",
      h("section.pane.orders-pane", { dataset: { pane: "orders" }, "aria-label": "Orders" }, h("h2.pane-title", "Orders"), this.ordersEl),
      this.dtabs,
      h("section.pane", { dataset: { pane: "talk" }, "aria-label": "Talk" }, this.chat.el),
      h("section.pane", { dataset: { pane: "log" }, "aria-label": "Log" }, this.logPane.el),
      h("section.pane", { dataset: { pane: "players" }, "aria-label": "Players" }, this.playersEl));
    const main = h("main.game-main",
      h("section.map-pane", { "aria-label": "Map" }, this.mapEl, this.bannerEl, this.mapPrompt, this.inspectEl, this.replayEl),
      side);
    // (the first Tab stop: straight to the Orders, past the strip and the map's counters, QA counted
    // some sixty stops before the first order; hidden until it has the focus)
    const skip = h("a.skip-link", { href: "#orders", onclick: (e) => {
      e.preventDefault();
      this.setTab("orders");
      const first = this.ordersEl.querySelector("button:not([disabled]), [href], input, select, textarea");
      (first || this.ordersEl).focus();
    } }, "Skip to the Orders");
    this.ordersEl.tabIndex = -1;
    this.ordersEl.id = "orders";              // (the skip link's target, as its href says)
    root.append(skip, this.header, this.connLostEl, this.stripEl, main, this.mnav);
    this.syncTabs();
  }

  syncTabs() {
    for (const b of this.root.querySelectorAll(".dtab")) {
      b.classList.toggle("on", b.dataset.tab === this.root.dataset.dtab);
      b.setAttribute("aria-selected", b.dataset.tab === this.root.dataset.dtab ? "true" : "false");
    }
    for (const b of this.root.querySelectorAll(".mtab")) {
      b.classList.toggle("on", b.dataset.tab === this.root.dataset.mtab);
      if (b.dataset.tab === this.root.dataset.mtab) b.setAttribute("aria-current", "page");
      else b.removeAttribute("aria-current");
    }
  }

  setTab(t, quiet = false) {
    if (["talk", "log", "players"].includes(t)) this.root.dataset.dtab = t;
    this.root.dataset.mtab = t;
    this.syncTabs();
    if (!quiet) {
      if (t === "talk") this.chat.markRead();
      if (t === "log") requestAnimationFrame(() => this.logPane.render(true));
      // (the map was hidden: a force started, or an attack declared, from the Orders tab could
      // not be centred on then; it is now, if it lies off the screen)
      if (t === "map") requestAnimationFrame(() => this.board && this.board.svg && (this.centreOnMine(), this.renderBoard()));
    }
  }

  showTalk() {
    this.setTab("talk");
  }

  talkVisible() {
    return !!(this.chat.el.offsetParent);
  }

  menu(e) {
    const items = [h("a.btn", { href: "#/" }, "Lobby")];
    const over = this.st.status === "over";     // (a finished game has no seat to leave and no turn to wait for)
    if (this.seat && !over) items.push(h("button.btn", { type: "button", dataset: { act: "leave" }, onclick: () => this.leaveSeat() }, "Leave this seat…"));
    let dlg = null;
    items.push(h("button.btn", { type: "button", dataset: { act: "replay" }, onclick: () => { dlg.close(); this.openReplay(); } },
      over ? "Replay the game" : "Replay so far"));
    items.push(h("button.btn", { type: "button", dataset: { act: "rules-brief" }, onclick: () => { dlg.close(); openRulesInBrief(!!this.st.view.solitaire); } },
      "Rules in brief"));
    if (this.seat && !over && typeof Notification !== "undefined" && Notification.permission === "default") {
      items.push(h("button.btn", { type: "button", dataset: { act: "browser-notify" }, onclick: () => { dlg.close(); Notification.requestPermission(); } },
        "Notify me when it is my turn"));
    }
    if (over) items.push(h("button.btn", { type: "button", dataset: { act: "verify" }, onclick: () => { dlg.close(); openVerify(this.gid, this.adminToken); } }, "Verify the dice"));
    const held = seatsHeld(this.gid);
    for (const s of Object.keys(held)) if (s !== this.seat) items.push(h("a.btn", { href: `#/g/${this.gid}/${s}`, onclick: () => setTimeout(() => location.reload(), 10) }, `Switch to seat ${s}`));
    const info = this.st.info || {};
    const opts = info.option_words || [];      // the options in words (rcw.options.words)
    const body = h("div.menu-body", h("p.small", `Game ${this.gid}${info.name ? ` “${info.name}”` : ""} · ${info.players} players · bots: ${info.bots}`
      + (opts.length ? ` · options: ${opts.join(", ")}` : "")),
    // each option in play with what it changes and where the rule comes from (data.json's options, from rcw.options)
    optionList(info.options),
    info.commitment ? h("p.small.commitment", { title: "SHA-256 of the secret seed, published when the game was created; the seed is revealed when the game ends (Verify)" },
      `Dice commitment: ${info.commitment.slice(0, 24)}…`) : null, ...items);
    void e;
    dlg = modal("Menu", body, []);
  }

  /** The page is visible: everything up to the last action is seen. */
  noteSeen() {
    if (document.visibilityState !== "visible" || !this.log.lastSeq) return;
    // (bots play fast: written to storage at most once a second, not on every update)
    if (this._seenTimer) return;
    this._seenTimer = setTimeout(() => {
      this._seenTimer = null;
      if (document.visibilityState === "visible") markSeen(this.gid, this.seat, this.log.lastSeq);
    }, this._seenTimer === undefined ? 0 : 1000);
  }

  /** "While you were away" since `since` (null: never looked before, nothing to say). */
  awaySummary(since) {
    if (since === null || since === undefined || since >= this.log.lastSeq) return;
    if (this.seat && ((this.st.view || {}).quit || []).includes(this.seat)) return;   // (left the game: looking on, QA)
    const lines = summarize(this.log.lines, since, this.seat);
    if (lines) showAway(this.root, lines);
  }

  /** Hidden, then visible again: the summary of what others did meanwhile. */
  watchVisibility() {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") {
        this._leftAt = this.log.lastSeq;
        markSeen(this.gid, this.seat, this._leftAt);       // (what was shown until now, before the timer)
        if (this.seat && this.conn) this.conn.request("seen", { seq: this._leftAt }).catch(() => {});   // (the seat's last look, for other devices)
      } else if (this._leftAt !== undefined) {
        // (another tab of this browser may have shown the seat more meanwhile: its last look counts)
        this.awaySummary(Math.max(this._leftAt, lastSeen(this.gid, this.seat) ?? this._leftAt));
        this._leftAt = undefined;
        this.noteSeen();
      }
    });
  }

  /** A live update's combats, purges, assassinations and epidemics: a toast over the map with
   * the dice and the result, and the province flashing (js/results.js). */
  showResults(f) {
    for (const r of resultsOf(f, this.seat)) {
      const t = toast(r.title, "result", r.detail);
      t.dataset.result = r.kind;
      const shown = document.querySelectorAll(".toast.result");
      const keep = matchMedia("(max-width: 760px)").matches ? 1 : 3;    // (bots play fast: the newest few; one on a phone)
      for (let i = 0; i < shown.length - keep; i++) shown[i].remove();
      if (this.board) this.board.flash(r.provinces);
    }
  }

  /** The moves of the other seats (the bots', the SPI solitaire's non-Red side, another
   * player's; and the seat's own that its bot made, at a deadline or in civil disorder) drawn as
   * arrows on the map: those of the latest Player-Turn in which such a move was made, kept until
   * another is made in a later one, so that a turn played in one burst of updates is seen on
   * the map and not only in the log.  Every frame the log takes comes here, its history's too
   * (js/log.js onFrame): a reloaded page draws them again. */
  noteMoves(f) {
    // (for the replay: each step's arrows are those the page showed then, not the last turn's: QA)
    while (this.moveLog.length && this.moveLog[this.moveLog.length - 1].seq >= f.seq) this.moveLog.pop();
    const steps = [];
    for (const e of f.events || []) {
      const d = e.data || {};
      if (e.kind === "player_turn") steps.push(null);
      else if (e.kind === "move" || e.kind === "nonred_move") {
        const path = e.kind === "move" ? [d.from, d.to] : d.path || [];
        const arrows = [];
        for (let i = 1; i < path.length; i++) arrows.push({ from: path[i - 1], to: path[i], rail: !!d.rail, seat: d.seat, trail: true });
        steps.push(arrows);
      }
    }
    if (steps.length) this.moveLog.push({ seq: f.seq, steps });
    for (const e of f.events || []) {
      const d = e.data || {};
      if (e.kind === "player_turn") this._trailOld = true;
      if ((e.kind !== "move" && e.kind !== "nonred_move") || (this.seat && d.seat === this.seat && f.by === "player")) continue;
      if (this._trailOld) this.trail = [];
      this._trailOld = false;
      const path = e.kind === "move" ? [d.from, d.to] : d.path || [];
      for (let i = 1; i < path.length; i++) this.trail.push({ from: path[i - 1], to: path[i], rail: !!d.rail, seat: d.seat, trail: true });
    }
    if (this.trail.length > TRAIL_MAX) this.trail.splice(0, this.trail.length - TRAIL_MAX);
  }

  /** The arrows of the map at step `n` of the replay: the moves of the latest Player-Turn in
   * which one was made, up to and with step `n` (as noteMoves draws them live; every seat's). */
  trailAt(n) {
    let trail = [];
    let old = false;
    for (const { seq, steps } of this.moveLog) {
      if (seq > n) break;
      for (const arrows of steps) {
        if (arrows === null) {
          old = true;
          continue;
        }
        if (old) trail = [];
        old = false;
        trail.push(...arrows);
      }
    }
    return trail.slice(-TRAIL_MAX);
  }

  /** The game has just ended while this page watched: the final scoreboard, the replay below it. */
  showFinalScores() {
    const { title, body } = finalSummary(this);
    modal(title, h("div.final-scores", ...body),
      [{ label: "Close" }, { label: "Replay the game", kind: "primary", dataset: { act: "final-replay" }, onclick: () => { this.openReplay(); } }],
      { cls: "final" });
  }

  // -- rendering -----------------------------------------------------------------------------------
  render() {
    const st = this.st;
    if (!st.view) return;
    const mine = !!this.seat && (st.pending || []).some((p) => p.seat === this.seat) && st.status === "playing";
    const b = document.body.dataset;
    b.seq = st.seq;
    b.status = st.status;
    b.phase = st.view.phase;
    b.seat = this.seat || "";
    b.mine = mine ? "1" : "0";
    b.pendingKind = mine ? (st.pending.find((p) => p.seat === this.seat) || {}).kind : "";
    this.root.dataset.mine = mine ? "1" : "0";
    this.renderHeader();
    this.renderStrip();
    // (a replay shows an earlier position: the live game's orders are not offered beside it, QA
    // clicked the Orders panel's Roll during a replay of Game-Turn 2 and rolled in the live game)
    const { el, marks } = this.replay ? this.replayOrders(mine) : this.postal ? this.postal.build() : buildOrders(this);
    if (!this.postal) marks.arrows = this.trail;
    this.marks = marks;
    this.updateReach();
    this.shownLegal = st.legal;   // what the Orders panel was built from (tests compare)
    replace(this.ordersEl, el);
    this.renderBoard();
    this.frameOwn();
    this.renderInspector();
    this.renderPlayers();
    this.chat.renderTabs();
    this.logPane.render();
    this.renderPrompt(mine && !this.replay);
    this.board.settle();          // (a panel over the map may have opened or closed)
    this.updateBadges();
    if (mine && !this._wasMine && !this.replay) {
      this.centreOnForce();
    }
    // follow this seat's own force and attacks (never yank the map away while others play)
    if (mine && st.view.force && this._lastForceProv !== this.forceProvince()) {
      this._lastForceProv = this.forceProvince();
      this.centreOnForce();
    } else if (!st.view.force) {
      this._lastForceProv = null;
    }
    const target = mine && st.view.attack ? st.view.stacks.find((x) => x.id === st.view.attack[0]) : null;
    if (target && this._lastTarget !== target.id && this.board) {
      this._lastTarget = target.id;
      this.board.centreOn(target.province);
      this.renderBoard();
    }
    this._wasMine = mine;
    if (this.replay) this.renderReplay();
  }

  /** Once, while the map shows its opening view: widen it to take in this seat's own stacks
   *  (Board.frameAround; QA: a postal player's stacks in Siberia lay outside it). */
  frameOwn() {
    const v = this.st.view;
    if (this._framed || !this.seat || !this.board || !v || this.replay) return;
    const mine = [...new Set(v.stacks.filter((x) => x.owner === this.seat).map((x) => x.province))];
    if (!mine.length) return;
    this._framed = true;
    this.board.frameAround(mine);
  }

  forceProvince() {
    const v = this.st.view;
    if (!v || !v.force) return null;
    const fs = v.stacks.find((s) => s.id === v.force[0]);
    return fs ? fs.province : null;
  }

  renderHeader() {
    const st = this.st;
    const v = this.replay ? this.replay.view : st.view;       // (a replay shows its position's turn and phase: QA)
    const info = st.info || {};
    // (by post every player writes his orders at once: no Player-Turn order to show, QA)
    const order = v.postal ? [] : v.order || [];
    const cur = v.phasing;
    const curIdx = order.indexOf(cur);
    const phaseIdx = PHASES.findIndex(([k]) => k === v.phase);
    replace(this.headEl, 
      h("div.turnbox", { title: "Game-Turn" }, h("span.turn-label", "Turn"), h("span.turn-num", String(v.turn)),
        info.options && info.options.max_turns ? h("span.turn-of", `/${info.options.max_turns}`) : null),
      h("div.seqbox",
        // (with no Player-Turn order yet, the phase below names what happens: said once, not twice)
        h("div.seq-order", { role: "group", "aria-label": "Player-Turn order" }, order.length ? order.map((p, i) => h("span.seq-seat" + (p === cur ? ".cur" : i < curIdx ? ".done" : ""),
          { title: `${this.seatName(p)}${p === cur ? " — phasing" : ""}` }, seatBadge(p))) : h("span.small", v.postal ? "all players at once, by post"
            : v.phase === "trading" && st.status !== "open" ? "all players at once" : ""),
          // (001's drawn turn order: the players still to move are drawn one by one, unknown till then)
          order.length && (v.options || {}).drawn_turn_order ? (v.seats || []).filter((p) => !order.includes(p) && !(v.quit || []).includes(p))
            .map(() => h("span.seq-seat.undrawn", { title: "not drawn yet (001: each next player is drawn as a Player-Turn ends)" }, "?")) : null),
        // (a game still waiting for its players has no phase yet: QA read "Pre-game trading · Waiting
        // for players" before anyone could trade)
        h("div.seq-phases", st.status === "open" && !this.replay ? h("span.ph.cur", "Not started") :
          phaseIdx >= 0 ? PHASES.map(([k, n], i) => h("span.ph" + (i === phaseIdx ? ".cur" : i < phaseIdx ? ".done" : ""), n)) :
          h("span.ph.cur", PHASE_NAMES[v.phase] || v.phase))),
      h("div.pendbox", this.pendingSummary()),
      this.seat ? h("div.youbox", { title: "Your seat" }, seatBadge(this.seat), h("span.you-name", this.seatName(this.seat))) :
        h("div.youbox.spect", "watching"));
  }

  pendingSummary() {
    const st = this.st;
    if (this.replay) return h("span.pend", `Replay: step ${this.replay.shown ?? this.replay.at} of ${this.replay.max}`);
    if (st.status === "open") return h("span.pend", "Waiting for players");
    if (st.status === "over" || st.view.phase === "over") {     // (the phase line says "Game over": here, who won)
      const r = st.result || {};
      // (the engine's title where it gives one: "non-Red Decisive Victory", as the end-game card says)
      const ws = winnersOf(r);
      const how = ws.length ? `${winnersLine(this, r)}${r.title ? ` (${r.title})` : r.winner_color ? ` (${r.winner_color} Victory)` : ""}` : "no winner";
      return h("span.pend", { dataset: { result: ws.join(",") } }, how);
    }
    const p = st.pending || [];
    if (!p.length) return h("span.pend", "—");
    const me = p.find((x) => x.seat === this.seat);
    const due = (st.deadlines || {})[`seat:${this.seat}`];      // (a live game's deadline: then a bot decides)
    if (me) return h("span.pend.mine", h("span.pend-what", "Your decision: ", kindName(me.kind)),
      due ? [h("span.pend-sep", " · "), h("span.countdown", { dataset: { at: String(due) }, title: "then a bot decides for you" }, fmtLeft(due - Date.now()))] : null);
    return h("span.pend", p.slice(0, 3).map((x, i) => [i ? ", " : "", seatBadge(x.seat), " ", kindName(x.kind)]));
  }

  renderStrip() {
    const v = this.replay ? this.replay.view : this.st.view;
    const seats = this.st.seats || {};
    const pend = new Set(this.replay ? [] : (this.st.pending || []).map((p) => p.seat));
    const com = new Set(v.committee || []);
    const online = new Set(this.st.online || []);
    clear(this.stripEl);
    for (const p of v.seats) {
      const rec = seats[p] || {};
      const controls = Object.entries(v.control || {}).filter(([, s]) => s === p).map(([nat]) => nat);
      const vpCount = (v.vp[p] || []).length;
      this.stripEl.append(h("button.pcard" + (pend.has(p) ? ".pending" : "") + (p === this.seat ? ".me" : "") + ((v.quit || []).includes(p) ? ".quit" : ""), {
        type: "button", dataset: { seat: p }, onclick: () => { this.setTab("players"); this.focusPlayer = p; this.renderPlayers(); },
        title: `${this.seatName(p)} (${rec.kind || "?"})` },
      seatBadge(p),
      h("span.pc-name", this.seatName(p), rec.kind === "bot" ? h("span.pc-kind", " bot") : rec.kind === "open" ? h("span.pc-kind", " open") : null,
        // (a human seat: on a page now or not; QA saw a player who had closed his tab shown as ever)
        rec.kind === "human" ? h("span.pc-online" + (online.has(p) ? ".on" : ""), { title: online.has(p) ? "online now" : "not online now",
          "aria-hidden": "true", dataset: { online: online.has(p) ? "1" : "0" } }, online.has(p) ? " ●" : " ○") : null,
        rec.kind === "human" ? sr(online.has(p) ? ", online now" : ", not online now") : null),
      // (the symbols are for the eye; a screen reader reads the words beside them, QA: it read the
      // strip as "A Anna hammer and sickle 3 dagger 1"; an aria-label in words was taken out, axe
      // counts a name that does not hold the visible text a serious fault)
      h("span.pc-marks",
        h("span.mk.pm", { title: "Politburo markers", "aria-hidden": "true" }, "☭", v.politburo[p] || 0),
        sr(`: ${plural(v.politburo[p] || 0, "Politburo marker")}`),
        h("span.mk.am", { title: "Assassin markers", "aria-hidden": "true" }, "†", v.assassins[p] || 0),
        sr(`, ${plural(v.assassins[p] || 0, "Assassin marker")}`),
        vpCount ? h("span.mk.vp", { title: `${vpCount} unit(s) in ${p}'s section of the Victory Point Chart`, "aria-hidden": "true" }, "▤", vpCount) : null,
        vpCount ? sr(`, ${plural(vpCount, "unit")} on the Victory Point Chart`) : null,
        com.has(p) ? h("span.mk.cc", { title: "Central Committee member", "aria-hidden": "true" }, "CC") : null,
        com.has(p) ? sr(", Central Committee member") : null),
      controls.length ? h("span.pc-ctrl", controls.map((n) => h("span.ctl", { dataset: { color: D.blue_names[n] ? "Blue" : "Green" }, title: `${nationalityName(n)} control marker`, "aria-hidden": "true" }, n)),
        sr(`, controls ${controls.map(nationalityName).join(", ")}`)) : null));
    }
    // (the strip scrolls sideways where it is wider than the screen: its far edge fades while
    // there is more of it, QA found the players off-screen on a phone with no hint)
    const s = this.stripEl;
    const more = () => s.classList.toggle("more", s.scrollLeft + s.clientWidth < s.scrollWidth - 2);
    s.onscroll = more;
    requestAnimationFrame(more);
    if (!this._stripResize) {                    // (a phone turned: the strip's width changes)
      this._stripResize = true;
      window.addEventListener("resize", () => requestAnimationFrame(() => this.stripEl.onscroll && this.stripEl.onscroll()));
    }
  }

  renderBoard() {
    if (!this.board || !this.board.svg) return;
    const view = this.replay ? this.replay.view : this.st.view;
    if (!view) return;
    const m = this.replay ? { moves: {}, targets: new Set(), attackers: new Set(), candidates: new Set(), path: null, force: null,
      arrows: this.trailAt(this.replay.shown ?? this.replay.at), blasts: [], plans: [] } : (this.marks || {});
    const r = !this.replay && this.reachInfo && this.reachInfo.routes ? this.reachInfo : null;
    this.board.render(view.phase === "trading" ? this.ghostView(view) : this.postal && !this.replay ? this.postal.boardView(view) : view,
      { ...m, me: this.seat, strengths: this.strengths(), selected: this.sel && this.sel.stack, province: this.sel && this.sel.province,
        reach: r ? r.routes : m.reach || null, reachFrom: r ? r.from : m.reachFrom || null });
  }

  /** The engine's strengths of the stacks shown (of the replayed position in a replay). */
  strengths() {
    if (this.replay) return this.replay.strengths || {};
    return (this.postal && this.postal.shownStrengths()) || this.st.facts.strengths || {};
  }

  /** Before deployment: the dealt leaders, faint, where they will deploy (004 [15.5]). */
  ghostView(view) {
    const stacks = [];
    let id = -1;
    for (const [seat, hand] of Object.entries(view.hands || {})) {
      const byProv = {};
      for (const u of hand) (byProv[unit(u).province] ||= []).push(u);
      for (const [prov, us] of Object.entries(byProv)) {
        for (const colour of ["Red", "White"]) {
          const mine = us.filter((u) => unit(u).color === colour);
          if (mine.length) stacks.push({ id: id--, province: prov, owner: seat, units: mine, attached: {}, color: colour, ghost: true });
        }
      }
    }
    return { ...view, stacks };
  }

  renderPrompt(mine) {
    const st = this.st;
    const plot = this.postal && this.postal.plot;      // (a sheet sent may be revised: shown then too)
    if (!mine && !plot) {
      this.mapPrompt.hidden = true;
      return;
    }
    const k = (st.pending.find((p) => p.seat === this.seat) || {}).kind;
    this.mapPrompt.hidden = false;
    if (plot) {          // (a postal move being plotted: where it goes so far; the Orders tab adds it to the sheet)
      this.mapPrompt.dataset.plotting = "1";
      replace(this.mapPrompt, "▶ ", h("span.mp-long", `Plotting ${uname(plot.unit)}'s move: `), [plot.from, ...plot.path].join("→"),
        plot.problem ? h("span.mp-problem", ` — refused: ${plot.problem}`) : null,     // (on a phone the Orders tab is elsewhere)
        h("span", ` — ${tapWord()} the next province, or here for the Orders`));
      return;
    }
    delete this.mapPrompt.dataset.plotting;
    // (a force with no move left is halted in the Orders: no ring to tap, QA found the prompt saying otherwise)
    const moves = (st.legal || []).some((a) => a.t === "Move");
    replace(this.mapPrompt, "▶ ", h("span.mp-long", "Your decision: "), h("span.mp-kind", kindName(k)),
      st.view.force ? h("span", moves ? ` — ${tapWord()} a ringed province` : " — halt it (Orders)") : null);
  }

  updateBadges() {
    const n = this.chat.totalUnread();
    for (const b of this.root.querySelectorAll('[data-tab="talk"] .badge')) {
      b.hidden = !n;
      b.textContent = String(n);
    }
    const mine = this.root.dataset.mine === "1";
    for (const b of this.root.querySelectorAll('[data-tab="orders"] .badge')) {
      b.hidden = !mine;
      b.textContent = "!";
    }
    const t = "Russian Civil War";
    document.title = (mine ? "● Your move · " : "") + (n ? `(${n}) ` : "") + t;
  }

  // -- players: markers and the VP chart -----------------------------------------------------------
  renderPlayers() {
    const v = this.replay ? this.replay.view : this.st.view;
    if (!v) return;
    if (v.solitaire) return this.renderSolitaireSides(v);
    const { Red: red = {}, White: white = {} } = v.scores || {};
    const rows = v.seats.map((p) => {
      const rec = (this.st.seats || {})[p] || {};
      const chart = v.vp[p] || [];
      const controls = Object.entries(v.control || {}).filter(([, s]) => s === p).map(([n]) => n);
      const lead = v.stacks.filter((s) => s.owner === p).reduce((a, s) => a + leadersOf(s).length, 0);
      return h("section.player" + (p === this.focusPlayer ? ".focus" : ""), { dataset: { seat: p } },
        h("h3", seatBadge(p), ` ${this.seatName(p)}`, h("span.small", ` · ${rec.kind || ""}${rec.bot ? ` (${rec.bot})` : ""}${(v.quit || []).includes(p) ? " · quit" : ""}`)),
        h("div.pl-marks",
          h("span.mk.pm", `☭ ${v.politburo[p] || 0} Politburo`), h("span.mk.am", `† ${v.assassins[p] || 0} Assassins`),
          h("span.mk", `${lead} leader${lead === 1 ? "" : "s"} on the map`),
          (v.committee || []).includes(p) ? h("span.mk.cc", "Central Committee") : null),
        controls.length ? h("div.pl-ctrl", "Controls ", controls.map((n) => h("span.ctl", { dataset: { color: D.blue_names[n] ? "Blue" : "Green" } }, nationalityName(n)))) : null,
        h("div.pl-vp", h("span.small", "VP chart: "), chart.length ? chart.map(([u, up]) => h("span.chip.unit-chip" + (up ? "" : ".facedown"),
          { dataset: { color: unit(u).kind === "imperial" ? "" : unit(u).color }, title: up ? "face up" : "face down" }, ulabel(u))) : h("span.small", "empty")),
        h("div.pl-score.small", `If Red wins: ${red[p] ?? "?"} VP · if White wins: ${white[p] ?? "?"} VP`));
    });
    const un = v.vp.unassigned || [];
    const sum = h("section.player.unassigned", h("h3", "Unassigned section"),
      h("div.pl-vp", un.length ? un.map(([u]) => h("span.chip.unit-chip", { dataset: { color: unit(u).kind === "imperial" ? "" : unit(u).color } }, ulabel(u))) : h("span.small", "empty")),
      h("p.small", `Randomizer: ${v.randomizer} chits in the cup${v.subversion_doubled ? " · Subversive Attacks doubled this Player-Turn" : ""}`),
      (v.withdrawn || []).length ? h("p.small", `Withdrawn: ${v.withdrawn.map(nationalityName).join(", ")}`) : null);
    replace(this.playersEl, h("div.players-list", rows, sum));
    if (this.focusPlayer) {
      const el = this.playersEl.querySelector(`.player[data-seat="${this.focusPlayer}"]`);
      if (el) el.scrollIntoView({ block: "nearest" });
      this.focusPlayer = null;
    }
  }

  /** The SPI solitaire's Players pane: no Politburo, no Victory Points (004 [18.0]); the victory
   *  conditions instead (004 [28.11]-[28.15]), with where they stand (the engine's read-outs). */
  renderSolitaireSides(v) {
    const so = v.solitaire;
    const left = so.objective_left || [];
    replace(this.playersEl, h("div.players-list",
      h("section.player.solo-victory", { dataset: { seat: "R" } },
        h("h3", "Victory (004 [28.0])"),
        (so.victory || []).map((t) => h("p", t)),   // (the engine's words for its conditions)
        h("p.solo-left", `Non-Red units left in those regions: ${left.length}`),
        soloDanger(v) ? h("p.solo-danger", { role: "alert" }, soloDanger(v)) : null),
      h("section.player.unassigned", h("h3", "Randomizer"),
        h("p.small", `${v.randomizer} chits in the cup${v.subversion_doubled ? " · Subversive Attacks doubled this Player-Turn" : ""}`),
        (v.withdrawn || []).length ? h("p.small", `Withdrawn: ${v.withdrawn.map(nationalityName).join(", ")}`) : null)));
  }

  // -- the inspector: any stack, any province (004 [8.29]: everything is open) ----------------------
  renderInspector() {
    const el = this.inspectEl;
    const v = this.replay ? this.replay.view : this.st.view;
    if (!this.sel || !v) {
      el.hidden = true;
      return;
    }
    let code = this.sel.province;
    if (this.sel.stack) {
      const s = v.stacks.find((x) => x.id === this.sel.stack);
      if (!s) {
        el.hidden = true;
        return;
      }
      code = s.province;
    }
    const p = D.provinces[code];
    const here = v.stacks.filter((s) => s.province === code);
    const legal = this.replay ? [] : this.st.legal || [];
    el.hidden = false;
    // (collapsed: the head only, the map free.  QA: on a phone, plotting a postal move, the panel
    // took the lower half of the map and the rings under it could not be tapped: folded then,
    // unless the player unfolds it for this move)
    const plotting = !!(this.postal && this.postal.plot) && matchMedia("(max-width: 760px)").matches;
    const folded = plotting ? this._plotUnfolded !== this.postal.plot : !!store.get("inspector-folded", false);
    el.dataset.folded = folded ? "1" : "0";
    const fold = () => {
      if (plotting) this._plotUnfolded = folded ? this.postal.plot : null;
      else store.set("inspector-folded", !folded);
      this.renderInspector();
    };
    replace(el,
      h("div.insp-head", h("div", h("b", `${code} `), p.name, h("span.small", ` · ${p.region}${p.port ? " · port" : ""}${p.rail.length ? ` · rail to ${p.rail.join(", ")}` : ""}`)),
        h("button.modal-x", { type: "button", "aria-label": folded ? "Expand" : "Collapse", "aria-expanded": folded ? "false" : "true",
          dataset: { act: "fold-inspector" }, onclick: fold }, folded ? "▸" : "▾"),
        h("button.modal-x", { type: "button", "aria-label": "Close", onclick: () => this.select(null) }, "×")),
      h("div.insp-body", here.length ? here.map((s) => this.stackCard(s, legal, this.sel.stack === s.id)) : h("p.small", "No units here."),
        h("p.small.adj", `Adjacent: ${p.adjacent.join(", ")}`)));
  }

  stackCard(s, legal, open) {
    const lead = leadersOf(s);
    const loose = s.units.filter((u) => !lead.includes(u) && !attachedTo(s, u));
    const tree = h("ul.units",
      lead.map((l) => h("li.lead", { dataset: { unit: l } }, h("span.unit-dot", { dataset: { color: unit(l).color } }), `${unit(l).name} `,
        h("span.small", `leader ${unit(l).strength}${unit(l).asterisk ? " *" : ""}`),
        h("ul", s.units.filter((u) => attachedTo(s, u) === l).map((u) => h("li", { dataset: { unit: u } },
          h("span.unit-dot", { dataset: { color: unit(u).kind === "imperial" ? "" : unit(u).color } }), ulabel(u),
          unit(u).kind === "imperial" ? null : h("span.small", ` ${unit(u).strength}`)))))),
      loose.map((u) => h("li", { dataset: { unit: u } }, h("span.unit-dot", { dataset: { color: unit(u).kind === "imperial" ? "" : unit(u).color } }), ulabel(u),
        unit(u).kind === "imperial" ? null : h("span.small", ` ${unit(u).strength}`),
        unit(u).nationality ? h("span.small", ` · ${nationalityName(unit(u).nationality)}`) : null)));
    const acts = [];
    for (const a of legal) {
      if (a.t === "StartForce" && s.units.includes(a.unit)) acts.push([`Move ${uname(a.unit)}`, a]);
      else if (a.t === "DeclareAttack" && a.target === s.id) {
        const below = belowLowestOdds(this, a);      // (below 1:2 whoever joins: shown, not offered, 004 [8.47])
        const pact = this.chat.pactBreak(s.owner);   // (a pact made in chat: attacking breaks it)
        acts.push([`${a.subversive ? "Subversive attack" : "Attack"}${below ? ": below 1:2" : ""}${pact ? `: ${pact}` : ""}`, a, below]);
      }
      else if (a.t === "AddAttacker" && a.stack === s.id) {
        const n = ((this.st.facts.attack || {}).strength || {})[String(s.id)];
        acts.push([`Join the attack${n === undefined ? "" : ` (${n})`}`, a]);
      }
      else if (a.t === "RemoveAttacker" && a.stack === s.id) acts.push(["Withdraw from the attack", a]);
      else if (a.t === "Attach" && s.units.includes(a.unit)) acts.push([`Pick up ${ulabel(a.unit)}`, a]);
    }
    const assassins = legal.some((a) => a.t === "Assassinate" && s.units.includes(a.victim));
    return h("details.stack-card", { open, dataset: { stack: s.id } },
      h("summary", h("span.unit-dot.big", { dataset: { color: s.color } }),
        s.owner ? seatBadge(s.owner) : h("span.small", "uncontrolled "), ` ${stackName(s)} `, h("b", String(shownStrength(this.strengths(), s) ?? ""))),
      tree,
      acts.length || assassins ? h("div.row.wrap", acts.map(([label, a, below]) => h("button.btn.small", { type: "button", disabled: this.busy || !!below,
        dataset: { act: a.t }, onclick: () => (a.t === "DeclareAttack" ? declareWith(this, a) : this.act(a)) }, label)),
      assassins ? h("button.btn.small", { type: "button", onclick: () => openAssassinDialog(this) }, "Assassins…") : null) : null);
  }

  // -- replay --------------------------------------------------------------------------------------
  async openReplay() {
    if (this.postal && this.postal.reports.length) {      // a postal game replays phase by phase: its archive
      this.postal.openArchive();
      return;
    }
    const max = this.st.seq;
    let record = null;
    try {
      record = await api("GET", `/api/games/${this.gid}/record`, null, this.adminToken);
    } catch {
      record = null;
    }
    this.replay = { at: max, max, record, view: this.st.view, strengths: this.st.facts.strengths || {}, timer: null, serverViews: true };
    this.replayEl.hidden = false;
    this.setTab(window.matchMedia("(max-width: 760px)").matches ? "map" : "log");
    this.render();                            // (the Orders panel says where the live game's orders went)
    await this.replayTo(max);
  }

  /** The Orders panel during a replay: what it shows instead of the live game's orders, and the
   *  way back to them. */
  replayOrders(mine) {
    const over = this.st.status === "over";
    const el = h("div.card.replay-note", h("h3", "Replay"),
      h("p", over ? "The map shows the replay of the game." : "The map shows the replay. The game goes on meanwhile" +
        (mine ? " and waits for your decision" : "") + ": its orders come back with it."),
      h("button.btn.primary", { type: "button", dataset: { act: "close-replay" }, onclick: () => this.closeReplay() },
        over ? "Close the replay" : "Back to the game"));
    return { el, marks: {} };
  }

  closeReplay() {
    if (this.replay && this.replay.timer) clearInterval(this.replay.timer);
    this.replay = null;
    this.replayEl.hidden = true;
    this.logPane.markReplay(null);
    this.render();
  }

  async fetchView(n) {
    if (this.snaps.has(n)) return this.snaps.get(n);
    const rp = this.replay;
    if (rp && rp.serverViews && !(rp.retryAt > Date.now())) {
      try {
        const r = await api("GET", `/api/games/${this.gid}/view?seq=${n}`, null, this.adminToken);
        if (r && r.view) {
          const snap = { view: r.view, strengths: r.strengths || {} };
          this.snaps.set(n, snap);
          return snap;
        }
      } catch (e) {
        if (e.code === "rate_limited") {
          // (the server's limit on costly requests: QA played a replay, and its map froze for good
          // at the first refusal) wait as long as the server says, then show the step then shown
          const wait = Math.max(0.5, Number((e.frame || {}).retry_after) || 1) * 1000;
          rp.retryAt = Date.now() + wait;
          setTimeout(() => { if (this.replay === rp && !this.snaps.has(rp.at)) this.replayTo(rp.at); }, wait + 50);
        } else {
          rp.serverViews = false;        // (this page may not see past positions: it shows those it saw)
        }
      }
    }
    return null;
  }

  async replayTo(n) {
    const r = this.replay;
    if (!r) return;
    n = Math.max(0, Math.min(r.max, n));
    r.at = n;
    const snap = await this.fetchView(n);
    let shown = n;
    if (snap) {
      r.view = snap.view;
      r.strengths = snap.strengths;
    } else {
      // the nearest position this page saw (it may have joined or reloaded later)
      let best = null;
      for (const k of this.snaps.keys()) if (best === null || Math.abs(k - n) < Math.abs(best - n) || (Math.abs(k - n) === Math.abs(best - n) && k < best)) best = k;
      if (best !== null) {
        ({ view: r.view, strengths: r.strengths } = this.snaps.get(best));
        shown = best;
      }
    }
    r.shown = shown;
    this.renderReplay();
    this.renderBoard();
    this.renderInspector();
    this.renderPlayers();
    this.renderHeader();
    this.renderStrip();
    this.logPane.markReplay(n);
  }

  renderReplay() {
    const r = this.replay;
    if (!r) return;
    const a = r.record && r.record.actions ? r.record.actions[r.at - 1] : null;
    // what happened at this step: the log's lines for it (the record, when this page may read it,
    // names the action itself)
    const said = this.log.lines.filter((l) => l.seq === r.at && l.cls !== "minor").map((l) => l.text);
    const what = a || r.at === 0 ? describeAction(a) : said[0] || `step ${r.at}`;
    const slider = h("input.replay-slider", { type: "range", min: 0, max: r.max, value: r.at, "aria-label": "Replay position",
      oninput: (e) => this.replayTo(Number(e.target.value)) });
    const play = () => {
      if (r.timer) {
        clearInterval(r.timer);
        r.timer = null;
      } else {
        if (r.at >= r.max) r.at = 0;
        r.timer = setInterval(() => {
          if (!this.replay || r.at >= r.max) {
            clearInterval(r.timer);
            r.timer = null;
            this.renderReplay();
            return;
          }
          this.replayTo(r.at + 1);
        }, 180);
      }
      this.renderReplay();
    };
    replace(this.replayEl, 
      h("div.replay-row",
        h("button.btn.small", { type: "button", "aria-label": "Back", onclick: () => this.replayTo(r.at - 1) }, "◀"),
        h("button.btn.small", { type: "button", "aria-label": r.timer ? "Pause" : "Play", onclick: play }, r.timer ? "❚❚" : "▶"),
        h("button.btn.small", { type: "button", "aria-label": "Forward", onclick: () => this.replayTo(r.at + 1) }, "▶▶"),
        slider,
        h("button.btn.small", { type: "button", dataset: { act: "close-replay" }, onclick: () => this.closeReplay() }, "Close")),
      h("div.replay-caption", h("b", `Step ${r.at} / ${r.max}`), ` · Game-Turn ${r.view ? r.view.turn : "?"} · ${what}`,
        a && said.length ? h("span.small", ` — ${said.slice(0, 2).join("; ")}${said.length > 2 ? "; …" : ""}`) : null,
        r.shown !== r.at ? h("span.small.warn", ` (map as at step ${r.shown}: this page did not see that position)`) : null));
  }
}

