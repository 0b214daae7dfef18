// Negotiation: the public channel, one private channel per pair of seats, group channels, unread
// counts, the history fetched again on every (re)connection, and structured proposals (trade,
// Central Committee, purge plan, Czar's execution) shown as cards with Accept / Decline.

import { h, store, fmtTime, clear, modal, toast, replace } from "./util.js";
import { unit, uname, pct } from "./data.js";
import { seatBadge, answerInto } from "./dialogs.js";

export class Chat {
  constructor(app) {
    this.app = app;
    this.channels = new Map(); // name -> {info, msgs: Map(id -> msg)}
    this.current = "public";
    this.readKey = null;
    this.read = {};
    this.tabs = h("div.chan-tabs", { role: "tablist" });
    this.list = h("ol.msg-list", { "aria-live": "polite", tabindex: 0, "aria-label": "Messages" });
    this.input = h("textarea.msg-input", { rows: 2, placeholder: "Write to this channel… (Enter sends)", "aria-label": "Message",
      maxlength: 2000, onkeydown: (e) => {
        if (e.key === "Enter" && !e.shiftKey) {
          e.preventDefault();
          this.send();
        }
      } });
    this.sendBtn = h("button.btn.primary", { type: "button", onclick: () => this.send(), dataset: { act: "send" } }, "Send");
    this.tools = h("div.chat-tools",
      h("button.link", { type: "button", dataset: { act: "new-group" }, onclick: () => this.newGroupDialog() }, "+ group channel"));
    this.composer = h("div.composer", this.input, this.sendBtn);
    this.head = h("div.chan-head");
    // The list stays on the newest message while the reader is there, whatever resizes it (the
    // Orders panel growing, a phone turning); a reader scrolled up is not yanked down, and is
    // told when new messages arrive below.
    this.stuck = true;
    this.shown = { channel: null, last: 0 };
    this.below = h("button.new-below", { type: "button", hidden: true, dataset: { act: "new-below" }, onclick: () => this.toBottom() },
      "New messages below ↓");
    this.list.addEventListener("scroll", () => {
      this.stuck = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
      if (this.stuck) this.below.hidden = true;
    });
    if (globalThis.ResizeObserver) new ResizeObserver(() => { if (this.stuck) this.list.scrollTop = this.list.scrollHeight; }).observe(this.list);
    this.el = h("div.chat-pane", this.tabs, this.head, this.list, this.below, this.composer, this.tools);
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
      c.msgs.set(f.msg.id, f.msg);
      if (f.channel === this.current) this.renderMessages();
      this.renderTabs();
      this.app.updateBadges();
    } else if (f.t === "channel") {
      this._chan(f.channel);
      this.renderTabs();
      this.app.updateBadges();
    }
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
    this.renderTabs();
    this.renderMessages();
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
  }

  show(name) {
    this.current = name;
    this.render();
    this.markRead();
    this.input.focus({ preventScroll: true });
  }

  renderMessages() {
    const c = this.channels.get(this.current);
    const top = this.list.scrollTop;
    clear(this.list);
    if (!c) return;
    const i = c.info;
    const canPost = this.app.seat && i.members.includes(this.app.seat);
    replace(this.head, h("span.chan-title", this.title(c)),
      h("span.small", i.kind === "public" ? " · every player reads this" : i.kind === "pair" ? ` · private: ${i.members.join(" and ")} only` : ` · members ${i.members.join(", ")}`));
    this.composer.hidden = !canPost;
    this.tools.hidden = !this.app.seat;
    const msgs = [...c.msgs.values()].sort((a, b) => a.id - b.id);
    const replies = {};
    for (const m of msgs) if (m.reply) (replies[m.reply.msg] ||= []).push(m);
    if (!msgs.length) this.list.append(h("li.msg-empty", i.kind === "pair" ? "No messages yet. Only the two of you can read this channel." : "No messages yet."));
    for (const m of msgs) this.list.append(this._msg(m, replies[m.id] || [], c));
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
    const mine = m.seat === this.app.seat;
    const li = h("li.msg" + (mine ? ".mine" : "") + (m.reply ? ".reply" : ""), { dataset: { id: m.id, seat: m.seat } },
      h("div.msg-head", seatBadge(m.seat), h("span.msg-who", this.app.seatName(m.seat)), h("span.msg-time", fmtTime(m.ts))),
      m.proposal ? null : h("div.msg-text", m.text));
    if (m.proposal) li.append(this._card(m, replies, c));
    return li;
  }

  _card(m, replies, c) {
    const p = m.proposal;
    const view = this.app.st.view || {};
    const seat = this.app.seat;
    const answered = Object.fromEntries(replies.map((r) => [r.seat, r.reply.accept]));
    let title = "";
    let body = [];
    if (p.kind === "trade") {
      title = "Trade offer";
      const side = (ls, pm, am) => {
        const bits = (ls || []).map((x) => `${uname(x)} (${unit(x).strength})`);
        if (pm) bits.push(`${pm} Politburo`);
        if (am) bits.push(`${am} Assassin`);
        return bits.join(", ") || "nothing";
      };
      body = [h("div.trade-line", h("span.small", `${m.seat} gives `), h("b", side(p.give_leaders, p.give_politburo, p.give_assassins))),
        h("div.trade-line", h("span.small", `${p.to} gives `), h("b", side(p.take_leaders, p.take_politburo, p.take_assassins)))];
    } else if (p.kind === "committee") {
      const pm = p.members.reduce((a, s) => a + ((view.politburo || {})[s] || 0), 0);
      title = "Central Committee";
      body = [h("div", `Members ${p.members.join(", ")} · ${pm} Politburo markers`)];
    } else if (p.kind === "purge") {
      title = `Purge ${p.target}`;
      const now = h("div.small.purge-now");
      body = [h("div", `By ${p.purgers.join(" + ")}; spoils in the order ${p.shares.join(", ")}`), now];
      if (view.stacks && this.app.ask) {   // the engine's odds for this purge, as the position stands
        answerInto(this.app, now, "purge_odds", { purgers: p.purgers }, (odds) =>
          `Strength ${odds.strength} now (${odds.column}): about ${odds.expected_points.toFixed(1)} points, counterpurge ${pct(odds.counterpurge)}`);
      }
    } else if (p.kind === "execution") {
      title = "Execute the Czar";
      body = [h("div", "An order of the Central Committee (004 [13.5]).")];
    }
    // status per addressee
    const status = (p.addressees || []).map((s) => {
      const a = answered[s];
      return h("span.ans" + (a === true ? ".yes" : a === false ? ".no" : ""), seatBadge(s), a === true ? " accepted" : a === false ? " declined" : " to answer");
    });
    let open = seat && (p.addressees || []).includes(seat) && !(seat in answered);
    let closed = null;
    if (p.kind === "trade" && open) {
      const live = (view.offers || []).some((o) => o.id === p.offer);
      if (!live) {
        open = false;
        closed = "no longer open";
      }
    }
    const acts = open ? h("div.row",
      h("button.btn.primary", { type: "button", disabled: this.app.busy, dataset: { act: "accept", msg: m.id }, onclick: () => this.answer(c.info.name, m.id, true) }, "Accept"),
      h("button.btn", { type: "button", disabled: this.app.busy, dataset: { act: "decline", msg: m.id }, onclick: () => this.answer(c.info.name, m.id, false) }, "Decline")) : null;
    return h("div.proposal", { dataset: { kind: p.kind, msg: m.id } },
      h("div.proposal-title", title, p.offer ? h("span.small", ` #${p.offer}`) : null),
      m.text && !/^[A-F] proposes a /.test(m.text) ? h("div.msg-text", m.text) : null,
      ...body, h("div.answers", status, closed ? h("span.small", ` · ${closed}`) : null), acts);
  }

  // -- sending -------------------------------------------------------------------------------------
  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    try {
      const r = await this.app.conn.request("chat", { channel: this.current, text });
      this.input.value = "";
      const c = this.channels.get(this.current);
      if (c && r.msg) c.msgs.set(r.msg.id, r.msg);
      this.renderMessages();
    } catch (e) {
      this.app.showError(e);
    }
  }

  async answer(channel, id, accept) {
    this.app.setBusy(true);
    try {
      await this.app.conn.request(accept ? "accept" : "decline", { channel, msg: id });
      return true;
    } catch (e) {
      this.app.showError(e);
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
    this.app.setBusy(true);
    try {
      const channel = await this.channelFor(members);
      const r = await this.app.conn.request("chat", { channel, text, proposal });
      const c = this.channels.get(channel);
      if (c && r.msg) c.msgs.set(r.msg.id, r.msg);
      this.current = channel;
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
