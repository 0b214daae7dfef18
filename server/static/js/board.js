// The map: rcw.mapdraw's SVG inlined, with pan and zoom, the stacks drawn as counters under
// each province box, and overlays for the move targets (rail and overland told apart), the
// path of the force being moved, attack targets and attackers.

import { h, s, clear } from "./util.js";
import { SEAT_COLOURS, UNIT_COLOURS, UNIT_INK, D, unit, shownStrength, leadersOf, pname, ulabel } from "./data.js";

const CW = 23; // counter width and height, map units
const CH = 21;

export class Board {
  constructor(container, handlers = {}) {
    this.el = container;
    this.h = handlers;
    this.boxes = {};
    this.vb = null;
    this.full = null;
    this.svg = null;
    this.marks = { moves: {}, targets: new Set(), attackers: new Set(), candidates: new Set(), path: null,
                   selected: null, force: null, province: null };
  }

  async mount() {
    const r = await fetch("map.svg", { cache: "no-cache" });
    const text = await r.text();
    const holder = h("div.map-svg");
    holder.innerHTML = text;
    const svg = holder.querySelector("svg");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.classList.add("board");
    svg.setAttribute("tabindex", "0");
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", "Map: Tab to a counter or a destination and Enter to choose it; arrow keys pan, + and - zoom, 0 shows the whole map");
    const [x, y, w, hh] = svg.getAttribute("viewBox").split(/\s+/).map(Number);
    this.full = { x, y, w, h: hh };
    this.svg = svg;
    for (const g of svg.querySelectorAll("g.province")) {
      const code = g.dataset.province;
      const rect = [...g.querySelectorAll("rect")].find((r) => r.getAttribute("fill") !== "#000" && !r.classList.contains("highlight"));
      if (!rect) continue;
      const b = { x: +rect.getAttribute("x"), y: +rect.getAttribute("y"), w: +rect.getAttribute("width"), h: +rect.getAttribute("height") };
      b.cx = b.x + b.w / 2;
      b.cy = b.y + b.h / 2;
      this.boxes[code] = b;
      g.setAttribute("tabindex", "-1");
    }
    // overlay layers, above the provinces, under the legend and title
    const provinces = svg.querySelector("g.provinces");
    this.layers = {
      under: s("g", { class: "ov-under" }),
      path: s("g", { class: "ov-path" }),
      stacks: s("g", { class: "ov-stacks" }),
      over: s("g", { class: "ov-over" }),
      flash: s("g", { class: "ov-flash" }),        // (results flashing: not cleared by render)
      plan: s("g", { class: "ov-plan" }),          // (the route under the pointer: js/game.js reach)
    };
    provinces.before(this.layers.under);
    provinces.after(this.layers.path, this.layers.plan, this.layers.stacks, this.layers.over, this.layers.flash);
    svg.querySelector("defs").append(
      s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#3b2f22" })),
      s("filter", { id: "glow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
        s("feGaussianBlur", { stdDeviation: "2.2", result: "b" }),
        s("feMerge", {}, s("feMergeNode", { in: "b" }), s("feMergeNode", { in: "SourceGraphic" }))),
    );
    clear(this.el);
    const zoom = h("div.map-zoom",
      h("button", { type: "button", title: "Zoom in", "aria-label": "Zoom in", onclick: () => this.zoomBy(0.75) }, "+"),
      h("button", { type: "button", title: "Zoom out", "aria-label": "Zoom out", onclick: () => this.zoomBy(1 / 0.75) }, "−"),
      h("button", { type: "button", title: "Whole map", "aria-label": "Whole map", onclick: () => this.fit() }, "⤢"));
    this.el.append(holder, zoom);
    this.holder = holder;
    this.fit(true);
    this._size = { w: holder.clientWidth, h: holder.clientHeight };
    if (globalThis.ResizeObserver) new ResizeObserver(() => this.refit()).observe(holder);
    this._wire();
  }

  /** Draw the route to `code` (a province of marks.reach), from where the force or stack is now. */
  plan(code) {
    this._planned = code || null;
    if (!this.svg) return;
    clear(this.layers.plan);
    const m = this.marks;
    const route = code && m.reach && m.reach[code];
    if (!route) return;
    const from = m.reachFrom;
    const pts = [from, ...route.path].filter((c) => this.boxes[c]).map((c) => `${this.boxes[c].cx},${this.boxes[c].cy}`);
    this.layers.plan.append(s("polyline", { class: "plan-path-halo", points: pts.join(" ") }),
      s("polyline", { class: "plan-path" + (route.rail ? " rail" : ""), points: pts.join(" "), "marker-end": "url(#arrow)", "data-to": code }));
  }

  /** Flash provinces where something just happened (a combat, an assassination, an epidemic). */
  flash(codes, ms = 2600) {
    if (!this.svg) return;
    for (const code of codes || []) {
      const b = this.boxes[code];
      if (!b) continue;
      const r = s("rect", { class: "flash-prov", "data-province": code, x: b.x - 8, y: b.y - 8, width: b.w + 16, height: b.h + 16, rx: 9 });
      this.layers.flash.append(r);
      setTimeout(() => r.remove(), ms);
    }
  }

  // -- view box -----------------------------------------------------------------------------------
  fit(initial = false) {
    const f = this.full;
    const rw = this.holder.clientWidth || 800;
    const rh = this.holder.clientHeight || 500;
    if (initial) {
      // start readable on European Russia (where most of the war is) rather than the whole
      // map in miniature; the whole-map button shows everything
      const k = rw < 700 ? 0.8 : Math.max(0.78, Math.min(1.0, rh / 760));
      const w = Math.min(f.w, rw / k);
      const hh = w * (rh / rw);
      this.setVB({ x: Math.max(f.x, 540 - w / 2), y: Math.max(f.y, Math.min(f.h - hh, 470 - hh / 2)), w, h: hh });
      return;
    }
    this.setVB({ ...f });
  }

  /** The map's box changed size (a window resized, a phone turned, a pane shown): keep the scale
   *  and the centre, and fill the new box. */
  refit() {
    const rw = this.holder.clientWidth;
    const rh = this.holder.clientHeight;
    if (!rw || !rh || !this.vb) return;
    const old = this._size;
    this._size = { w: rw, h: rh };
    if (!old || !old.w || !old.h) {             // shown for the first time (a phone's map pane)
      this.fit(true);
      return;
    }
    if (old.w === rw && old.h === rh) return;
    const k = Math.min(old.w / this.vb.w, old.h / this.vb.h);        // pixels per map unit until now
    const cx = this.vb.x + this.vb.w / 2;
    const cy = this.vb.y + this.vb.h / 2;
    this.setVB({ x: cx - rw / k / 2, y: cy - rh / k / 2, w: rw / k, h: rh / k });
  }

  setVB(vb) {
    const f = this.full;
    const minW = 160;
    const maxW = f.w * 1.3;
    if (vb.w < minW) {
      vb.h *= minW / vb.w;
      vb.w = minW;
    }
    if (vb.w > maxW) {
      vb.h *= maxW / vb.w;
      vb.w = maxW;
    }
    vb.x = Math.min(Math.max(vb.x, f.x - vb.w * 0.5), f.x + f.w - vb.w * 0.5);
    vb.y = Math.min(Math.max(vb.y, f.y - vb.h * 0.5), f.y + f.h - vb.h * 0.5);
    this.vb = vb;
    this.svg.setAttribute("viewBox", `${vb.x.toFixed(1)} ${vb.y.toFixed(1)} ${vb.w.toFixed(1)} ${vb.h.toFixed(1)}`);
  }

  /** Screen point -> map units (honours preserveAspectRatio meet). */
  toMap(cx, cy) {
    const r = this.svg.getBoundingClientRect();
    const vb = this.vb;
    const k = Math.min(r.width / vb.w, r.height / vb.h);
    const ox = r.left + (r.width - vb.w * k) / 2;
    const oy = r.top + (r.height - vb.h * k) / 2;
    return { x: vb.x + (cx - ox) / k, y: vb.y + (cy - oy) / k, k };
  }

  zoomBy(f, cx = null, cy = null) {
    const r = this.svg.getBoundingClientRect();
    if (cx === null) {
      cx = r.left + r.width / 2;
      cy = r.top + r.height / 2;
    }
    const p = this.toMap(cx, cy);
    const vb = this.vb;
    const nw = vb.w * f;
    const nh = vb.h * f;
    this.setVB({ x: p.x - (p.x - vb.x) * f, y: p.y - (p.y - vb.y) * f, w: nw, h: nh });
  }

  centreOn(code, force = false) {
    const b = this.boxes[code];
    if (!b) return;
    const vb = this.vb;
    const m = Math.min(60, vb.w / 6);
    if (!force && b.cx > vb.x + m && b.cx < vb.x + vb.w - m && b.cy > vb.y + m && b.cy < vb.y + vb.h - m) return;
    const f = this.full;
    const clampTo = (v, lo, hi) => (hi < lo ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi));
    this.setVB({ ...vb, x: clampTo(b.cx - vb.w / 2, f.x, f.x + f.w - vb.w), y: clampTo(b.cy - vb.h / 2, f.y, f.y + f.h - vb.h) });
  }

  _wire() {
    const svg = this.svg;
    const ptrs = new Map();
    let start = null;
    let pinch = null;
    svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 && e.pointerType === "mouse") return;
      ptrs.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (ptrs.size === 1) {
        const st = e.target.closest && e.target.closest("[data-stack]");
        const drag = st && this.h.canDrag && this.h.canDrag(Number(st.dataset.stack)) ? Number(st.dataset.stack) : null;
        start = { x: e.clientX, y: e.clientY, vb: { ...this.vb }, target: e.target, moved: false, id: e.pointerId, drag };
      } else if (ptrs.size === 2) {
        const [a, b] = [...ptrs.values()];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), vb: { ...this.vb }, mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
        if (start) start.moved = true;
      }
    });
    const reachAt = (e) => {
      const el = document.elementFromPoint(e.clientX, e.clientY);
      const pr = el && el.closest && el.closest("[data-province]");
      const code = pr && pr.dataset.province;
      return code && this.marks.reach && this.marks.reach[code] ? code : null;
    };
    svg.addEventListener("pointermove", (e) => {
      if (!ptrs.has(e.pointerId)) {          // hovering: the route to a reachable province
        if (e.pointerType === "mouse" && this.marks.reach) {
          const code = reachAt(e);
          if (code !== this._planned) this.plan(code);
        }
        return;
      }
      ptrs.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && ptrs.size >= 2) {
        const [a, b] = [...ptrs.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y);
        if (d > 10) {
          this.setVB({ ...pinch.vb });
          this.zoomBy(pinch.d / d, pinch.mid.x, pinch.mid.y);
        }
        return;
      }
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!start.moved && Math.hypot(dx, dy) < 6) return;
      if (!start.moved) {
        start.moved = true;
        try { svg.setPointerCapture(e.pointerId); } catch { /* ignore */ }
        svg.classList.add(start.drag !== null ? "dragging-stack" : "dragging");
      }
      if (start.drag !== null) {             // dragging a counter: the route to where it would go
        const code = reachAt(e);
        if (code !== this._planned) this.plan(code);
        return;
      }
      const k = this.toMap(0, 0).k;
      this.setVB({ ...start.vb, x: start.vb.x - dx / k, y: start.vb.y - dy / k });
    });
    const up = (e) => {
      if (!ptrs.has(e.pointerId)) return;
      ptrs.delete(e.pointerId);
      svg.classList.remove("dragging", "dragging-stack");
      if (ptrs.size < 2) pinch = null;
      if (start && start.id === e.pointerId) {
        if (start.drag !== null && start.moved && e.type === "pointerup") {
          const code = reachAt(e);
          this.plan(null);
          if (code && this.h.onDrop) this.h.onDrop(start.drag, code);
        }
        if (!start.moved && e.type === "pointerup") this._click(start.target, e);
        start = null;
      }
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const f = Math.exp(Math.max(-0.5, Math.min(0.5, e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018))));
      this.zoomBy(f, e.clientX, e.clientY);
    }, { passive: false });
    // keyboard: Enter or Space on a focused counter or destination acts as a click; the arrow keys
    // pan the map, + and - zoom, 0 shows the whole map
    svg.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest("[data-stack], [data-province]")) {
        e.preventDefault();
        this._click(e.target, e);
        return;
      }
      const pan = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (pan) {
        e.preventDefault();
        this.setVB({ ...this.vb, x: this.vb.x + pan[0] * this.vb.w * 0.15, y: this.vb.y + pan[1] * this.vb.h * 0.15 });
      } else if (e.key === "+" || e.key === "=") {
        this.zoomBy(0.75);
      } else if (e.key === "-") {
        this.zoomBy(1 / 0.75);
      } else if (e.key === "0") {
        this.fit();
      }
    });
    svg.addEventListener("dblclick", (e) => {
      e.preventDefault();
      this.zoomBy(0.6, e.clientX, e.clientY);
    });
  }

  _click(target, e) {
    const st = target.closest && target.closest("[data-stack]");
    if (st && this.h.onStack) {
      this.h.onStack(Number(st.dataset.stack), st.dataset.province, e);
      return;
    }
    const pr = target.closest && target.closest("[data-province]");
    if (pr && this.h.onProvince) {
      this.h.onProvince(pr.dataset.province, e);
      return;
    }
    if (this.h.onBlank) this.h.onBlank(e);
  }

  // -- drawing --------------------------------------------------------------------------------------
  /**
   * view: the engine view; marks: {moves: {CODE: {rail, land}}, targets: Set(stackId),
   * attackers: Set, candidates: Set, path: [codes], selected: stackId, force: stackId, province: CODE,
   * strengths: {stackId: the engine's strength, shown on the counter}}
   */
  render(view, marks = {}) {
    if (!this.svg) return;
    // keep the keyboard focus on the same counter or destination across the redraw
    const act = document.activeElement;
    let again = null;
    if (act && act !== this.svg && this.svg.contains(act)) {
      again = act.dataset.stack ? `[data-stack="${act.dataset.stack}"]`
        : act.classList.contains("move-target") ? `.move-target[data-province="${act.dataset.province}"]` : null;
    }
    this._render(view, marks);
    if (again) (this.svg.querySelector(again) || this.svg).focus({ preventScroll: true });
  }

  _render(view, marks) {
    this.marks = { ...this.marks, ...marks };
    const m = this.marks;
    const { under, path, stacks, over } = this.layers;
    clear(under);
    clear(path);
    clear(stacks);
    clear(over);
    // province selection and move targets
    if (m.province && this.boxes[m.province]) {
      const b = this.boxes[m.province];
      over.append(s("rect", { class: "sel-prov", x: b.x - 3, y: b.y - 3, width: b.w + 6, height: b.h + 6, rx: 6 }));
    }
    // on a touch screen the rings' hit areas are at least 52 map units (about 40 px at the phone's
    // starting scale) each way, so they can be tapped without zooming
    const coarse = globalThis.matchMedia && matchMedia("(pointer: coarse)").matches;
    const hit = (b) => {
      const px = coarse ? Math.max(6, (52 - b.w) / 2) : 6;
      const py = coarse ? Math.max(6, (52 - b.h) / 2) : 6;
      return { class: "hit", x: b.x - px, y: b.y - py, width: b.w + 2 * px, height: b.h + 2 * py, rx: 8 };
    };
    for (const [code, how] of Object.entries(m.moves || {})) {
      const b = this.boxes[code];
      if (!b) continue;
      const g = s("g", { class: "move-target" + (how.rail ? " by-rail" : "") + (how.land ? " by-land" : ""), "data-province": code,
                         "data-move": how.rail && how.land ? "both" : how.rail ? "rail" : "land" });
      if (how.rail) {
        g.append(s("rect", { class: "ring-rail-base", x: b.x - 6, y: b.y - 6, width: b.w + 12, height: b.h + 12, rx: 8 }),
          s("rect", { class: "ring-rail-dash", x: b.x - 6, y: b.y - 6, width: b.w + 12, height: b.h + 12, rx: 8 }));
      }
      if (how.land) g.append(s("rect", { class: "ring-land", x: b.x - 3, y: b.y - 3, width: b.w + 6, height: b.h + 6, rx: 6 }));
      g.append(s("rect", hit(b)));
      // (keyboard: a destination is a button, Tab reaches it, Enter moves there)
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `Move to ${pname(code)}${how.rail && how.land ? " (by rail or overland)" : how.rail ? " by rail" : " overland"}`);
      over.append(g);
    }
    // every province the force (or the selected stack) can end its move in this phase, by the
    // engine's reach: one click, or a drag of the counter, moves it there step by step
    for (const [code, route] of Object.entries(m.reach || {})) {
      const b = this.boxes[code];
      if (!b || (m.moves || {})[code]) continue;
      const g = s("g", { class: "reach-target" + (route.rail ? " by-rail" : ""), "data-province": code, "data-reach": route.path.length,
                         tabindex: "0", role: "button", "aria-label": `Move to ${pname(code)} (${route.path.length} step${route.path.length > 1 ? "s" : ""}${route.rail ? " by rail" : " overland"})` },
        s("rect", { class: "ring-reach", x: b.x - 4, y: b.y - 4, width: b.w + 8, height: b.h + 8, rx: 7 }),
        s("rect", hit(b)));
      over.append(g);
    }
    this.plan(this._planned);
    // the force's path
    if (m.path && m.path.length > 1) {
      const pts = m.path.filter((c) => this.boxes[c]).map((c) => `${this.boxes[c].cx},${this.boxes[c].cy}`);
      path.append(s("polyline", { class: "force-path-halo", points: pts.join(" ") }),
        s("polyline", { class: "force-path", points: pts.join(" "), "marker-end": "url(#arrow)" }));
    }
    if (!view || !view.stacks) return;
    // stacks, grouped by province
    const byProv = {};
    for (const st of view.stacks) (byProv[st.province] ||= []).push(st);
    for (const [code, list] of Object.entries(byProv)) {
      const b = this.boxes[code];
      if (!b) continue;
      list.sort((a, b2) => (a.owner || "~").localeCompare(b2.owner || "~") || a.id - b2.id);
      // side by side under the province box, in rows of at most three (never overlapping, so
      // every owner letter and strength stays readable)
      const n = list.length;
      const gap = 2;
      const perRow = Math.max(1, Math.min(n, Math.floor((Math.max(b.w + 16, 3 * CW + 2 * gap) + gap) / (CW + gap))));
      list.forEach((st, i) => {
        const row = Math.floor(i / perRow);
        const col = i % perRow;
        const inRow = Math.min(perRow, n - row * perRow);
        const x0 = b.cx - (inRow * (CW + gap) - gap) / 2;
        stacks.append(this._counter(st, x0 + col * (CW + gap), b.y + b.h + 2 + row * (CH + gap), m));
      });
    }
  }

  _counter(st, x, y, m) {
    const col = st.color || "";
    const fill = UNIT_COLOURS[col] || UNIT_COLOURS[""];
    const ink = UNIT_INK[col] || "#2b2118";
    const str = shownStrength(m.strengths, st) ?? "";   // the engine's (facts.strengths); none for the dealt hands
    const leaders = leadersOf(st);
    const cls = ["counter"];
    if (st.ghost) cls.push("ghost");
    if (m.selected === st.id) cls.push("selected");
    if (m.force === st.id) cls.push("moving");
    if (m.targets && m.targets.has(st.id)) cls.push("target");
    if (m.attackers && m.attackers.has(st.id)) cls.push("attacker");
    if (m.candidates && m.candidates.has(st.id)) cls.push("candidate");
    const owner = st.owner ? `${st.owner}` : "uncontrolled";
    const title = `${owner === "uncontrolled" ? "Uncontrolled" : "Player " + owner} · ${col || "Imperial"}${str === "" ? "" : ` · strength ${str}`}\n` +
      st.units.map(ulabel).join(", ") + `\n${pname(st.province)}`;
    const g = s("g", { class: cls.join(" "), "data-stack": st.id, "data-owner": st.owner || "", "data-color": col,
                       "data-province": st.province, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
                       tabindex: 0, role: "button" },     // (its accessible name: the <title>, in words)
      s("title", {}, title.replace(/\n/g, " · ")),
      s("rect", { class: "c-shadow", x: 1.2, y: 1.4, width: CW, height: CH, rx: 2.5 }),
      // the border in the owner's seat colour: "a distinctive color for each player" (004, the critique)
      s("rect", { class: "c-body", x: 0, y: 0, width: CW, height: CH, rx: 2.5, fill,
                  stroke: st.owner ? SEAT_COLOURS[st.owner] || "#1d150e" : col === "White" ? "#6b5a44" : col === "Anarchist" ? "#8a8a8a" : "#1d150e" }),
      s("text", { class: "c-str", x: CW / 2 + (st.owner ? 2.5 : 0), y: CH - 4.2, fill: ink }, String(str)));
    if (st.owner) {
      g.append(s("circle", { cx: 5, cy: 5, r: 4.6, fill: SEAT_COLOURS[st.owner] || "#444", stroke: "#fff8", "stroke-width": 0.6 }),
        s("text", { class: "c-owner", x: 5, y: 7.4 }, st.owner));
    }
    if (leaders.length) {
      g.append(s("text", { class: "c-lead", x: CW - 1.5, y: 6.8, fill: col === "White" ? "#8a6412" : "#f3cf5a" },
        leaders.length > 1 ? `${leaders.length}★` : "★"));
    }
    const imp = st.units.filter((u) => unit(u).kind === "imperial");
    imp.forEach((u, i) => {
      g.append(s("circle", { cx: 3.6 + i * 6, cy: CH - 3.6, r: 3, fill: "#d7ad2b", stroke: "#5a4300", "stroke-width": 0.6 }),
        s("text", { class: "c-imp", x: 3.6 + i * 6, y: CH - 2.2 }, u === D.czar ? "C" : "G"));
    });
    return g;
  }

  /** Where a stack's counter is on screen (for popovers). */
  counterRect(stackId) {
    const el = this.svg && this.svg.querySelector(`[data-stack="${stackId}"]`);
    return el ? el.getBoundingClientRect() : null;
  }
}
