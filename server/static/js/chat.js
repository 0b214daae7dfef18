// Negotiation: the public channel, one private channel per pair of seats, group channels, unread
// counts, the history fetched again on every (re)connection, and structured proposals (trade,
// Central Committee, purge plan, Czar's execution, pact) shown as cards with Accept / Decline.
// The bots talk (issue 18): their replies carry their reasons (`reply.reason`), a counter-
// proposal card names the proposal it counters (`counter`: its message id), a broken pact is
// announced to its victim (`pact_broken`, a message of no seat), and the Propose menu offers
// trades, pacts and Committees.  The SPI solitaire has no negotiation (no Politburo, Committee
// or trades, 004 [18.0]; its seat N is the engine, which answers nothing): no Propose menu there,
// and no proposal is sent (the server refuses one addressed to an engine seat: `engine_seat`).

import { h, store, fmtTime, clear, modal, toast, replace, touchScreen, followBottom, notifyBrowser, committeeOf, membersKey } from "./util.js";
import { unit, uname, pct } from "./data.js";
import { glossed } from "./log.js";
import { PHASE_LABEL } from "./postal.js";
import { seatBadge, answerInto, openTradeDialog, openPactDialog, openCommitteeDialog } from "./dialogs.js";

const MAX_TEXT = 2000;      // (the server's limit on a message, docs/protocol.md)

export class Chat {
  constructor(app) {
    this.app = app;
    this.channels = new Map(); // name -> {info, msgs: Map(id -> msg)}
    this.answering = new Set(); // "channel:id" of the cards this page has answered (or is answering)
    this.drafts = new Map();   // channel -> the text typed there and not sent (the others' than the box's)
    this.draftOf = null;       // the channel whose draft the box holds
    this.current = "public";
    this.readKey = null;
    this.read = {};
    this.tabs = h("div.chan-tabs", { role: "tablist" });
    this.list = h("ol.msg-list", { "aria-live": "polite", tabindex: 0, "aria-label": "Messages" });
    this.input = h("textarea.msg-input", { rows: 2, placeholder: "Write to this channel… (Enter sends)", "aria-label": "Message",
      maxlength: MAX_TEXT, onkeydown: (e) => {
        if (e.key === "Enter" && !e.shiftKey) {
          e.preventDefault();
          this.send();
        }
      } });
    this.sendBtn = h("button.btn.primary", { type: "button", onclick: () => this.send(), dataset: { act: "send" } }, "Send");
    // (a postal game's Committees are orders on the sheets, not the live game's consents: the menu
    // offers a trade and a pact there, and says how the rest is done; a trade by post is a proposal
    // without an engine action, made when both sheets hold the mirror orders, postal [4.2]: a bot
    // answers it and writes its own order)
    const live = [
      h("button.btn", { type: "button", role: "menuitem", dataset: { act: "committee-dialog" }, onclick: () => this._propose(openCommitteeDialog) }, "Central Committee…")];
    const byPost = h("p.small.postal-propose", "By post, a trade is made when both sheets hold the matching orders: propose it here " +
      "(a bot answers and writes its order; a player writes his), then add your side to your sheet. A purge is an order " +
      "each participant writes on his sheet (the Orders panel's Purge card).");
    this.proposeMenu = h("div.propose-menu", { hidden: true, role: "menu" },
      h("button.btn", { type: "button", role: "menuitem", dataset: { act: "propose-trade" }, onclick: () => this._propose(openTradeDialog) }, "Trade…"),
      h("button.btn", { type: "button", role: "menuitem", dataset: { act: "propose-pact" }, onclick: () => this._propose(openPactDialog) }, "Pact…"),
      live[0], byPost);
    this.proposeBtn = h("button.link", { type: "button", dataset: { act: "propose-menu" }, "aria-haspopup": "menu",
      onclick: () => {
        const postal = !!this.app.postal;
        for (const b of live) b.hidden = postal;
        byPost.hidden = !postal;
        this.proposeMenu.hidden = this.solitaire() || !this.proposeMenu.hidden;
      } }, "Propose ▾");
    this.tools = h("div.chat-tools", this.proposeBtn,
      h("button.link", { type: "button", dataset: { act: "new-group" }, onclick: () => this.newGroupDialog() }, "+ group channel"),
      this.proposeMenu);
    // (how long a message may be, said as it nears the limit: a paste past it is cut, QA found that silent)
    this.count = h("span.msg-count.small", { hidden: true, "aria-live": "polite" });
    this.input.addEventListener("input", () => {
      const n = this.input.value.length;
      this.count.hidden = n < MAX_TEXT - 200;
      this.count.classList.toggle("full", n >= MAX_TEXT);
      this.count.textContent = n >= MAX_TEXT ? `${MAX_TEXT} characters: the most a message holds; anything beyond it is cut` : `${n} / ${MAX_TEXT}`;
    });
    this.composer = h("div.composer", this.input, this.sendBtn, this.count);
    this.head = h("div.chan-head");
    // The list stays on the newest message while the reader is there, whatever resizes it (the
    // Orders panel growing, a phone turning); a reader scrolled up is not yanked down, and is
    // told when new messages arrive below.
    this.shown = { channel: null, last: 0 };
    this.below = h("button.new-below", { type: "button", hidden: true, dataset: { act: "new-below" }, onclick: () => this.toBottom() },
      "New messages below ↓");
    followBottom(this, this.list, 40, () => { this.below.hidden = true; });
    if (globalThis.ResizeObserver) new ResizeObserver(() => { if (this.stuck) this.list.scrollTop = this.list.scrollHeight; }).observe(this.list);
    this.el = h("div.chat-pane", this.tabs, this.head, this.list, this.below, this.composer, this.tools);
  }

  /** The SPI solitaire (004 [18.0]): nothing to propose, to nobody. */
  solitaire() {
    return Boolean((this.app.st.view || {}).solitaire);
  }

  /** A seat the game's engine plays (the solitaire's N): it answers no proposal. */
  engineSeat(seat) {
    return ((this.app.st.seats || {})[seat] || {}).kind === "engine";
  }

  /** A proposal dialog from the Propose menu, to the other seat of the pair channel shown. */
  _propose(open) {
    this.proposeMenu.hidden = true;
    const c = this.channels.get(this.current);
    const other = c && c.info.kind === "pair" ? c.info.members.find((m) => m !== this.app.seat) : undefined;
    open(this.app, { to: other, members: c && c.info.kind !== "public" ? c.info.members : [] });
  }

  toBottom() {
    this.stuck = true;
    this.below.hidden = true;
    this.list.scrollTop = this.list.scrollHeight;
  }

  // -- state ---------------------------------------------------------------------------------------
  setSeat(seat) {
    this.readKey = `read:${this.app.gid}:${seat || "-"}`;
    this.read = store.get(this.readKey, {});
  }

  async onWelcome(channels) {
    for (const c of channels) this._chan(c);
    await this.catchUp();
    if (!this.channels.has(this.current)) this.current = "public";
    this.render();
  }

  _chan(info) {
    let c = this.channels.get(info.name);
    if (!c) {
      c = { info, msgs: new Map() };
      this.channels.set(info.name, c);
    } else {
      c.info = { ...c.info, ...info };
    }
    return c;
  }

  async catchUp() {
    const conn = this.app.conn;
    for (const [name, c] of this.channels) {
      let after = c.msgs.size ? Math.max(...c.msgs.keys()) : 0;
      for (let i = 0; i < 20; i++) {
        let r;
        try {
          r = await conn.request("history", { channel: name, after, limit: 500 });
        } catch (e) {
          break;
        }
        for (const m of r.messages) c.msgs.set(m.id, m);
        if (r.messages.length < 500) break;
        after = r.messages[r.messages.length - 1].id;
      }
    }
  }

  onPush(f) {
    if (f.t === "msg") {
      const c = this.channels.get(f.channel) || this._chan({ name: f.channel, kind: "group", members: [], title: "" });
      const fresh = !c.msgs.has(f.msg.id);
      c.msgs.set(f.msg.id, f.msg);
      if (f.channel === this.current) this.renderMessages();
      this.renderTabs();
      this.app.updateBadges();
      if (fresh) this._invited(f.channel, f.msg);
      // (a Committee invitation, or an answer to one, changes the Orders panel's Politics card:
      // its Decline, orders.js)
      if (fresh && ((f.msg.proposal && f.msg.proposal.kind === "committee") || f.msg.reply)) this.app.renderSoon();
    } else if (f.t === "channel") {
      this._chan(f.channel);
      this.renderTabs();
      this.app.updateBadges();
    }
  }

  /** A proposal put to this page's seat as it comes (QA: a bot's Committee invitation, and the
   *  purge that followed it seconds later, went unseen in a side channel): a toast that opens its
   *  card, and the browser's notification when the page is hidden. */
  _invited(channel, m) {
    const p = m.proposal;
    const me = this.app.seat;
    if (!p || !me || m.seat === me || !(p.addressees || []).includes(me)) return;
    const who = `${this.app.seatName(m.seat)} (${m.seat})`;
    const what = {
      committee: [`${who} invites you to a Central Committee of ${committeeOf(p.members)}`,
        "A member of the Central Committee cannot be purged (004 [11.14]). Answer on its card in Talk."],
      trade: [`${who} offers you a trade`, "Answer on its card in Talk, or in Orders."],
      pact: [`${who} proposes a pact until the end of Game-Turn ${p.until}`, "Answer on its card in Talk."],
      purge: [`${who} asks you to purge ${p.target} together`, "Answer on its card in Talk."],
      execution: [`${who} asks you to order the Czar's execution`, "Answer on its card in Talk."],
    }[p.kind];
    if (!what) return;
    const t = toast(what[0], "info", what[1]);
    t.classList.add("invite");
    t.dataset.msg = m.id;
    const open = () => {                      // (the toast goes on a click: to the card it tells of)
      this.current = channel;
      this.app.showTalk();
      this.render();
      this.flash(m.id);
    };
    // (its button opens the card, by a click, a tap, or Tab and Enter; the rest of the toast lets
    // clicks through to the map, as every other toast does: a toast that took them hid the
    // provinces under it from a tap for seconds)
    t.append(h("button.toast-open", { type: "button", onclick: (e) => { e.stopPropagation(); t.remove(); open(); } }, "Open"));
    notifyBrowser(this.app.gid, "Russian Civil War: a proposal to you", what[0]);
  }

  unread(name) {
    const c = this.channels.get(name);
    if (!c) return 0;
    const seen = this.read[name] || 0;
    let n = 0;
    for (const m of c.msgs.values()) if (m.id > seen && m.seat !== this.app.seat) n++;
    return n;
  }

  totalUnread() {
    let n = 0;
    for (const name of this.channels.keys()) n += this.unread(name);
    return n;
  }

  markRead() {
    if (!this.app.talkVisible()) return;
    const c = this.channels.get(this.current);
    if (!c || !c.msgs.size) return;
    const last = Math.max(...c.msgs.keys());
    if ((this.read[this.current] || 0) < last) {
      this.read[this.current] = last;
      store.set(this.readKey, this.read);
      this.renderTabs();
      this.app.updateBadges();
    }
  }

  title(c) {
    const i = c.info;
    if (i.kind === "public") return "Public";
    if (i.kind === "pair") {
      const other = i.members.find((m) => m !== this.app.seat) || i.members[1];
      return this.app.seat && i.members.includes(this.app.seat) ? `${this.app.seatName(other)}` : i.members.join("–");
    }
    return i.title || `Group ${i.members.join(", ")}`;
  }

  // -- rendering -----------------------------------------------------------------------------------
  render() {
    this._swapDraft();
    this.renderTabs();
    this.renderMessages();
  }

  /** Each channel keeps its own draft: the box shows the current channel's (QA: a line typed in a
   *  private channel stayed in the box on the Public tab, where Enter would have sent it to all). */
  _swapDraft() {
    if (this.draftOf === this.current) return;
    if (this.draftOf != null) this.drafts.set(this.draftOf, this.input.value);
    this.input.value = this.drafts.get(this.current) || "";
    this.drafts.delete(this.current);
    this.draftOf = this.current;
    this.input.dispatchEvent(new Event("input"));       // (its length, said near the limit)
  }

  renderTabs() {
    // the tab buttons are kept and updated in place (a push arriving between the press and the
    // release of a click must not swallow it)
    this.tabEls ||= new Map();
    const order = [...this.channels.values()].sort((a, b) => {
      const rank = { public: 0, pair: 1, group: 2 };
      return (rank[a.info.kind] ?? 3) - (rank[b.info.kind] ?? 3) || a.info.name.localeCompare(b.info.name);
    });
    const want = [];
    for (const c of order) {
      const name = c.info.name;
      const n = this.unread(name);
      const other = c.info.kind === "pair" ? c.info.members.find((m) => m !== this.app.seat) : null;
      let b = this.tabEls.get(name);
      if (!b) {
        b = h("button.chan-tab", { type: "button", role: "tab", onclick: () => this.show(name) });
        this.tabEls.set(name, b);
      }
      b.className = "chan-tab" + (name === this.current ? " on" : "") + (n ? " has-unread" : "");
      b.dataset.channel = name;
      b.dataset.kind = c.info.kind;
      b.setAttribute("aria-selected", name === this.current ? "true" : "false");
      replace(b, other ? seatBadge(other) : c.info.kind === "public" ? h("span.chan-ico", "☰") : h("span.chan-ico", "⚑"),
        h("span.chan-name", this.title(c)), n ? h("span.unread", { "aria-label": `${n} unread` }, String(n)) : null);
      want.push(b);
    }
    want.forEach((b, i) => {
      if (this.tabs.children[i] !== b) this.tabs.insertBefore(b, this.tabs.children[i] || null);
    });
    while (this.tabs.children.length > want.length) this.tabs.lastElementChild.remove();
    // (on a phone the tabs are one row that scrolls sideways: the open one is kept in view)
    // (when another is opened only: a message coming in leaves the row where the reader put it)
    const on = this.tabEls.get(this.current);
    const t = this.tabs;
    if (on && this._tabShown !== this.current && t.scrollWidth > t.clientWidth
        && (on.offsetLeft < t.scrollLeft || on.offsetLeft + on.offsetWidth > t.scrollLeft + t.clientWidth)) {
      t.scrollLeft = Math.max(0, on.offsetLeft - 8);
    }
    if (on) this._tabShown = this.current;
  }

  show(name) {
    this.current = name;
    this.render();
    this.markRead();
    // (not on a touch screen: the focus would bring up the keyboard over the messages just opened)
    if (!touchScreen()) this.input.focus({ preventScroll: true });
  }

  /** The messages drawn again at the next frame (once however often it is asked: the engine's
   *  answers about the cards, the game's news of the proposals). */
  renderMessagesSoon() {
    if (this._soon) return;
    this._soon = requestAnimationFrame(() => {
      this._soon = null;
      this.renderMessages();
    });
  }

  renderMessages() {
    const c = this.channels.get(this.current);
    const top = this.list.scrollTop;
    clear(this.list);
    if (!c) return;
    const i = c.info;
    const canPost = this.app.seat && i.members.includes(this.app.seat);
    // a bot reads no words: it answers the proposals of the Propose menu (rcw.bots.negotiation)
    const bot = i.kind === "pair" && i.members.includes(this.app.seat)
      && i.members.some((s) => s !== this.app.seat && ((this.app.st.seats || {})[s] || {}).kind === "bot");
    replace(this.head, h("span.chan-title", this.title(c)),
      h("span.small", i.kind === "public" ? " · every player reads this" : i.kind === "pair" ? ` · private: ${i.members.join(" and ")} only` : ` · members ${i.members.join(", ")}`),
      i.kind === "pair" && i.members.includes(this.app.seat) ? this._pactBadge(i.members) : null,
      bot && !this.solitaire() ? h("div.small.bot-hint", "A bot reads no messages: it answers proposals (Propose ▾)") : null);
    this.composer.hidden = !canPost;
    this.tools.hidden = !this.app.seat;
    this.proposeBtn.hidden = this.solitaire();         // (no Politburo, Committee or trades: 004 [18.0])
    if (this.proposeBtn.hidden) this.proposeMenu.hidden = true;
    const msgs = [...c.msgs.values()].sort((a, b) => a.id - b.id);
    const replies = {};
    for (const m of msgs) if (m.reply) (replies[m.reply.msg] ||= []).push(m);
    if (!msgs.length) this.list.append(h("li.msg-empty", i.kind === "pair" ? "No messages yet. Only the two of you can read this channel." : "No messages yet."));
    for (const m of msgs) this.list.append(this._msg(m, replies[m.id] || [], c));
    const f = this.flashed;
    if (f && f.until > Date.now()) {
      const el = this.list.querySelector(`.msg[data-id="${f.id}"]`);
      if (el) el.classList.add("flash");
    }
    const last = msgs.length ? msgs[msgs.length - 1].id : 0;
    const sameChannel = this.shown.channel === this.current;
    const mineLast = msgs.length && msgs[msgs.length - 1].seat === this.app.seat;
    if (!sameChannel || this.stuck || mineLast) {
      this.toBottom();
    } else {
      this.list.scrollTop = top;                       // (where the reader was)
      if (last > this.shown.last) this.below.hidden = false;
    }
    this.shown = { channel: this.current, last };
    this.markRead();
  }

  _msg(m, replies, c) {
    if (m.pact_broken) return this._notice(m);
    const mine = m.seat === this.app.seat;
    const li = h("li.msg" + (mine ? ".mine" : "") + (m.reply ? ".reply" : ""), { dataset: { id: m.id, seat: m.seat } },
      h("div.msg-head", seatBadge(m.seat), h("span.msg-who", this.app.seatName(m.seat)), h("span.msg-time", fmtTime(m.ts))),
      m.proposal || m.reply ? null : h("div.msg-text", glossed(m.text)));
    if (m.proposal) li.append(this._card(m, replies, c));
    if (m.reply) li.append(...this._reply(m).filter(Boolean));
    return li;
  }

  /** A reply: who accepted or declined which proposal, and the bot's reason apart. */
  _reply(m) {
    const r = m.reply;
    const reason = r.reason || "";
    const head = reason && m.text.endsWith(`: ${reason}`) ? m.text.slice(0, -reason.length - 2) : m.text;
    return [h("div.msg-text", h("button.link.msg-ref", { type: "button", dataset: { act: "goto-msg", msg: r.msg },
      title: `Show proposal #${r.msg}`, onclick: () => this.flash(r.msg) }, head)),
      reason ? h("div.reply-reason", { dataset: { accept: r.accept ? "1" : "0" } }, glossed(reason)) : null];
  }

  /** A pact broken (a message of no seat, to its victim): a notice, not a player's words. */
  _notice(m) {
    const b = m.pact_broken;
    return h("li.msg.notice.pact-broken", { dataset: { id: m.id, pactBroken: b.pact.id } },
      h("div.msg-head", h("span.notice-ico", { "aria-hidden": "true" }, "⚠"), h("span.msg-who", "Pact broken"),
        h("span.msg-time", fmtTime(m.ts))),
      h("div.msg-text", m.text));
  }

  /** Scroll to message `id` of the channel shown and flash it. */
  flash(id) {
    const el = this.list.querySelector(`.msg[data-id="${id}"]`);
    if (!el) return;
    el.scrollIntoView({ block: "center", behavior: "smooth" });
    el.classList.remove("flash");
    void el.offsetWidth;
    el.classList.add("flash");
    // (kept for the flash's time: the list drawn again meanwhile, as the game's news redraws the
    // cards, would take it away before it was seen)
    this.flashed = { id, until: Date.now() + 1500 };
  }

  /** The pacts made in chat that this seat is party to, as the server keeps them (the state
   *  frame's `pacts`, and since then the accepting replies it posted, each carrying the pact
   *  it kept as `reply.pact`): `{id, a, b, until, broken}` (`broken`: the notice, if one came). */
  pacts() {
    const byId = new Map((this.app.st.pacts || []).map((p) => [p.id, { ...p }]));
    const broken = [];
    for (const [, c] of this.channels) {
      for (const m of c.msgs.values()) {
        const p = m.reply && m.reply.pact;
        if (p && p.id && !byId.has(p.id)) byId.set(p.id, { ...p, broken: null });
        if (m.pact_broken) broken.push(m.pact_broken);
      }
    }
    for (const b of broken) {
      const p = byId.get(b.pact.id) || { ...b.pact };
      p.broken = b;
      byId.set(p.id, p);
    }
    const me = this.app.seat;
    return [...byId.values()].filter((p) => p.a === me || p.b === me);     // (a group channel's: those of others too)
  }

  /** The pact in force between this page's seat and ``seat`` (not broken, its last Game-Turn
   *  not over), or null: attacking, purging or assassinating across it breaks it. */
  pactWith(seat) {
    const me = this.app.seat;
    const turn = (this.app.st.view || {}).turn || 0;
    if (!me || !seat || seat === me) return null;
    return this.pacts().find((p) => !p.broken && p.until >= turn && [p.a, p.b].includes(me) && [p.a, p.b].includes(seat)) || null;
  }

  /** The words for an act against ``seat`` that breaks this seat's pact with him ("breaks your
   *  pact with B (until the end of Game-Turn 3)"), or "" with no pact: the one wording of the
   *  attack buttons, the stack cards and the Purge and Assassins dialogs. */
  pactBreak(seat) {
    const p = this.pactWith(seat);
    return p ? `breaks your pact with ${seat} (until the end of Game-Turn ${p.until})` : "";
  }

  _pactBadge(members) {
    const turn = (this.app.st.view || {}).turn || 0;
    const ps = this.pacts().filter((p) => members.includes(p.a) && members.includes(p.b) && (p.broken || p.until >= turn));
    if (!ps.length) return null;
    const p = ps[ps.length - 1];
    return h("span.pact-badge" + (p.broken ? ".broken" : ""), { dataset: { pact: p.id } },
      p.broken ? `pact broken by ${p.broken.by}` : `pact until the end of Game-Turn ${p.until}`);
  }

  _card(m, replies, c) {
    const p = m.proposal;
    const view = this.app.st.view || {};
    const seat = this.app.seat;
    const answered = Object.fromEntries(replies.map((r) => [r.seat, r.reply.accept]));
    // the game's word, from its log, on a proposal answered elsewhere (the Orders panel, a bot),
    // and a trade's fate or a purge's end (QA: the card said "A did not answer" after A had joined
    // from Orders; an approved purge's card still asked, and its Accept was refused)
    const { answers, fate, purge } = this.app.log ? this.app.log.answersTo(p) : { answers: {} };
    for (const [s, a] of Object.entries(answers)) if (!(s in answered)) answered[s] = a;
    let title = "";
    let body = [];
    if (p.kind === "trade") {
      title = p.post ? "Trade by post" : "Trade offer";
      const side = (ls, pm, am) => {
        const bits = (ls || []).map((x) => `${uname(x)} (${unit(x).strength})`);
        if (pm) bits.push(`${pm} Politburo`);
        if (am) bits.push(`${am} Assassin`);
        return bits.join(", ") || "nothing";
      };
      body = [h("div.trade-line", h("span.small", `${m.seat} gives `), h("b", side(p.give_leaders, p.give_politburo, p.give_assassins))),
        h("div.trade-line", h("span.small", `${p.to} gives `), h("b", side(p.take_leaders, p.take_politburo, p.take_assassins)))];
      if (p.post) body.push(this._postTrade(m, p, answered));
    } else if (p.kind === "committee") {
      const pm = p.members.reduce((a, s) => a + ((view.politburo || {})[s] || 0), 0);
      title = "Central Committee";
      body = [h("div", `Members ${p.members.join(", ")} · ${pm} Politburo markers`)];
    } else if (p.kind === "purge") {
      title = `Purge ${p.target}`;
      const now = h("div.small.purge-now");
      body = [h("div", `By ${p.purgers.join(" + ")}; spoils in the order ${p.shares.join(", ")}`), now];
      if (purge && purge.over) now.textContent = `The purge was ${purge.over}.`;
      else if (view.stacks && this.app.ask) {   // the engine's odds for this purge, as the position stands
        answerInto(this.app, now, "purge_odds", { purgers: p.purgers }, (odds) =>
          `Strength ${odds.strength} now (${odds.column}): about ${odds.expected_points.toFixed(1)} points, counterpurge ${pct(odds.counterpurge)}`);
      }
    } else if (p.kind === "execution") {
      title = "Execute the Czar";
      body = [h("div", "An order of the Central Committee (004 [13.5]).")];
    } else if (p.kind === "pact") {
      title = "Pact";
      body = [h("div", `No attack on each other's stacks, no purge, no assassination between ${p.with.join(" and ")} until the end of Game-Turn ${p.until}.`),
        h("div.small", "The rules do not bind it: a broken pact is announced to its victim, and bots remember.")];
    }
    // a counter-proposal says which proposal it counters (a link to it)
    const counter = p.counter ? h("span.counter-tag", typeof p.counter === "number"
      ? h("button.link", { type: "button", dataset: { act: "goto-msg", msg: p.counter }, onclick: () => this.flash(p.counter) }, `counter-proposal to #${p.counter}`)
      : "counter-proposal") : null;
    // status per addressee (a finished game takes no more answers: none is asked for)
    const over = this.app.st.status === "over" || view.phase === "over";
    // (an addressee who consents to that very Committee now has nothing to answer: QA saw a
    // Committee proposed again ask its sitting members to accept it)
    const already = new Set(p.kind === "committee" && !over ? (p.addressees || []).filter((s) => !(s in answered)
      && membersKey(((view.committee_consent || {})[s]) || []) === membersKey(p.members)) : []);
    for (const s of already) answered[s] = true;
    // (a trade the game no longer holds open takes no answer, whoever looks at its card)
    const gone = p.kind === "trade" && !p.post && !(view.offers || []).some((o) => o.id === p.offer);
    let open = seat && (p.addressees || []).includes(seat) && !(seat in answered);
    let closed = null;
    if (over && open) {
      open = false;
      closed = "the game is over";
    }
    if (fate && fate.fate === "withdrawn") {
      open = false;
      closed = `withdrawn by ${fate.by || m.seat}`;
    } else if (gone && !over && !Object.keys(answered).length) {
      open = false;
      closed = "no longer open";
    }
    // a Committee invitation stands while its proposer consents to exactly those members (the
    // engine's answer, the `consents` query, 004 [11.11]; until it comes the card stays open, and
    // the server refuses an acceptance of one that no longer stands)
    // (and once it has not, it is over, though the proposer consent to the same again later, QA:
    // an old card came back to life and asked again: the game's log says so; while the log does
    // not close it, the engine's consents query decides, as it knows of consents no event tells,
    // a quit member's, and the log may have a gap: review)
    const left = p.kind === "committee" && this._withdrawn(m);
    if (left && !closed) {
      open = false;
      closed = `${m.seat} no longer consents to it`;
    } else if (p.kind === "committee" && open && this.app.ask) {       // (the log closes a card; the engine keeps one open)
      const args = { seat: m.seat, members: p.members };
      const stands = this.app.known("consents", args);
      if (stands === undefined) this.app.ask("consents", args).then(() => this.renderMessagesSoon()).catch(() => {});
      else if (!stands) {
        open = false;
        closed = `${m.seat} no longer consents to it`;
      }
    }
    if (p.post && open && this._postOver(p)) {
      open = false;
      closed = "its phase is adjudicated";
    }
    if (purge && purge.over && open) {
      open = false;
      closed = `the purge was ${purge.over.split(":")[0]}`;
    }
    if (p.kind === "pact" && open && p.until < (view.turn || 0)) {
      open = false;
      closed = `Game-Turn ${p.until} is over`;
    }
    // (a card closed for whatever reason asks no one for an answer: QA read "A to answer · C no
    // longer consents to it" as a question still open)
    const status = (p.addressees || []).map((s) => {
      const a = answered[s];
      return h("span.ans" + (a === true ? ".yes" : a === false ? ".no" : ""), seatBadge(s),
        already.has(s) ? " consents already" : a === true ? " accepted" : a === false ? " declined" : this.engineSeat(s) ? " never answers (the engine)"
          : over || gone || closed ? " did not answer" : " to answer");
    });
    // the proposer of a trade still open withdraws it here too (the engine lists the step)
    const withdraw = p.kind === "trade" && m.seat === seat && !gone
      ? (this.app.st.legal || []).find((a) => a.t === "WithdrawTrade" && a.offer === p.offer) : null;
    const acts = open ? h("div.row",
      h("button.btn.primary", { type: "button", disabled: this.app.busy, dataset: { act: "accept", msg: m.id }, onclick: () => this.answer(c.info.name, m.id, true) }, "Accept"),
      h("button.btn", { type: "button", disabled: this.app.busy, dataset: { act: "decline", msg: m.id }, onclick: () => this.answer(c.info.name, m.id, false) }, "Decline"))
      : withdraw ? h("div.row", h("button.btn", { type: "button", disabled: this.app.busy, dataset: { act: "WithdrawTrade", offer: p.offer },
        onclick: () => this.app.act(withdraw) }, "Withdraw the offer")) : null;
    const data = { kind: p.kind, msg: m.id };
    if (p.offer) data.offer = String(p.offer);
    if (p.counter) data.counter = String(p.counter);
    return h("div.proposal" + (p.counter ? ".counter" : ""), { dataset: data },
      // numbered as the chat numbers its messages (a reply says "accepts … proposal #<id>"; a
      // counter-proposal links "#<id>"); a trade is titled by the game's number for it, the one
      // the Orders panel and the log give, and its message number follows as "message #<id>"
      h("div.proposal-title", p.offer ? `Trade #${p.offer}` : title,
        h("span.small.msg-no", p.offer ? ` · message #${m.id}` : ` #${m.id}`), counter),
      m.text && !/^[A-F] proposes a /.test(m.text) ? h("div.msg-text", glossed(m.text)) : null,
      ...body, h("div.answers", status, closed ? h("span.small", ` · ${closed}`) : null), acts);
  }

  /** Whether the phase a trade by post was proposed for is adjudicated (the game's turn and
   *  postal phase are no longer the ones its `post` names). */
  _postOver(p) {
    const v = this.app.st.view || {};
    return v.phase === "over" || !v.postal || v.turn !== p.post.turn || v.postal.phase !== p.post.phase;
  }

  /** A trade by post (postal [4.2]): made when both sheets hold the matching orders, which the
   *  server had the engine write (`post.orders`); a party to it adds his own to his sheet here. */
  _postTrade(m, p, answered) {
    const me = this.app.seat;
    const mine = me && (p.post.orders || {})[me];
    const agreed = answered[p.to] === true;
    // (the bot of the two, the addressee or the poster of a counter-offer, writes its own order)
    const bot = [p.to, m.seat].find((s) => s !== me && ((this.app.st.seats || {})[s] || {}).kind === "bot");
    // (once its phase is adjudicated, the report tells whether it was made: QA read "Agreed: the
    // trade is made... if" turns later)
    const when = `Game-Turn ${p.post.turn}, ${PHASE_LABEL[p.post.phase] || p.post.phase}`;
    const note = h("div.small.post-note", this._postOver(p)
      ? `Adjudicated (${when}): its report tells whether the trade was made.`
      : agreed ? `Agreed: the trade is made when the sheets of ${when} are adjudicated, if both hold the matching orders` +
        (bot ? ` (${bot}'s sheet holds its order).` : ".")
      : "By post: made only if both sheets hold the matching orders.");
    if (!mine || !agreed || this._postOver(p) || !this.app.postal) return note;
    const on = (this.app.postal.draft || []).some((o) => JSON.stringify(o) === JSON.stringify(mine));
    return h("div.post-trade", note, on ? h("span.small.on-sheet", "Your order is on your sheet's draft (send the sheet).")
      : h("button.btn", { type: "button", dataset: { act: "add-post-trade", msg: m.id }, onclick: () => {
        this.app.postal.add(mine);
        toast("The trade order is on your sheet's draft: send the sheet (Orders).", "ok");
        this.renderMessagesSoon();
      } }, "Add my order to my sheet"));
  }

  // -- sending -------------------------------------------------------------------------------------
  async send() {
    const text = this.input.value.trim();
    const channel = this.current;
    if (!text) return;
    try {
      const r = await this.app.conn.request("chat", { channel, text });
      if (this.draftOf === channel) {       // (the box may show another channel's draft by now)
        this.input.value = "";
        this.count.hidden = true;
      } else {
        this.drafts.delete(channel);
      }
      const c = this.channels.get(channel);
      if (c && r.msg) c.msgs.set(r.msg.id, r.msg);
      this.renderMessages();
    } catch (e) {
      this.app.showError(e);
    }
  }

  async answer(channel, id, accept) {
    // one answer to a card: a second click while the first is on its way, or once it is given,
    // sends nothing (QA: a double-click on Accept made the trade and then showed "Refused: no
    // open offer #2" for the second; the card's buttons are disabled only when it is drawn again)
    const key = `${channel}:${id}`;
    if (this.answering.has(key)) return false;
    this.answering.add(key);
    this.app.setBusy(true);
    try {
      await this.app.conn.request(accept ? "accept" : "decline", { channel, msg: id });
      return true;
    } catch (e) {
      this.answering.delete(key);
      this.app.showError(e);
      if (e.code === "proposal_closed") this.renderMessagesSoon();    // (the card: no longer standing, as the engine says)
      return false;
    } finally {
      this.app.setBusy(false);
    }
  }

  /** The chat message whose proposal made trade offer `offer`, if this page saw it. */
  proposalForOffer(offer) {
    for (const [name, c] of this.channels) {
      for (const m of c.msgs.values()) {
        if (m.proposal && m.proposal.kind === "trade" && m.proposal.offer === offer) return { channel: name, id: m.id };
      }
    }
    return null;
  }

  /** Whether the proposer of the Committee invitation `m` has changed his consent since he posted
   *  it (the game's log: he joined another Committee or withdrew), which closes the card for good,
   *  though he consent to the same members again later. */
  _withdrawn(m) {
    const p = m.proposal, log = this.app.log;
    return !!(log && log.leftAfter && p.seq != null && log.leftAfter(m.seat, p.members, p.seq));
  }

  /** The card of `from`'s invitation of this seat to a Central Committee of `members` (its
   *  latest), with this seat's answer on it so far (`answer`: true, false, or undefined if none)
   *  and when it was posted (`ts`, ms): `{channel, id, answer, ts}`, or null if the page has no
   *  such card (yet). */
  committeeCard(from, members) {
    const me = this.app.seat;
    const key = membersKey(members);
    let got = null;
    for (const [name, c] of this.channels) {
      for (const m of c.msgs.values()) {
        const p = m.proposal;
        if (!p || p.kind !== "committee" || m.seat !== from || !(p.addressees || []).includes(me)) continue;
        if (membersKey(p.members) !== key) continue;
        if (this._withdrawn(m)) continue;      // (not one of an earlier consent of the proposer's)
        const at = [p.seq ?? -1, m.id];           // (the latest: a message's id counts within its channel)
        if (!got || at[0] > got.at[0] || (at[0] === got.at[0] && at[1] > got.at[1])) got = { channel: name, id: m.id, at, ts: m.ts };
      }
    }
    if (!got) return null;
    let answer;
    for (const m of this.channels.get(got.channel).msgs.values()) {
      if (m.reply && m.reply.msg === got.id && m.seat === me) answer = m.reply.accept;
    }
    return { channel: got.channel, id: got.id, answer, ts: got.ts };
  }

  /** A channel whose members are exactly `members` (opened if need be). */
  async channelFor(members) {
    const set = [...new Set(members)].sort();
    if (set.length === 2) return `${set[0]}-${set[1]}`;
    for (const [name, c] of this.channels) {
      const ms = [...c.info.members].sort();
      if (c.info.kind !== "public" && ms.length === set.length && ms.every((x, i) => x === set[i])) return name;
    }
    if (set.length === this.app.st.view.seats.length) return "public";
    const r = await this.app.conn.request("open_channel", { members: set, title: `Committee ${set.join(", ")}` });
    this._chan(r.channel);
    this.renderTabs();
    return r.channel.name;
  }

  /** Post a structured proposal to the channel of `members`; true when the server took it. */
  async propose(members, proposal, text = "") {
    if (this.solitaire()) {
      toast("The SPI solitaire has no negotiation (004 [18.0]).", "error");
      return false;
    }
    this.app.setBusy(true);
    try {
      const channel = await this.channelFor(members);
      const r = await this.app.conn.request("chat", { channel, text, proposal });
      const c = this.channels.get(channel);
      if (c && r.msg) c.msgs.set(r.msg.id, r.msg);
      this.current = channel;
      if (this.app.lastError) {           // (a refusal of an earlier try no longer stands: this one was taken)
        this.app.lastError = null;
        this.app.renderSoon();
      }
      this.app.showTalk();
      this.render();
      toast("Proposal posted", "ok");
      return true;
    } catch (e) {
      this.app.showError(e);
      return false;
    } finally {
      this.app.setBusy(false);
    }
  }

  newGroupDialog() {
    const view = this.app.st.view;
    const seat = this.app.seat;
    const chosen = new Set([seat]);
    const title = h("input", { type: "text", maxlength: 80, placeholder: "e.g. Northern front", "aria-label": "Title" });
    const body = h("div",
      h("p", "A group channel is read only by its members."),
      h("div.member-picks", view.seats.map((p) => h("label.chip", h("input", { type: "checkbox", checked: p === seat, disabled: p === seat,
        dataset: { member: p }, onchange: (e) => (e.target.checked ? chosen.add(p) : chosen.delete(p)) }), " ", seatBadge(p), ` ${this.app.seatName(p)}`))),
      h("div.form-row", h("label", "Title "), title));
    modal("New group channel", body, [{ label: "Cancel" }, { label: "Open", kind: "primary", onclick: async () => {
      if (chosen.size < 2) {
        toast("Choose at least one other member.", "error");
        return true;
      }
      try {
        const r = await this.app.conn.request("open_channel", { members: [...chosen], title: title.value });
        this._chan(r.channel);
        this.show(r.channel.name);
      } catch (e) {
        this.app.showError(e);
        return true;
      }
      return undefined;
    } }]);
  }
}
