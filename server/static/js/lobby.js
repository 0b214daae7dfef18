// The lobby: create a game (players, options, bots for the seats nobody will take), list and
// join open games, watch games in progress, and come back to one's own games.

import { h, clear, store, holdSeat, seatsHeld, modal, toast, replace, fmtExact } from "./util.js";
import { D, loadData, SEAT_COLOURS } from "./data.js";
import { api } from "./net.js";
import { seatBadge } from "./dialogs.js";
import { winnersOf } from "./orders.js";
import { openRulesInBrief } from "./help.js";

const SEATS = "ABCDEF";

/** The lobby in ``root``, unless the page has gone on to another address meanwhile (``shown()``
 *  false once its data has loaded: then null, and ``root`` is left to the page there). */
export async function startLobby(root, shown = () => true) {
  await loadData();
  if (!shown()) return null;
  const lobby = new Lobby(root);
  window.rcwLobby = lobby;
  lobby.render();
  const notice = store.get("notice");            // (a word left by the page the player came from)
  if (notice) {
    store.remove("notice");
    toast(notice, "ok");
  }
  return lobby;
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.showLive = false;
    this.showFinished = false;      // (the list's third view: games over, with their result, to replay)
    this.timer = null;
    this.games = [];
  }

  render() {
    const root = this.root;
    clear(root);
    root.className = "lobby";
    document.title = "Russian Civil War — lobby";
    this.listEl = h("div.game-list", h("p.small", "Loading…"));
    this.mineEl = h("div.my-games");
    root.append(
      h("header.lobby-head",
        h("div.lobby-title", h("span.brand-star", "★"), h("h1", "Russian Civil War"), h("span.brand-star", "★")),
        h("p.lobby-sub", "SPI, 1976 — three to six players deal out the Red and White leaders, command armies across the old Empire, plot in the Politburo and purge one another. ",
          h("button.link", { type: "button", dataset: { act: "rules-brief" }, onclick: () => openRulesInBrief() }, "Rules in brief"))),
      h("main.lobby-main",
        this.createCard(),
        h("section.card.games-card",
          h("div.card-head", this.listTitle = h("h2", "Open games"),
            h("label.small", this.liveBox = h("input", { type: "checkbox", checked: this.showLive, dataset: { filter: "live" }, onchange: (e) => {
              this.showLive = e.target.checked;
              if (this.showLive) this.showFinished = this.finishedBox.checked = false;
              this.refresh();
            } }), " show games in progress"),
            h("label.small", this.finishedBox = h("input", { type: "checkbox", checked: this.showFinished, dataset: { filter: "finished" }, onchange: (e) => {
              this.showFinished = e.target.checked;
              if (this.showFinished) this.showLive = this.liveBox.checked = false;
              this.refresh();
            } }), " show finished games")),
          this.listEl),
        h("section.card.mine-card", h("h2", "Your games"), this.mineEl),
        h("section.card.theatre-card", h("h2", "The theatre of war"),
          h("a.theatre", { href: "map.svg", target: "_blank", title: "Open the map" },
            h("img", { src: "map.svg", alt: "The map: provinces of the old Empire by region, railways, ports", loading: "lazy" })),
          h("p.small", `${Object.keys(D.provinces).length} provinces in ${D.regions.length} regions, from Finland to Vladivostok; railways, ports, the Kerch Straits and Lake Pskov. `
            + "Red and White leaders command; Blue and Green units follow whoever draws their control marker."))),
      h("footer.lobby-foot", "Rule cases are cited as 004 [x.y]. Everything on the map is open information (004 [8.29]). ",
        h("a", { href: "/healthz" }, "server status")));
    this.refresh();
    this.renderMine();
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (!document.body.contains(this.listEl)) {
        clearInterval(this.timer);
        return;
      }
      this.refresh();
    }, 4000);
  }

  createCard() {
    const f = {
      name: h("input#g-name", { type: "text", maxlength: 80, placeholder: "e.g. Friday night in Tsaritsyn" }),
      me: h("input#g-me", { type: "text", maxlength: 40, value: store.get("name", ""), placeholder: "Your name" }),
      players: 5,
      seat: "A",
      bots: new Set(["C", "D", "E"]),
      kind: h("select#g-bots", D.bots.map((b) => h("option", { value: b, selected: b === (D.bots.includes("sdt") ? "sdt" : D.bots[0]) }, b === "sdt" ? "sdt (strategic)" : b))),
      onLeave: h("select#g-leave", h("option", { value: "bot" }, "a bot takes the seat"), h("option", { value: "quit" }, "the player quits (004 [14.2])")),
      deadline: h("select#g-deadline", [["", "none"], ["60", "1 minute"], ["300", "5 minutes"], ["3600", "1 hour"], ["86400", "1 day"]].map(([v, t]) => h("option", { value: v }, t))),
      // (at most the largest whole number a page holds exactly: a larger one would be sent rounded;
      // QA's 99999999999999999999999 got the server's refusal, with its code)
      seed: h("input#g-seed", { type: "number", min: 0, max: Number.MAX_SAFE_INTEGER, step: 1, placeholder: "random" }),
      // by post (004 [17.0], issue 16): a deadline per phase, pauses, civil disorder, a webhook
      postal: h("input#g-postal", { type: "checkbox", onchange: () => this.syncOptions && this.syncOptions() }),
      phase: h("select#g-phase", [["", "none (when every sheet is in)"], ["10m", "10 minutes"], ["1h", "1 hour"], ["12h", "12 hours"], ["1d", "1 day"],
        ["36h", "36 hours"], ["3d", "3 days"]].map(([v, t]) => h("option", { value: v, selected: v === "1d" }, t))),
      missing: h("select#g-missing", h("option", { value: "bot" }, "its bot's sheet (moves and attacks, nothing spent)"),
        h("option", { value: "none" }, "no orders at all")),
      pause: h("select#g-pause", [["", "none"], ["1d", "1 day"], ["3d", "3 days"], ["7d", "a week"]].map(([v, t]) => h("option", { value: v }, t))),
      disorder: h("select#g-disorder", [["", "never"], ["1", "1"], ["2", "2"], ["3", "3"]].map(([v, t]) => h("option", { value: v, selected: v === "2" }, t))),
      webhook: h("input#g-webhook", { type: "url", maxlength: 2000, placeholder: "https://chat.example.org/hooks/..." }),
    };
    this.form = f;
    const seg = h("div.seg#g-players");
    const seatSel = h("div.seat-picks#g-seats");
    // (when the game will start, by the seats: QA, a newcomer who made a three-player game with
    // the default open seat waited for a player who never came)
    const starts = h("p.hint.starts", { dataset: { open: "" } });
    const renderStarts = () => {
      const open = SEATS.slice(0, f.players).split("").filter((s) => s !== f.seat && !f.bots.has(s));
      starts.dataset.open = open.join("");
      starts.textContent = open.length
        ? `The game starts when ${open.length > 1 ? `seats ${open.join(", ")} are` : `seat ${open[0]} is`} taken: send the game's link to `
          + `${open.length > 1 ? "the players you invite" : "the player you invite"}, or make ${open.length > 1 ? "them bots" : "it a bot"} to play at once.`
        : f.seat ? "The game starts at once: every other seat is a bot." : "The game starts at once: every seat is a bot's, you watch.";
    };
    const renderSeats = () => {
      clear(seg);
      for (let n = 3; n <= 6; n++) {
        seg.append(h("button" + (n === f.players ? ".on" : ""), { type: "button", dataset: { players: n }, onclick: () => {
          f.players = n;
          for (const b of [...f.bots]) if (SEATS.indexOf(b) >= n) f.bots.delete(b);
          if (SEATS.indexOf(f.seat) >= n) f.seat = SEATS.slice(0, n).split("").find((x) => !f.bots.has(x)) || null;   // (never a bot's seat)
          renderSeats();
        } }, String(n)));
      }
      clear(seatSel);
      for (const s of SEATS.slice(0, f.players)) {
        const mine = s === f.seat;
        const bot = f.bots.has(s);
        seatSel.append(h("div.seat-pick" + (mine ? ".mine" : bot ? ".bot" : ".open"), { dataset: { seat: s } },
          h("span.seat-badge", { style: { background: SEAT_COLOURS[s] } }, s),
          h("select", { "aria-label": `Seat ${s}`, dataset: { seatRole: s }, onchange: (e) => {
            const v = e.target.value;
            if (v === "me") {
              f.bots.delete(s);
              f.seat = s;
            } else if (v === "bot") {
              f.bots.add(s);
              if (f.seat === s) f.seat = SEATS.slice(0, f.players).split("").find((x) => x !== s && !f.bots.has(x)) || null;
            } else {
              f.bots.delete(s);
              if (f.seat === s) f.seat = null;
            }
            renderSeats();
          } },
          h("option", { value: "me", selected: mine }, "you"),
          h("option", { value: "open", selected: !mine && !bot }, "open"),
          h("option", { value: "bot", selected: bot }, "bot"))));
      }
      renderStarts();
    };
    renderSeats();
    const row = (label, el, hint = "") => h("div.form-row", h("label", { for: el.id }, label), el, hint ? h("span.hint", hint) : null);
    return h("section.card.create-card",
      h("h2", "New game"),
      h("div.quick", h("p.small", "Play alone now, in one click:"),
        h("button.btn.primary", { type: "button", dataset: { act: "solo-sdt" }, onclick: () => this.quickSolo() },
          D.bots.includes("sdt") ? "Play against four SDT bots" : "Play against four bots"),
        h("button.btn", { type: "button", dataset: { act: "solo-spi" }, title: "004 [18.0]-[28.0]: you are Red; the non-Red side follows the solitaire's procedures",
          onclick: () => this.quickSpi() }, "SPI solitaire (you are Red)")),
      row("Game name", f.name),
      row("Your name", f.me),
      h("div.form-row", h("label", "Players"), seg),
      h("div.form-row.seats-row", h("label", "Seats"), seatSel),
      h("p.hint", "“open” seats are for people you invite with the game's link; “bot” seats are played by the computer."),
      h("details.options", h("summary", "Options"),
        row("Bots", f.kind),
        this.optionGroups(f),
        row("If a player leaves", f.onLeave),
        row("Decision deadline", f.deadline, "a bot decides for a slow player"),
        row("Seed", f.seed, "for a repeatable deal")),
      h("details.options.postal-options", h("summary", "Play by post (004 [17.0])"),
        row("Play by post", f.postal, "everyone writes orders for a phase at once; the engine is the Gamesmaster"),
        row("Deadline of each phase", f.phase, "when it passes, the phase is carried out with the sheets in"),
        row("A seat without a sheet then gets", f.missing),
        row("Pauses each player may take", f.pause),
        row("Civil disorder after", f.disorder, "missed deadlines in a row: the bot plays the seat until the player returns"),
        row("Webhook", f.webhook, "news of the game is posted here (e.g. a chat room's incoming webhook)")),
      this.problemsEl = h("div.form-problems", { role: "alert", hidden: true }),
      starts,
      h("div.row.end", h("button.btn.primary.big#g-create", { type: "button", dataset: { act: "create" }, onclick: () => this.create() }, "Create game")));
  }

  /** What is wrong with the form, every problem at once, in the words of its labels: the fields
   *  the browser checks against their own limits (the seed; a webhook's address; a number option
   *  within the engine's range, data.json `options`).  [field, text] each. */
  formProblems() {
    const f = this.form;
    const out = [];
    if (!f.seed.validity.valid) out.push([f.seed, `Seed: a whole number from 0 to ${Number.MAX_SAFE_INTEGER} (leave it blank for a random deal).`]);
    if (f.webhook.value.trim() && (!f.webhook.validity.valid || !/^https?:\/\//i.test(f.webhook.value.trim()))) {
      out.push([f.webhook, "Webhook: a web address beginning with https:// (or http://)."]);
    }
    for (const el of Object.values(this.optionInputs || {})) {
      if (el.type !== "number" || el.disabled || el.validity.valid && el.value !== "") continue;
      const label = el.dataset.label.charAt(0).toUpperCase() + el.dataset.label.slice(1);
      out.push([el, `${label}: a whole number from ${el.min} to ${el.max}.`]);
    }
    return out;
  }

  /** Say what is wrong by the Create button, the fields marked and their panels opened (none: clear it). */
  showProblems(problems, heading = "Please fix this before creating the game:") {
    for (const el of this.problemsEl.closest(".create-card").querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
    this.problemsEl.hidden = !problems.length;
    if (!problems.length) return;
    replace(this.problemsEl, h("p", h("b", heading)), h("ul", problems.map(([, text]) => h("li", text))));
    for (const [el] of problems) {
      if (!el) continue;
      el.setAttribute("aria-invalid", "true");
      const box = el.closest("details");
      if (box) box.open = true;
    }
    const first = problems.find(([el]) => el);
    if (first) first[0].focus({ preventScroll: true });
    this.problemsEl.scrollIntoView({ block: "center" });       // (the list in view; the fields marked)
  }

  /** Every game option of the engine's registry (data.json's `options`, from rcw.options.describe()),
   *  in the groups of `option_groups`: a switch or a number each, with its help and source; a
   *  variant's sub-switches wait for their variant, options that exclude each other are not both on;
   *  with "Play by post" ticked (the form ``f``), an option the postal game fixes shows its value,
   *  and one it does not play is off (the registry's `fixed` and `modes`). */
  optionGroups(f) {
    const inputs = this.optionInputs = {};
    const notes = {};
    const groups = D.option_groups || {};
    const sync = this.syncOptions = () => {
      const mode = f && f.postal.checked ? "postal" : "standard";
      // (by post the deadline is each phase's, set below: the live decision deadline is not used,
      // QA saw it taken and silently replaced)
      if (f) {
        f.deadline.disabled = mode === "postal";
        f.deadline.title = mode === "postal" ? "by post, the deadline of each phase (below) is used" : "";
      }
      for (const [name, el] of Object.entries(inputs)) {
        const o = D.options[name];
        const parent = o.requires ? inputs[o.requires] : null;
        const conflict = (o.conflicts || []).some((c) => inputs[c] && inputs[c].checked);
        const fixed = (o.fixed || {})[mode];
        const unplayed = (o.modes || []).length && !o.modes.includes(mode);
        el.disabled = (parent && !parent.checked) || conflict || fixed !== undefined || !!unplayed;
        if (fixed !== undefined) {
          if (el.type === "checkbox") el.checked = !!fixed; else el.value = fixed;
          el.dataset.fixed = "1";
        } else if (el.dataset.fixed || (el.disabled && el.type === "checkbox")) {   // (back to its default)
          if (el.type === "checkbox") el.checked = o.default; else el.value = o.default;
          delete el.dataset.fixed;
        }
        notes[name].textContent = fixed !== undefined ? ` always ${fixed === true ? "on" : fixed === false ? "off" : fixed} by post`
          : unplayed ? " not played by post" : "";
      }
    };
    const sections = [];
    for (const [group, heading] of Object.entries(groups)) {
      const names = Object.keys(D.options).filter((n) => D.options[n].group === group);
      if (!names.length) continue;
      const rows = names.map((name) => {
        const o = D.options[name];
        const id = `g-opt-${name}`;
        const el = o.type === "bool"
          ? h("input", { id, type: "checkbox", checked: !!o.default, dataset: { option: name }, onchange: sync })
          : h("input", { id, type: "number", min: o.min ?? undefined, max: o.max ?? undefined, step: 1, value: o.default,
            dataset: { option: name, label: o.label } });
        inputs[name] = el;
        notes[name] = h("span.opt-mode");
        const label = o.label.charAt(0).toUpperCase() + o.label.slice(1);
        return h("div.form-row.opt" + (o.requires ? ".sub" : ""), { dataset: { option: name } },
          h("label", { for: id }, label), el, notes[name],
          o.note ? h("span.opt-note", o.note) : null,
          h("span.hint", o.help, h("span.opt-source", ` — ${o.source}`)));
      });
      sections.push(h("fieldset.opt-group", { dataset: { group } }, h("legend", heading), ...rows));
    }
    sync();
    return h("div.opt-groups", sections);
  }

  /** The options set in the panel that differ from their defaults (the engine validates them). */
  chosenOptions() {
    const out = {};
    for (const [name, el] of Object.entries(this.optionInputs || {})) {
      const o = D.options[name];
      const v = o.type === "bool" ? el.checked : Number(el.value);
      if (el.disabled || v === o.default || (o.type !== "bool" && (el.value === "" || !Number.isInteger(v)))) continue;
      out[name] = v;
    }
    return out;
  }

  async create() {
    const f = this.form;
    const problems = this.formProblems();
    this.showProblems(problems);
    if (problems.length) return;
    const spec = { players: f.players, bots: f.kind.value, on_leave: f.onLeave.value,
                   bot_seats: [...f.bots].filter((s) => SEATS.indexOf(s) < f.players).sort() };
    if (f.name.value.trim()) spec.name = f.name.value.trim();
    const opts = this.chosenOptions();
    if (Object.keys(opts).length) spec.options = opts;
    if (f.deadline.value) spec.deadline = Number(f.deadline.value);
    if (f.postal.checked) {
      spec.mode = "postal";
      spec.deadline = f.phase.value || null;
      if (f.missing.value !== "bot") spec.missing = f.missing.value;
      if (!D.bots.includes(spec.bots)) spec.bots = "random";
      if (f.pause.value) spec.pause = f.pause.value;
      spec.disorder_after = f.disorder.value ? Number(f.disorder.value) : null;
    }
    if (f.webhook.value.trim()) spec.webhook = f.webhook.value.trim();
    if (f.seed.value !== "") spec.seed = Number(f.seed.value);
    const me = f.me.value.trim();
    store.set("name", me);
    const btn = document.getElementById("g-create");
    btn.disabled = true;
    const remember = (gid) => {
      const games = store.get("games", []);
      store.set("games", [gid, ...games.filter((x) => x !== gid)].slice(0, 30));
    };
    let g = null;
    try {
      g = await api("POST", "/api/games", spec);
      store.set("admin:" + g.game, g.admin_token);
      let seat = null;
      if (f.seat) {
        const j = await api("POST", `/api/games/${g.game}/join`, { seat: f.seat, name: me || null });
        holdSeat(g.game, j.seat, j.token, me);
        seat = j.seat;
      } else {
        remember(g.game);
      }
      location.hash = seat ? `#/g/${g.game}/${seat}` : `#/g/${g.game}`;
    } catch (e) {
      toast(e.message, "error", e.rule ? `Rule ${e.rule}` : "");     // (a code such as bad_request says nothing to a player, QA)
      // (every problem the server names, one a line: the engine's options name them all at once)
      if (!g) this.showProblems(e.message.split("; ").map((text) => [null, text.charAt(0).toUpperCase() + text.slice(1)]),
        "The server refused the game:");
      if (g) {                         // (made, but the seat was not taken: the creator goes to it, and keeps it)
        remember(g.game);
        location.hash = `#/g/${g.game}`;
      }
    } finally {
      btn.disabled = false;
    }
  }

  /** One click: a five-player game, you in seat A, bots in the other four (the "Solitaire for
   *  Fanatics" bots when installed). */
  quickSolo() {
    const kind = D.bots.includes("sdt") ? "sdt" : D.bots[0];
    return this.quickStart({ players: 5, bots: kind, bot_seats: ["B", "C", "D", "E"] }, "A", `against four ${kind === "sdt" ? "SDT" : kind} bots`);
  }

  /** One click: the SPI solitaire (004 [18.0]-[28.0]), you as Red (seat R); the engine plays N. */
  quickSpi() {
    return this.quickStart({ mode: "spi-solitaire" }, "R", "the SPI solitaire");
  }

  /** Create the game `spec`, take `seat` in it and open it. */
  async quickStart(spec, seat, what) {
    const me = this.form.me.value.trim();
    if (me) store.set("name", me);         // (as Create and Join do: QA found it blank next time)
    try {
      const g = await api("POST", "/api/games", { ...spec, name: `${me || "You"}: ${what}` });
      store.set("admin:" + g.game, g.admin_token);
      const j = await api("POST", `/api/games/${g.game}/join`, { seat, name: me || null });
      holdSeat(g.game, j.seat, j.token, me);
      location.hash = `#/g/${g.game}/${j.seat}`;
    } catch (e) {
      toast(e.message, "error", e.rule ? `Rule ${e.rule}` : "");     // (a code such as bad_request says nothing to a player, QA)
    }
  }

  async refresh() {
    let games = [];
    const status = this.showFinished ? "finished" : this.showLive ? "live" : "open";
    try {
      games = (await api("GET", `/api/games?status=${status}`)).games;
    } catch (e) {
      replace(this.listEl, h("p.small.warn", `The server does not answer (${e.message}).`));
      return;
    }
    if (status !== (this.showFinished ? "finished" : this.showLive ? "live" : "open")) return;   // (the filter changed meanwhile)
    this.games = games;
    if (status !== "finished") games.sort((a, b) => b.created - a.created);   // (finished: the server's order, last ended first)
    if (this.listTitle) this.listTitle.textContent = { open: "Open games", live: "Games in progress", finished: "Finished games" }[status];
    clear(this.listEl);
    if (!games.length) {
      this.listEl.append(h("p.small", { open: "No open games. Create one, and send the link to your friends.", live: "No games in progress.",
        finished: "No finished games on this server yet." }[status]));
    }
    for (const g of games) this.listEl.append(status === "finished" ? this.finishedRow(g) : this.gameRow(g));
  }

  gameRow(g) {
    const held = seatsHeld(g.game);
    const mine = Object.keys(held);
    const opts = [g.mode === "postal" ? `by post${g.deadline ? `, ${fmtExact(g.deadline)} a phase` : ""}` : null, ...(g.option_words || [])]
      .filter(Boolean).join(", ");
    return h("div.game-row", { dataset: { game: g.game, status: g.status } },
      h("div.gr-main",
        h("div.gr-name", g.name || `Game ${g.game}`, h("span.small", ` · ${g.players} players${opts ? " · " + opts : ""}`)),
        h("div.gr-seats", Object.entries(g.seats).map(([s, r]) => h("span.seat-chip." + r.kind, { title: r.kind },
          seatBadge(s), r.kind === "open" ? " open" : r.kind === "bot" ? ` ${r.name ? `${r.name} (bot)` : "bot"}` : ` ${r.name || r.kind}`)))),
      h("div.gr-acts",
        mine.length ? h("a.btn.primary", { href: `#/g/${g.game}/${mine[0]}` }, `Resume (${mine.join(", ")})`) : null,
        g.open && g.open.length && !mine.length ? h("button.btn.primary", { type: "button", dataset: { act: "join", game: g.game }, onclick: () => this.joinDialog(g) }, "Join") : null,
        h("a.btn", { href: `#/g/${g.game}` }, "Watch")));
  }

  /** A finished game (the server's most recent): who won, and a link to it (its page offers the replay). */
  finishedRow(g) {
    const r = g.result || {};
    const ws = winnersOf(r);
    const who = (s) => `${(g.seats[s] || {}).name || `Seat ${s}`} (${s})`;
    const won = ws.length ? (ws.length > 1 ? `${ws.map(who).join(" and ")} share the win` : `${who(ws[0])} won`) : "No one won";
    // (the engine's words: the winning colour or the SPI solitaire's title, and why the game ended)
    const how = (r.title ? ` · ${r.title}` : r.winner_color ? ` · ${r.winner_color} Victory` : "") + (r.reason ? ` · ${r.reason}` : "");
    const when = g.ended ? ` · ended ${new Date(g.ended).toLocaleString()}` : "";
    return h("div.game-row.finished", { dataset: { game: g.game, status: g.status } },
      h("div.gr-main",
        h("div.gr-name", g.name || `Game ${g.game}`, h("span.small", ` · ${g.players} players${g.turn ? ` · ${g.turn} Game-Turn${g.turn === 1 ? "" : "s"}` : ""}`)),
        h("div.gr-result", { dataset: { result: ws.join(",") } }, `${won}${how}`, h("span.small", when))),
      h("div.gr-acts", h("a.btn.primary", { href: `#/g/${g.game}`, dataset: { act: "open-finished" } }, "Result and replay")));
  }

  joinDialog(g) {
    const name = h("input", { type: "text", maxlength: 40, value: store.get("name", ""), placeholder: "Your name", "aria-label": "Your name" });
    let seat = g.open[0];
    const seg = h("div.seg");
    const draw = () => {
      clear(seg);
      for (const s of g.open) seg.append(h("button" + (s === seat ? ".on" : ""), { type: "button", dataset: { seat: s }, onclick: () => { seat = s; draw(); } }, seatBadge(s), ` Seat ${s}`));
    };
    draw();
    modal(`Join ${g.name || "game " + g.game}`, h("div", h("div.form-row", h("label", "Your name "), name), h("div.form-row", h("label", "Seat "), seg)), [
      { label: "Cancel" },
      { label: "Take the seat", kind: "primary", dataset: { act: "take-seat" }, onclick: async () => {
        try {
          store.set("name", name.value.trim());
          const j = await api("POST", `/api/games/${g.game}/join`, { seat, name: name.value.trim() || null });
          holdSeat(g.game, j.seat, j.token, name.value.trim());
          location.hash = `#/g/${g.game}/${j.seat}`;
        } catch (e) {
          toast(e.message, "error");
          this.refresh();
          return true;
        }
        return undefined;
      } }]);
  }

  async renderMine() {
    const ids = store.get("games", []);
    clear(this.mineEl);
    if (!ids.length) {
      this.mineEl.append(h("p.small", "Games you create or join are remembered here, with your seat, so you can come back to them."));
      return;
    }
    for (const gid of ids.slice(0, 12)) {
      const held = Object.keys(seatsHeld(gid));
      let info = null;
      try {
        info = await api("GET", `/api/games/${gid}`);
      } catch {
        info = null;
      }
      if (!info) continue;
      this.mineEl.append(h("div.game-row.mine", { dataset: { game: gid } },
        h("div.gr-main", h("div.gr-name", info.name || `Game ${gid}`),
          h("div.small", `${info.status}${info.turn ? ` · Game-Turn ${info.turn}` : ""}${held.length ? ` · your seat ${held.join(", ")}` : ""}`)),
        h("div.gr-acts", h("a.btn", { href: held.length ? `#/g/${gid}/${held[0]}` : `#/g/${gid}` }, held.length ? "Resume" : "Open"))));
    }
  }
}
