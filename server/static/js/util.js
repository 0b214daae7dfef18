// Small DOM and storage helpers shared by every page.

/** h("div.card#id", {onclick, dataset:{...}, ...attrs}, child, ...) -> Element */
export function h(spec, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(spec);
  const tag = (m && m[1]) || "div";
  const el = document.createElement(tag);
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  if (attrs) setAttrs(el, attrs);
  append(el, children);
  return el;
}

export function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (k === "class") el.className = v;
    else if (k === "html") el.innerHTML = v;
    else if (k in el && typeof v !== "string") el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVGNS = "http://www.w3.org/2000/svg";
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

// -- storage: seat tokens, read marks, the event log ------------------------------------------
const LS = (() => {
  try {
    const k = "__rcw_probe";
    localStorage.setItem(k, "1");
    localStorage.removeItem(k);
    return localStorage;
  } catch {
    const mem = new Map();
    return { getItem: (k) => (mem.has(k) ? mem.get(k) : null), setItem: (k, v) => mem.set(k, String(v)),
             removeItem: (k) => mem.delete(k), key: (i) => [...mem.keys()][i], get length() { return mem.size; } };
  }
})();

export const store = {
  get(key, dflt = null) {
    try {
      const v = LS.getItem("rcw:" + key);
      return v === null ? dflt : JSON.parse(v);
    } catch {
      return dflt;
    }
  },
  set(key, value) {
    try {
      LS.setItem("rcw:" + key, JSON.stringify(value));
    } catch {
      /* full or disabled: the page still works, it just forgets */
    }
  },
  remove(key) {
    try { LS.removeItem("rcw:" + key); } catch { /* ignore */ }
  },
  /** The keys (without "rcw:") that begin with ``prefix``. */
  keys(prefix) {
    try {
      const out = [];
      for (let i = 0; i < LS.length; i++) {
        const k = LS.key(i);
        if (k && k.startsWith("rcw:" + prefix)) out.push(k.slice(4));
      }
      return out;
    } catch {
      return [];
    }
  },
};

/** Seats this browser holds: {gid: {A: {token, name, joined}, ...}} */
export function seatsHeld(gid) {
  return store.get("seats:" + gid, {});
}
export function holdSeat(gid, seat, token, name) {
  const all = seatsHeld(gid);
  all[seat] = { token, name, joined: Date.now() };
  store.set("seats:" + gid, all);
  const games = store.get("games", []);
  if (!games.includes(gid)) {
    games.unshift(gid);
    store.set("games", games.slice(0, 30));
  }
}
export function dropSeat(gid, seat) {
  const all = seatsHeld(gid);
  delete all[seat];
  store.set("seats:" + gid, all);
}

/** The browser's Notification API, while the tab is in the background (permission asked by a
 *  button: js/postal.js, the game menu). */
export function notifyBrowser(gid, title, body) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted" || !document.hidden) return;
  try {
    new Notification(title, { body, tag: `rcw-${gid}` });
  } catch {
    /* some browsers notify only from a service worker */
  }
}

/** Time left before a deadline, in words ("1 h 05 min left", "0:12 left"). */
export function fmtLeft(ms) {
  if (ms <= 0) return "closing…";
  const s = Math.ceil(ms / 1000);
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (d) return `${d} d ${hh} h left`;
  if (hh) return `${hh} h ${String(mm).padStart(2, "0")} min left`;
  return `${mm}:${String(ss).padStart(2, "0")} left`;
}

/** A span in seconds in words, exactly to the second ("23 h 57 min", "1 min 12 s"). */
export function fmtExact(sec) {
  const s = Math.round(sec);
  if (s < 1) return "0 s";
  const parts = [[Math.floor(s / 86400), "d"], [Math.floor((s % 86400) / 3600), "h"], [Math.floor((s % 3600) / 60), "min"], [s % 60, "s"]];
  return parts.filter(([n]) => n).map(([n, u]) => `${n} ${u}`).join(" ");
}

/** A duration in seconds, in words ("36 h", "2 d", "10 min"). */
export function fmtSpan(sec) {
  return sec >= 86400 && sec % 86400 === 0 ? `${sec / 86400} d` : sec >= 3600 ? `${Math.round(sec / 360) / 10} h` : `${Math.round(sec / 60)} min`;
}

/** Every countdown on the page (`.countdown[data-at]`, ms since the epoch), once a second. */
export function tickCountdowns() {
  for (const el of document.querySelectorAll(".countdown[data-at]")) el.textContent = fmtLeft(Number(el.dataset.at) - Date.now());
}

export function fmtTime(ms) {
  const d = new Date(ms);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** The members of a Central Committee as the page names them: "A, B, C", or "A alone" for a
 *  player who holds the markers himself (004 [11.11]: "any individual or group of Players";
 *  QA: "a Committee of A" read as a slip).  The engine's log words it the same way. */
export function committeeOf(members) {
  const ms = members || [];
  return ms.length === 1 ? `${ms[0]} alone` : ms.join(", ");
}

/** A Committee's members as one key, in any order (to compare two Committees). */
export function membersKey(members) {
  return [...members].sort().join(",");
}

/** Words for a screen reader only (beside symbols shown for the eye, which are aria-hidden). */
export function sr(text) {
  return h("span.sr", text);
}

export function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

/** Keep ``owner.stuck`` true while ``list`` shows its newest (bottom) content, for the owner to
 *  follow new content then: a scroll that reaches within ``slack`` px of the bottom sets it, and
 *  only a scroll up clears it.  (A scroll event that comes after the list shrank, before it was
 *  brought down again, finds it short of the bottom with its scrollTop unchanged: it must not let
 *  go; ci-local saw one do so, in the chat and in the log.)  ``onStuck``: called on such a scroll
 *  while stuck. */
export function followBottom(owner, list, slack, onStuck = null) {
  let lastTop = 0;
  owner.stuck = true;
  list.addEventListener("scroll", () => {
    const top = list.scrollTop;
    if (list.scrollHeight - top - list.clientHeight < slack) owner.stuck = true;
    else if (top < lastTop) owner.stuck = false;
    lastTop = top;
    if (owner.stuck && onStuck) onStuck();
  }, { passive: true });
}

let toastBox = null;
/** The most toasts shown at once (a burst: the oldest plain ones go, :func:`toast`). */
const MOST_TOASTS = 3;

/** A short message in the corner; kind: "error" | "info" | "ok". */
export function toast(text, kind = "info", detail = "") {
  if (!toastBox) {
    toastBox = h("div.toasts", { role: "status", "aria-live": "polite" });
    document.body.append(toastBox);
    document.addEventListener("pointermove", shyToasts, { passive: true });
  }
  const t = h("div.toast." + kind, h("div.toast-text", text), detail ? h("div.toast-detail", detail) : null);
  t.addEventListener("click", () => t.remove());
  toastBox.append(t);
  // (QA: the bots' turns in a burst piled five toasts over the map: past MOST_TOASTS the oldest
  // plain ones go at once, told in the Log anyway; an error, or a toast with a button, stays.
  // On a phone two at most, and a proposal's toast goes too, its card is in the Talk: QA saw four
  // cover the Talk's channels for seconds)
  const phone = window.matchMedia("(max-width: 760px)").matches;
  const most = phone ? 2 : MOST_TOASTS;
  const plain = [...toastBox.children].filter((x) => !x.classList.contains("error") && (phone || !x.querySelector("button")));
  while (toastBox.children.length > most && plain.length > 1) plain.shift().remove();
  setTimeout(() => t.classList.add("fade"), kind === "error" ? 9000 : 4000);
  setTimeout(() => t.remove(), kind === "error" ? 10000 : 5000);
  return t;
}

/** QA: toasts in the map's corner hid the provinces under them for seconds.  Those that pass
 *  clicks through (not an error, nor a proposal's toast, which open on a click) go faint while a
 *  mouse points at them, and come back when it leaves.  The toasts are measured once a frame at
 *  most, for the last pointer move in it (a mouse sends many more moves than frames). */
let shyMove = null;
function shyToasts(e) {
  if (!toastBox.firstChild || e.pointerType === "touch") return;
  if (shyMove === null) {
    requestAnimationFrame(() => {
      const last = shyMove;
      shyMove = null;
      shyNow(last);
    });
  }
  shyMove = e;
}

function shyNow(e) {
  const inside = e.target && e.target.closest && e.target.closest(".toast");    // (on a toast's button: it stays)
  for (const t of toastBox.children) {
    const r = t.getBoundingClientRect();
    const over = !inside && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    if (over !== t.classList.contains("shy")) t.classList.toggle("shy", over && getComputedStyle(t).pointerEvents === "none");
  }
}

/** A modal dialog; returns {el, close}.  body: Element(s); buttons: [{label, kind, onclick}] */
export function modal(title, body, buttons = [], opts = {}) {
  const back = h("div.modal-back");
  const box = h("div.modal" + (opts.cls ? "." + opts.cls : ""), { role: "dialog", "aria-modal": "true", "aria-label": title });
  // The keyboard stays in the dialog (Tab and Shift+Tab go round its controls) and goes back to
  // what opened it when it closes (QA: Tab left a dialog for the map behind it, and Escape left
  // the focus on the page's body).
  const opener = document.activeElement && document.activeElement !== document.body ? document.activeElement : null;
  const close = () => {
    back.remove();
    document.removeEventListener("keydown", onKey);
    if (opts.onclose) opts.onclose();
    if (opener && opener.isConnected && !document.querySelector(".modal-back")) opener.focus({ preventScroll: true });
  };
  const onKey = (e) => {
    if (e.key === "Escape") close();
    else if (e.key === "Tab" && [...document.querySelectorAll(".modal-back")].pop() === back) {
      const stops = [...box.querySelectorAll("button, [href], input, select, textarea, summary, [tabindex]:not([tabindex='-1'])")]
        .filter((x) => !x.disabled && x.getClientRects().length);
      if (!stops.length) return;
      const at = stops.indexOf(document.activeElement);
      if (at < 0 || (e.shiftKey && at === 0) || (!e.shiftKey && at === stops.length - 1)) {
        e.preventDefault();
        stops[at < 0 ? 0 : e.shiftKey ? stops.length - 1 : 0].focus();
      }
    }
  };
  document.addEventListener("keydown", onKey);
  // A modal opened by a touch's pointerup (opts.tapGuard, ms): the click that ends the same tap
  // comes after it and lands on the modal (its backdrop, or a button under the finger); it is
  // not the player's answer, so the first click within tapGuard ms is let go.
  let guard = opts.tapGuard ? performance.now() + opts.tapGuard : 0;
  back.addEventListener("click", (e) => {
    if (guard && performance.now() < guard) {
      guard = 0;
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);
  back.addEventListener("click", (e) => {
    if (e.target === back) close();
  });
  const foot = h("div.modal-foot");
  for (const b of buttons) {
    const btn = h("button.btn" + (b.kind ? "." + b.kind.trim().split(/\s+/).join(".") : ""), { type: "button", disabled: b.disabled, dataset: b.dataset || {} }, b.label);
    btn.addEventListener("click", async () => {
      if (b.onclick) {
        const keep = await b.onclick(btn);
        if (keep === true) return;
      }
      close();
    });
    foot.append(btn);
  }
  append(box, [h("div.modal-head", h("h2", title), h("button.modal-x", { type: "button", "aria-label": "Close", onclick: close }, "×")),
    h("div.modal-body", body), buttons.length ? foot : null]);
  back.append(box);
  document.body.append(back);
  // (the first field or the main button; else its close button: the focus is in the dialog)
  const first = box.querySelector("input, select, textarea, button.primary") || box.querySelector(".modal-x");
  if (first) setTimeout(() => first.focus(), 0);
  return { el: box, close };
}

export function debounceFrame(fn) {
  let queued = false;
  return (...args) => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn(...args);
    });
  };
}

/** Whether the page is used by touch (a coarse pointer: a phone, a tablet). */
export function touchScreen() {
  return !!(window.matchMedia && matchMedia("(pointer: coarse)").matches);
}

/** "tap" on a touch screen, else "click": what the player does to the map. */
export function tapWord() {
  return touchScreen() ? "tap" : "click";
}
