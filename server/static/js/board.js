// The map: rcw.mapdraw's SVG inlined, with pan and zoom, the stacks drawn as counters by each
// province box (placed where they hide no other counter; a crowded province shows a few and a
// "+n" counter that fans them all out), and overlays for the move targets (rail and overland told
// apart), the path of the force being moved, attack targets and attackers.  The map's legend is
// lifted out of the map into a panel the "Key" button opens, with a key to the counters.

import { h, s, clear, store } from "./util.js";
import { SEAT_COLOURS, COUNTER_COLOURS, counterColours, D, unit, shownStrength, leadersOf, pname, ulabel } from "./data.js";

const CW = 30; // counter width and height, map units (about as many pixels at the starting zoom)
const CH = 28;
const GAP = 3; // between counters
const NEAR = 6; // a group of counters is to be this much nearer its province's box than any other's,
const NEAR_COST = 20; // or it costs this much per map unit short (as an overlap of so many square units)
const SHOWN = 4; // a province shows at most this many counters; more: SHOWN - 1 and a "+n" counter

/** ``v`` within [lo, hi]; the middle of the two when hi < lo (a view wider than the map). */
function clampTo(v, lo, hi) {
  return hi < lo ? (lo + hi) / 2 : Math.min(Math.max(v, lo), hi);
}

/** The distance between two rectangles ({x, y, w, h}): 0 when they touch or overlap. */
function gap(a, b) {
  return Math.hypot(Math.max(0, b.x - a.x - a.w, a.x - b.x - b.w), Math.max(0, b.y - a.y - a.h, a.y - b.y - b.h));
}

/** An arrow's line from province box ``f`` to box ``t`` (their centres' line), begun and ended
 *  ``pad`` map units outside the two boxes so that it covers neither name (QA: the last phase's
 *  arrows hid TVER, TULA, OREL...); the centres' line where the boxes are too close for that. */
function boxToBox(f, t, pad = 2) {
  const dx = t.cx - f.cx;
  const dy = t.cy - f.cy;
  // (the fraction of the centres' line inside a box of half-sizes hw, hh around its end)
  const inside = (b) => Math.min(dx ? (b.w / 2 + pad) / Math.abs(dx) : Infinity, dy ? (b.h / 2 + pad) / Math.abs(dy) : Infinity);
  const a = inside(f);
  const z = 1 - inside(t);
  if (!(z - a > 0.05) || Math.hypot(dx, dy) * (z - a) < 8) return [f.cx, f.cy, t.cx, t.cy];
  return [f.cx + dx * a, f.cy + dy * a, f.cx + dx * z, f.cy + dy * z];
}

/** Whether two rectangles ({x, y, w, h}) overlap, and by how much area. */
function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const hh = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && hh > 0 ? w * hh : 0;
}

/** The cells of a group of `n` counters: a row of up to three, a block of two by two for four. */
function cells(n) {
  const cols = n === 4 ? 2 : n;
  return { cols, w: cols * CW + (cols - 1) * GAP, h: Math.ceil(n / cols) * CH + (Math.ceil(n / cols) - 1) * GAP };
}

/** An SVG rect's x, y, width and height, as numbers. */
function rectOf(r) {
  return ["x", "y", "width", "height"].map((k) => +r.getAttribute(k));
}

/** Move the drawing of an SVG group by (dx, dy), its children's x and y themselves (not by a
 *  transform: the box the board measures of it, Board._marks, would not follow one). */
function shiftBy(g, dx, dy) {
  for (const [k, d] of [["x", dx], ["y", dy]]) {
    for (const el of g.querySelectorAll(`[${k}]`)) el.setAttribute(k, String(Math.round((+el.getAttribute(k) + d) * 10) / 10));
  }
}

export class Board {
  constructor(container, handlers = {}) {
    this.el = container;
    this.h = handlers;
    this.boxes = {};
    this.vb = null;
    this.full = null;
    this.svg = null;
    this.marks = { moves: {}, targets: new Set(), attackers: new Set(), candidates: new Set(), duty: new Set(), path: null,
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
    // the legend, out of the map's way: a panel of its own (the Key button); the title takes its
    // corner (the bottom right, which mapdraw found free of provinces for the legend), clear of the
    // zoom buttons at the top right (QA: in the whole-map and the opening view they covered it)
    const legend = svg.querySelector("g.legend");
    if (legend) {
      const title = svg.querySelector("g.title");
      const [l, t] = [legend, title].map((g) => g && g.querySelector("rect"));
      if (l && t) {
        const [lx, ly, lw, lh] = rectOf(l);
        const [tx, ty, tw, th] = rectOf(t);
        shiftBy(title, lx + lw - (tx + tw), ly + lh - (ty + th));
      }
      legend.remove();
    }
    // overlay layers: the rings under the province boxes, everything else above all the map
    // draws (the title and the compass too), so that nothing of the map covers a counter; the
    // counters above the destination rings, whose touch areas reach past their boxes (a tap on a
    // counter in a destination province moves there: _click)
    const provinces = svg.querySelector("g.provinces");
    this.layers = {
      under: s("g", { class: "ov-under" }),
      path: s("g", { class: "ov-path" }),
      stacks: s("g", { class: "ov-stacks" }),
      over: s("g", { class: "ov-over" }),
      flash: s("g", { class: "ov-flash" }),        // (results flashing: not cleared by render)
      plan: s("g", { class: "ov-plan" }),          // (the route under the pointer: js/game.js reach)
      fan: s("g", { class: "ov-fan" }),            // (a crowded province's stacks fanned out, over everything)
    };
    provinces.before(this.layers.under);
    svg.append(this.layers.path, this.layers.plan, this.layers.over, this.layers.stacks, this.layers.flash, this.layers.fan);
    svg.querySelector("defs").append(
      s("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" },
        s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#3b2f22" })),
      s("filter", { id: "glow", x: "-30%", y: "-30%", width: "160%", height: "160%" },
        s("feGaussianBlur", { stdDeviation: "2.2", result: "b" }),
        s("feMerge", {}, s("feMergeNode", { in: "b" }), s("feMergeNode", { in: "SourceGraphic" }))),
    );
    clear(this.el);
    this.keyEl = this._key(legend, svg.getAttribute("font-family"));
    const keyBtn = h("button.key-btn", { type: "button", title: "Key to the map and the counters", "aria-controls": "map-key",
                                         "aria-expanded": "false", dataset: { act: "map-key" }, onclick: () => this.showKey(this.keyEl.hidden),
                                         onkeydown: (e) => { if (e.key === "Escape" && !this.keyEl.hidden) { e.preventDefault(); this.showKey(false); } } }, "Key");
    this.keyBtn = keyBtn;
    const zoom = h("div.map-zoom",
      h("button", { type: "button", title: "Zoom in", "aria-label": "Zoom in", onclick: () => this.zoomBy(0.75) }, "+"),
      h("button", { type: "button", title: "Zoom out", "aria-label": "Zoom out", onclick: () => this.zoomBy(1 / 0.75) }, "−"),
      h("button", { type: "button", title: "Whole map", "aria-label": "Whole map", onclick: () => this.fit() }, "⤢"),
      keyBtn);
    this.zoomEl = zoom;
    this.el.append(holder, zoom, this.keyEl);
    this.showKey(!!store.get("map-key", false));
    this.holder = holder;
    this.fit(true);
    this._size = { w: holder.clientWidth, h: holder.clientHeight };
    if (globalThis.ResizeObserver) new ResizeObserver(() => this.refit()).observe(holder);
    this._wire();
  }

  // -- the key: the map's legend and the counters ---------------------------------------------------
  /** The Key panel: the legend mapdraw drew (lifted out of the map, so it covers no province) and
   *  a key to the counters, drawn by the same code as the map's. */
  _key(legend, font) {
    const panel = h("div.map-key#map-key", { hidden: true, role: "region", "aria-label": "Key to the map and the counters", tabindex: "-1",
      // Escape closes it, as the dialogs (QA: only its × did), and gives the focus back to its button
      onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); this.showKey(false); this.keyBtn.focus(); } } });
    const head = h("div.key-head", h("b", "Key"),
      h("button.modal-x", { type: "button", "aria-label": "Close the key", onclick: () => this.showKey(false) }, "×"));
    const parts = [head];
    if (legend) {
      const r = legend.querySelector("rect");
      const [x, y, w, hh] = rectOf(r);
      r.remove();                                          // (the panel is its frame)
      const title = legend.querySelector("text");
      if (title) title.remove();                           // ("Legend": the panel's head says Key)
      const pic = s("svg", { viewBox: `${x} ${y + 24} ${w} ${hh - 24}`, class: "key-legend", role: "img", "font-family": font || "sans-serif",
                             "aria-label": "Legend: the regions' colours, railways, borders, the Kerch Straits, ports, region frontiers" }, legend);
      parts.push(h("div.key-part", h("h3", "The map"), pic));
    }
    // the counters, drawn as on the map
    const lead = (col) => Object.keys(D.units).map(Number).find((u) => unit(u).kind === "leader" && unit(u).color === col);
    const combat = (col) => Object.keys(D.units).map(Number).find((u) => unit(u).kind === "combat" && unit(u).color === col);
    const sample = (st, str, text, marks = {}) => {
      const g = this._counter({ attached: {}, province: "", ...st }, 4, 4, { strengths: { [st.id]: str }, ...marks });
      for (const a of ["tabindex", "role", "data-stack", "data-province"]) g.removeAttribute(a);
      g.querySelector("title").remove();
      return h("li", s("svg", { viewBox: `0 0 ${CW + 9} ${CH + 9}`, class: "key-counter", "aria-hidden": "true" }, g), h("span", text));
    };
    const two = Object.keys(D.units).map(Number).filter((u) => unit(u).kind === "leader" && unit(u).color === "White").slice(0, 2);
    const more = this._more("", 3, 4, 4);
    for (const a of ["tabindex", "role", "data-more", "data-province"]) more.removeAttribute(a);
    more.querySelector("title").remove();
    parts.push(h("div.key-part", h("h3", "Counters"), h("ul.key-counters",
      sample({ id: 1, owner: "A", color: "Red", units: [lead("Red")] }, 5, "Player A's stack (his letter, his colour all round): a leader ★ and its strength"),
      sample({ id: 2, owner: "B", color: "White", units: two }, 7, "two leaders (2★) of Player B"),
      sample({ id: 3, owner: "", color: "Blue", units: [combat("Blue")] }, 2, "an uncontrolled stack (no letter)"),
      sample({ id: 4, owner: "C", color: "Red", units: [lead("Red")], ghost: true }, "", "dealt, not yet deployed (the pre-game session)"),
      sample({ id: 5, owner: "A", color: "Red", units: [lead("Red")] }, 5,
        "a leader without troops who must still join the nearest friendly units before the Movement Phase ends (optional rule No Leader Suicide)",
        { duty: new Set([5]) }),
      h("li", s("svg", { viewBox: `0 0 ${CW + 9} ${CH + 9}`, class: "key-counter", "aria-hidden": "true" }, more),
        h("span", "more stacks in the province: click it to fan them all out"))),
      h("p.key-colours", Object.entries(COUNTER_COLOURS).map(([c]) =>
        h("span.nowrap", h("span.unit-dot", { dataset: { color: c } }), c || "Czar, Gold")))));
    panel.append(...parts);
    return panel;
  }

  /** Show or hide the Key panel (remembered in this browser). */
  showKey(on) {
    this.keyEl.hidden = !on;
    this.keyBtn.setAttribute("aria-expanded", on ? "true" : "false");
    this.keyBtn.classList.toggle("on", on);
    store.set("map-key", on);
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
      // map in miniature; the whole-map button shows everything.  A desktop box big enough to
      // show the whole map at a readable scale (counters 24 px wide) opens on all of it (QA: at
      // 1920x1080 the opening view cut Siberia off for nothing)
      const k = rw < 700 ? 0.8 : Math.max(0.78, Math.min(1.0, rh / 760));
      if (rw >= 700 && Math.min(rw / f.w, rh / f.h) >= 0.78) {      // (the desktop's least readable scale)
        const w = Math.max(f.w, f.h * (rw / rh));
        const hh = w * (rh / rw);
        this.setVB({ x: f.x - (w - f.w) / 2, y: f.y - (hh - f.h) / 2, w, h: hh });
        this._opening = this.vb;
        return;
      }
      const w = Math.min(f.w, rw / k);
      const hh = w * (rh / rw);
      this.setVB({ x: Math.max(f.x, 540 - w / 2), y: Math.max(f.y, Math.min(f.h - hh, 470 - hh / 2)), w, h: hh });
      this._opening = this.vb;                  // (frameAround widens it while the player has not moved it)
      return;
    }
    this.setVB({ ...f });
  }

  /** The first framing, widened on a desktop to take in the provinces ``codes`` (a player's own
   *  stacks: QA, a postal player's stacks in Siberia lay outside the opening view); a phone keeps
   *  its readable framing (its player drags the map, or takes the whole-map button). */
  frameAround(codes) {
    const bs = codes.map((c) => this.boxes[c]).filter(Boolean);
    const vb = this.vb;
    const rw = this.holder.clientWidth;
    const rh = this.holder.clientHeight;
    if (!bs.length || !vb || vb !== this._opening || rw < 700 || !rh) return;
    const pad = 30;
    const x0 = Math.min(vb.x, ...bs.map((b) => b.x - pad));
    const x1 = Math.max(vb.x + vb.w, ...bs.map((b) => b.x + b.w + pad));
    const y0 = Math.min(vb.y, ...bs.map((b) => b.y - pad));
    const y1 = Math.max(vb.y + vb.h, ...bs.map((b) => b.y + b.h + pad));
    if (x0 >= vb.x && x1 <= vb.x + vb.w && y0 >= vb.y && y1 <= vb.y + vb.h) return;     // (all in view)
    let w = x1 - x0;
    let hh = y1 - y0;
    if (w / hh < rw / rh) w = hh * (rw / rh); else hh = w * (rh / rw);       // (the box's shape)
    this.setVB({ x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - hh / 2, w, h: hh });
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
    const opening = this.vb === this._opening;
    this.setVB({ x: cx - rw / k / 2, y: cy - rh / k / 2, w: rw / k, h: rh / k });
    if (opening) this._opening = this.vb;       // (still the opening view, in a box of another size)
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

  /** The part of the map's box on screen that no panel over the map covers (the inspector, which
   *  on a phone takes the lower part of the map, the decision prompt, and the map's own zoom
   *  buttons, unless ``buttons`` is false: QA, on a phone a stack in Archangel stood under them):
   *  {left, top, right, bottom} in pixels, the largest part beside each panel in turn. */
  openArea(buttons = true) {
    const r = this.svg.getBoundingClientRect();
    let a = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (const el of [buttons ? this.zoomEl : null, ...((this.h.covers && this.h.covers()) || [])]) {
      if (!el || el.hidden) continue;
      const q = el.getBoundingClientRect();
      if (!q.width || !q.height || q.right <= a.left || q.left >= a.right || q.bottom <= a.top || q.top >= a.bottom) continue;
      // (the largest of the four parts beside the panel: above, below, left or right of it)
      const parts = [{ ...a, bottom: Math.min(a.bottom, q.top) }, { ...a, top: Math.max(a.top, q.bottom) },
                     { ...a, right: Math.min(a.right, q.left) }, { ...a, left: Math.max(a.left, q.right) }];
      const size = (p) => Math.max(0, p.right - p.left) * Math.max(0, p.bottom - p.top);
      a = parts.reduce((best, p) => (size(p) > size(best) ? p : best));
    }
    return a;
  }

  /** Bring province `code` into the middle of the open part of the map (unless it is well inside
   *  it already, or `force`), keeping the map filling the view where it can. */
  centreOn(code, force = false) {
    const b = this.boxes[code];
    if (b) this.centreOnPoint(b.cx, b.cy, force);
  }

  /** :meth:`centreOn` for a point of the map (map units), in the open area ``a`` (by default
   *  :meth:`openArea`'s). */
  centreOnPoint(cx, cy, force = false, a = null) {
    const b = { cx, cy };
    if (!this.vb) return;
    const vb = this.vb;
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;          // (the map is not shown: a phone's other pane)
    a = a || this.openArea();
    const k = Math.min(r.width / vb.w, r.height / vb.h);              // pixels per map unit
    const ox = r.left + (r.width - vb.w * k) / 2;                    // where the view box starts on screen
    const oy = r.top + (r.height - vb.h * k) / 2;
    const sx = ox + (b.cx - vb.x) * k;                               // the province on screen now
    const sy = oy + (b.cy - vb.y) * k;
    const m = Math.min(60 * k, (a.right - a.left) / 6, (a.bottom - a.top) / 6);
    if (!force && sx > a.left + m && sx < a.right - m && sy > a.top + m && sy < a.bottom - m) return;
    const [xs, ys] = this._range(a, r, k);
    this.setVB({ ...vb, x: clampTo(b.cx - ((a.left + a.right) / 2 - ox) / k, ...xs),
                 y: clampTo(b.cy - ((a.top + a.bottom) / 2 - oy) / k, ...ys) });
    this._placed = { ...this.vb };
  }

  /** Where :meth:`centreOnPoint` may put the view's corner ([lo, hi] for x and for y): the map
   *  filling the view, or, beside a panel over the map (open area ``a`` of the map's box ``r``,
   *  ``k`` pixels per map unit), scrolled as far past the map's end as the panel covers. */
  _range(a, r, k) {
    const f = this.full;
    const vb = this.vb;
    const [l, t, rt, bt] = [(a.left - r.left) / k, (a.top - r.top) / k, (r.right - a.right) / k, (r.bottom - a.bottom) / k];
    return [[f.x - l, f.x + f.w - vb.w + rt], [f.y - t, f.y + f.h - vb.h + bt]];
  }

  /** A panel over the map has closed (or opened): a view :meth:`centreOnPoint` took past the
   *  map's end beside it comes back as far as the panels there now allow, leaving no blank strip
   *  (QA: after a Move on a desktop the map stayed off to one side, a blank strip where the
   *  province panel had been).  A view the player has panned or zoomed since is left as it is. */
  settle() {
    const vb = this.vb;
    const p = this._placed;
    if (!vb || !p || p.x !== vb.x || p.y !== vb.y || p.w !== vb.w) return;
    // (never under a drag: a counter dragged before it was selected opens the province panel,
    // and on a phone hides the prompt; the view moving then sent the drop elsewhere, ci-local)
    if (this.svg.classList.contains("dragging") || this.svg.classList.contains("dragging-stack")) return;
    // (nor before :meth:`refit` has fitted the view to a box of a new size: the view is still the
    // old box's shape, and clamping it there moved a turned phone's map off its centre, ci)
    const sz = this._size;
    if (!sz || sz.w !== this.holder.clientWidth || sz.h !== this.holder.clientHeight) return;
    const r = this.svg.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const k = Math.min(r.width / vb.w, r.height / vb.h);
    const [xs, ys] = this._range(this.openArea(), r, k);
    const x = clampTo(vb.x, ...xs);
    const y = clampTo(vb.y, ...ys);
    if (Math.abs(x - vb.x) < 0.5 && Math.abs(y - vb.y) < 0.5) return;
    this.setVB({ ...vb, x, y });
    this._placed = { ...this.vb };
  }

  /** Bring the provinces ``codes`` (the first, the one that matters most: a force's own) into
   *  the open part of the map: nothing moves while all lie inside it; else the view pans to
   *  centre them together where they fit at this zoom, or the first alone.  QA: on a phone a
   *  force in the south stood in view, its ringed provinces under the prompt.  Clear of the zoom
   *  buttons too where all fit so, else as if the buttons were not there (on a phone the strip
   *  beside them may be too narrow for a force's ringed provinces). */
  bringIntoView(codes) {
    const bs = codes.map((c) => this.boxes[c]).filter(Boolean);
    const vb = this.vb;
    const r = this.svg.getBoundingClientRect();
    if (!bs.length || !vb || !r.width || !r.height) return;
    const k = Math.min(r.width / vb.w, r.height / vb.h);
    const ox = r.left + (r.width - vb.w * k) / 2;
    const oy = r.top + (r.height - vb.h * k) / 2;
    const xs = bs.map((b) => b.cx);
    const ys = bs.map((b) => b.cy);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const margin = (a) => Math.min(24, (a.right - a.left) / 8, (a.bottom - a.top) / 8);
    const fits = (a) => (x1 - x0) * k <= a.right - a.left - 2 * margin(a) && (y1 - y0) * k <= a.bottom - a.top - 2 * margin(a);
    let a = this.openArea();
    if (!fits(a)) {
      const all = this.openArea(false);
      if (fits(all)) a = all;
    }
    const m = margin(a);
    const inside = (b) => {
      const sx = ox + (b.cx - vb.x) * k;
      const sy = oy + (b.cy - vb.y) * k;
      return sx > a.left + m && sx < a.right - m && sy > a.top + m && sy < a.bottom - m;
    };
    if (bs.every(inside)) return;
    if (fits(a)) {
      this.centreOnPoint((x0 + x1) / 2, (y0 + y1) / 2, true, a);
    } else {
      this.centreOnPoint(bs[0].cx, bs[0].cy, !inside(bs[0]), a);
    }
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
        if (start.drag !== null && this.h.onDragStart) this.h.onDragStart(start.drag);   // (its rings, if not selected yet)
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
    // a counter or destination reached with the keyboard is brought into the open part of the map
    // (QA: Tab went on to counters under the Orders pane or below the screen, the map not following)
    svg.addEventListener("focusin", (e) => {
      const g = e.target.closest && e.target.closest("[data-province], [data-stack]");
      if (!g || this._refocus || !e.target.matches(":focus-visible")) return;
      const r = g.getBoundingClientRect();
      const a = this.openArea();
      if (r.left >= a.left && r.right <= a.right && r.top >= a.top && r.bottom <= a.bottom) return;
      const p = this.toMap(r.left + r.width / 2, r.top + r.height / 2);
      this.centreOnPoint(p.x, p.y, true);
    });
    // keyboard: Enter or Space on a focused counter or destination acts as a click; the arrow keys
    // pan the map, + and - zoom, 0 shows the whole map
    svg.addEventListener("keydown", (e) => {
      if ((e.key === "Enter" || e.key === " ") && e.target.closest && e.target.closest("[data-stack], [data-province], [data-act='fan-close']")) {
        e.preventDefault();
        this._click(e.target, e);
        return;
      }
      if (e.key === "Escape" && this.fanned) {
        e.preventDefault();
        const code = this.fanned;
        this.fan(null);
        const back = this.svg.querySelector(`[data-more="${code}"]`);
        if (back) back.focus({ preventScroll: true });
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

  /** Whether ``code`` is drawn as a destination: a ring of the force's next moves or of its reach. */
  _destination(code) {
    return !!code && !!((this.marks.moves || {})[code] || (this.marks.reach || {})[code]);
  }

  _click(target, e) {
    const more = target.closest && target.closest("[data-more], [data-act='fan-close']");
    if (more) {
      this.fan(more.dataset.more || null);
      return;
    }
    if (this.fanned && !(target.closest && target.closest(".fan"))) this.fan(null);   // (a click elsewhere folds the fan)
    const st = target.closest && target.closest("[data-stack]");
    if (st && e.type !== "keydown" && this.h.onProvince && this._destination(st.dataset.province)) {   // (a tap on a counter in a destination moves there)
      this.h.onProvince(st.dataset.province, e);
      return;
    }
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
   * attackers: Set, candidates: Set, duty: Set (stacks of leaders alone the rules say must still be
   * stacked, 001 No Leader Suicide 3), path: [codes], selected: stackId, force: stackId, province: CODE,
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
    if (again) {                 // (given back, not reached: the view stays where the player put it)
      this._refocus = true;
      (this.svg.querySelector(again) || this.svg).focus({ preventScroll: true });
      this._refocus = false;
    }
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
    // a postal sheet's moves (js/postal.js), as far as the engine would take each
    for (const p of m.plans || []) {
      const pts = p.path.filter((c) => this.boxes[c]).map((c) => `${this.boxes[c].cx},${this.boxes[c].cy}`);
      if (pts.length > 1) path.append(s("polyline", { class: "draft-path" + (p.rail ? " rail" : ""), points: pts.join(" "), "marker-end": "url(#arrow)", "data-order": p.index }));
    }
    // a postal phase's report (js/postal.js): its moves as arrows, its combats as marks; in a live
    // game, the other seats' latest moves (js/game.js noteMoves)
    for (const a of m.arrows || []) {
      const f = this.boxes[a.from];
      const t = this.boxes[a.to];
      if (!f || !t) continue;
      const [x1, y1, x2, y2] = boxToBox(f, t);
      path.append(s("line", { class: "report-move" + (a.rail ? " rail" : "") + (a.trail ? " trail" : ""), x1, y1, x2, y2,
                              "marker-end": "url(#arrow)", "data-from": a.from, "data-to": a.to, "data-seat": a.seat || "",
                              // (in the mover's seat colour, as its badge: whose move it was)
                              style: SEAT_COLOURS[a.seat] ? `stroke: ${SEAT_COLOURS[a.seat]}` : null }));
    }
    for (const c of m.blasts || []) {
      const b = this.boxes[c.province];
      if (!b) continue;
      path.append(s("g", { class: "report-combat", "data-province": c.province, "data-result": c.result || "" },
        s("title", {}, c.text || ""), s("circle", { cx: b.cx, cy: b.cy, r: Math.max(b.w, b.h) / 2 + 6 }),
        s("text", { x: b.cx, y: b.y - 8, "text-anchor": "middle" }, "✶")));
    }
    this.view = view;
    clear(this.layers.fan);
    if (!view || !view.stacks) return;
    // stacks, grouped by province: the stacks the decision is about first, then the viewer's
    const byProv = {};
    for (const st of view.stacks) if (this.boxes[st.province]) (byProv[st.province] ||= []).push(st);
    const rank = (st) => (m.force === st.id || m.selected === st.id ? 0
      : (m.duty && m.duty.has(st.id)) || (m.targets && m.targets.has(st.id)) || (m.attackers && m.attackers.has(st.id))
        || (m.candidates && m.candidates.has(st.id)) ? 1
        : st.owner && st.owner === m.me ? 2 : 3);
    for (const list of Object.values(byProv)) {
      list.sort((a, b) => rank(a) - rank(b) || (a.owner || "~").localeCompare(b.owner || "~") || a.id - b.id);
    }
    if (this.fanned && !(byProv[this.fanned] && byProv[this.fanned].length > 1)) this.fanned = null;
    for (const [code, where] of this._place(byProv)) {
      if (code === this.fanned) continue;                 // (drawn fanned out, below)
      const list = byProv[code];
      const { cols } = cells(where.n);
      const shown = where.n < list.length ? where.n - 1 : list.length;
      for (let i = 0; i < where.n; i++) {
        const x = where.x + (i % cols) * (CW + GAP);
        const y = where.y + Math.floor(i / cols) * (CH + GAP);
        stacks.append(i < shown ? this._counter(list[i], x, y, m) : this._more(code, list.length - shown, x, y));
      }
    }
    if (this.fanned) this._fan(this.fanned, byProv[this.fanned], m);
  }

  /**
   * Where each province's counters go: {code: {x, y, n}} (the top-left corner of a group of n
   * cells, the last one a "+k" counter when the province holds more). A group sits under its
   * province box, or beside it or above it, wherever it covers no counter placed before it and
   * as little of the other province boxes (their names) as can be; the most crowded provinces are
   * placed first.  A group that finds no free place anywhere shrinks to one counter and its "+k".
   */
  _place(byProv) {
    const placed = [];
    const out = new Map();
    const boxes = Object.entries(this.boxes).map(([c, b]) => ({ c, x: b.x - 1, y: b.y - 1, w: b.w + 2, h: b.h + 2 }));
    boxes.push(...this._marks());
    const order = Object.keys(byProv).sort((a, b) => byProv[b].length - byProv[a].length || this.boxes[a].y - this.boxes[b].y ||
      this.boxes[a].x - this.boxes[b].x);
    for (const code of order) {
      const b = this.boxes[code];
      const total = byProv[code].length;
      let best = null;
      for (const n of total > SHOWN ? [SHOWN, 2] : total > 2 ? [total, 2] : [total]) {
        const { w, h: gh } = cells(n);
        const spots = [
          [b.cx - w / 2, b.y + b.h + 2],                  // under the box (where the eye looks first)
          [b.x + b.w + 2, b.cy - gh / 2],                 // right of it
          [b.x - 2 - w, b.cy - gh / 2],                   // left of it
          [b.cx - w / 2, b.y - 2 - gh],                   // above it
          [b.x + b.w + 2, b.y + b.h + 2 - CH / 2],        // below right, below left
          [b.x - 2 - w, b.y + b.h + 2 - CH / 2],
          [b.x, b.y + b.h + 2],                           // under it, or above it, flush with one side
          [b.x + b.w - w, b.y + b.h + 2],
          [b.x, b.y - 2 - gh],
          [b.x + b.w - w, b.y - 2 - gh],
        ];
        for (const [x, y] of spots) {
          const r = { x, y, w, h: gh };
          const onCounters = placed.reduce((a, p) => a + overlap(r, p), 0);
          const onBoxes = boxes.reduce((a, p) => a + (p.c === code ? 0 : overlap(r, p)), 0);
          // (QA: a group as near another province's box as its own read as that province's)
          const own = gap(r, b);
          const score = onCounters * 1000 + onBoxes + boxes.reduce((a, p) => a + (p.c && p.c !== code
            ? Math.max(0, own + NEAR - gap(r, p)) * NEAR_COST : 0), 0);
          if (!best || score < best.score) best = { score, x, y, n, w, h: gh, onCounters };
          if (!score) break;
        }
        if (best.onCounters === 0) break;
      }
      placed.push({ x: best.x - GAP / 2, y: best.y - GAP / 2, w: best.w + GAP, h: best.h + GAP });
      out.set(code, best);
    }
    return out;
  }

  /** The map's own marks that counters had better not cover, as boxes: the Kerch Straits' label,
   *  the title, the compass (measured once the map is on screen). */
  _marks() {
    if (this._fixed) return this._fixed;
    const out = [];
    for (const el of this.svg.querySelectorAll(".kerch-label, g.title, g.compass")) {
      const r = el.getBBox();
      if (!r.width) return [];                          // (not laid out yet: a phone's hidden map pane)
      out.push({ c: "", x: r.x, y: r.y, w: r.width, h: r.height });
    }
    this._fixed = out;
    return out;
  }

  /** A crowded province's "+k" counter: it fans the province's stacks out. */
  _more(code, k, x, y) {
    return s("g", { class: "more-stacks", "data-more": code, "data-province": code, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
                    tabindex: 0, role: "button" },        // (its accessible name: the <title>, as a counter's)
      s("title", {}, `${k} more stack${k > 1 ? "s" : ""} in ${pname(code)}: show them all`),
      s("rect", { class: "c-shadow", x: 2.6, y: 2.8, width: CW, height: CH, rx: 2.5 }),
      s("rect", { class: "more-back", x: 1.4, y: 1.4, width: CW, height: CH, rx: 2.5 }),
      s("rect", { class: "more-body", x: 0, y: 0, width: CW, height: CH, rx: 2.5 }),
      s("text", { class: "more-n", x: CW / 2, y: CH / 2 + 1 }, `+${k}`),
      s("text", { class: "more-word", x: CW / 2, y: CH - 3.4 }, "more"));
  }

  /** Fan out the stacks of `code` over everything: every counter readable, clickable, draggable. */
  fan(code) {
    this.fanned = code || null;
    if (this.view) this._render(this.view, {});
    const first = code && this.layers.fan.querySelector("[data-stack]");
    if (first) first.focus({ preventScroll: true });
  }

  _fan(code, list, m) {
    const b = this.boxes[code];
    const cols = Math.min(list.length, 4);
    const rows = Math.ceil(list.length / cols);
    const pad = 6;
    const head = 13;
    const w = cols * CW + (cols - 1) * GAP + 2 * pad;
    const hh = rows * CH + (rows - 1) * GAP + 2 * pad + head;
    // under the province box, kept inside the part of the map on screen
    const vb = this.vb;
    let x = b.cx - w / 2;
    let y = b.y + b.h + 2;
    x = Math.min(Math.max(x, vb.x + 4), vb.x + vb.w - w - 4);
    y = Math.min(Math.max(y, vb.y + 4), vb.y + vb.h - hh - 4);
    const g = s("g", { class: "fan", "data-fanned": code, role: "group", "aria-label": `The ${list.length} stacks in ${pname(code)}` },
      s("rect", { class: "fan-plate", x, y, width: w, height: hh, rx: 5 }),
      s("text", { class: "fan-title", x: x + pad, y: y + pad + 7 }, `${code} · ${list.length} stacks`),
      s("g", { class: "fan-close", "data-act": "fan-close", tabindex: 0, role: "button", "aria-label": "Fold the stacks back",
               transform: `translate(${(x + w - pad - 6).toFixed(1)} ${(y + pad + 4).toFixed(1)})` },
        s("circle", { r: 6.5 }), s("text", { y: 2.6 }, "×")));
    list.forEach((st, i) => {
      g.append(this._counter(st, x + pad + (i % cols) * (CW + GAP), y + pad + head + Math.floor(i / cols) * (CH + GAP), m));
    });
    this.layers.fan.append(g);
  }

  _counter(st, x, y, m) {
    const col = st.color || "";
    const k = counterColours(col);
    const str = shownStrength(m.strengths, st) ?? "";   // the engine's (facts.strengths); none for the dealt hands
    const leaders = leadersOf(st);
    const cls = ["counter"];
    if (st.ghost) cls.push("ghost");
    if (m.selected === st.id) cls.push("selected");
    if (m.force === st.id) cls.push("moving");
    if (m.targets && m.targets.has(st.id)) cls.push("target");
    if (m.attackers && m.attackers.has(st.id)) cls.push("attacker");
    if (m.candidates && m.candidates.has(st.id)) cls.push("candidate");
    const duty = m.duty && m.duty.has(st.id);
    if (duty) cls.push("duty");
    const owner = st.owner ? `${st.owner}` : "uncontrolled";
    const title = `${owner === "uncontrolled" ? "Uncontrolled" : "Player " + owner} · ${col || "Imperial"}${str === "" ? "" : ` · strength ${str}`}\n` +
      st.units.map(ulabel).join(", ") + `\n${pname(st.province)}` +
      (duty ? "\nMust be stacked with the nearest friendly units before the Movement Phase ends (No Leader Suicide)" : "");
    const g = s("g", { class: cls.join(" "), "data-stack": st.id, "data-owner": st.owner || "", "data-color": col,
                       "data-province": st.province, transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})`,
                       tabindex: 0, role: "button" },     // (its accessible name: the <title>, in words)
      s("title", {}, title.replace(/\n/g, " · ")),
      s("rect", { class: "c-shadow", x: 1.4, y: 1.6, width: CW, height: CH, rx: 3 }),
      // the border in the owner's seat colour: "a distinctive color for each player" (004, the critique)
      s("rect", { class: "c-body", x: 0, y: 0, width: CW, height: CH, rx: 3, fill: k.fill,
                  stroke: st.owner ? SEAT_COLOURS[st.owner] || k.edge : k.edge }),
      s("text", { class: "c-str", x: CW / 2 + (st.owner ? 2.5 : 0), y: CH - 4.6, fill: k.ink }, String(str)));
    if (st.owner) {
      g.append(s("circle", { cx: 6.6, cy: 6.6, r: 5.9, fill: SEAT_COLOURS[st.owner] || "#444", stroke: "#fff8", "stroke-width": 0.7 }),
        s("text", { class: "c-owner", x: 6.6, y: 9.6 }, st.owner));
    }
    if (leaders.length) {
      g.append(s("text", { class: "c-lead", x: CW - 1.8, y: 9, fill: k.star }, leaders.length > 1 ? `${leaders.length}★` : "★"));
    }
    if (duty) g.append(s("circle", { class: "c-duty", cx: CW - 4.6, cy: CH - 4.6, r: 4.4 }), s("text", { class: "c-duty-mark", x: CW - 4.6, y: CH - 1.6 }, "!"));
    const imp = st.units.filter((u) => unit(u).kind === "imperial");
    const gold = counterColours("");
    imp.forEach((u, i) => {
      g.append(s("circle", { cx: 4.8 + i * 8, cy: CH - 4.8, r: 4, fill: gold.fill, stroke: gold.star, "stroke-width": 0.7 }),
        s("text", { class: "c-imp", x: 4.8 + i * 8, y: CH - 2.9 }, u === D.czar ? "C" : "G"));
    });
    return g;
  }

  /** Where a stack's counter is on screen (for popovers). */
  counterRect(stackId) {
    const el = this.svg && this.svg.querySelector(`[data-stack="${stackId}"]`);
    return el ? el.getBoundingClientRect() : null;
  }
}
