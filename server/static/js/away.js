// "While you were away": what happened since this seat (or this spectator) last looked, in a
// few lines, when the page reopens or regains the focus after others (bots included) have
// played.  Read off the event log's lines (js/log.js), which are the engine's events.

import { h, store } from "./util.js";

const key = (gid, seat) => `seen:${gid}:${seat || "-"}`;

/** The last action this browser showed this seat while the page was visible. */
export function lastSeen(gid, seat) {
  return store.get(key(gid, seat), null);
}

/** Forget the last look of ``seat`` (null: of this browser's spectator) at game ``gid``. */
export function forgetSeen(gid, seat) {
  store.remove(key(gid, seat));
}

export function markSeen(gid, seat, seq) {
  if ((lastSeen(gid, seat) || 0) < seq) store.set(key(gid, seat), seq);
}

/** A few lines about the log lines after `since`, or null if nobody else did anything. */
export function summarize(lines, since, seat) {
  const after = lines.filter((l) => l.seq > since);
  const others = after.filter((l) => l.seat !== seat || !seat);
  if (!others.length) return null;
  const seqs = new Set(after.map((l) => l.seq));
  const turns = [...new Set(after.map((l) => l.turn))];
  const moved = after.filter((l) => l.cls === "move" && l.seat !== seat);
  const movers = [...new Set(moved.map((l) => l.seat).filter(Boolean))].sort();
  const pick = (cls, n) => after.filter((l) => cls.includes(l.cls)).slice(-n).map((l) => l.text);
  const out = [`${seqs.size} action${seqs.size === 1 ? "" : "s"} since you looked` +
    (turns.length > 1 ? ` (Game-Turn ${turns[0]} to ${turns[turns.length - 1]})` : ` (Game-Turn ${turns[0]})`)];
  if (moved.length) out.push(`${movers.join(", ") || "Players"} moved ${moved.length} force${moved.length === 1 ? "" : "s"}`);
  const combats = after.filter((l) => l.cls === "combat");
  if (combats.length) out.push(`${combats.length} combat${combats.length === 1 ? "" : "s"}: ` + combats.slice(-2).map((l) => l.text).join("; "));
  out.push(...pick(["purge"], 2));          // (seven lines at most: the summary fits a phone's screen)
  const trades = after.filter((l) => l.cls === "trade").length;
  if (trades) out.push(`${trades} trade message${trades === 1 ? "" : "s"} (see the log)`);
  out.push(...pick(["over"], 1));
  return out;
}

/** Show the summary (one at a time), dismissed by its button. */
/** Take the "While you were away" card down, if it is up. */
export function hideAway() {
  const old = document.querySelector(".away");
  if (old) old.remove();
}

export function showAway(root, lines) {
  hideAway();
  const box = h("aside.away", { role: "status", "aria-label": "While you were away" },
    h("div.away-head", h("strong", "While you were away"),
      h("button.modal-x", { type: "button", "aria-label": "Dismiss", dataset: { act: "away-close" }, onclick: () => box.remove() }, "×")),
    h("ul", lines.map((t) => h("li", t))));
  root.append(box);
  return box;
}
