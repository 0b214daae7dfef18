// The game data (data.json, generated from data/ by scripts/build_static.py) and display helpers:
// names, labels, colours for drawing.  No rule is computed here: strengths, combat odds, purge
// and assassination chances and Victory Points are the engine's answers, sent by the server
// (the `facts` of each state frame, `view.scores`, and `query` answers; docs/protocol.md 3.1).

export let D = null;

export async function loadData() {
  if (D) return D;
  const r = await fetch("data.json", { cache: "no-cache" });
  if (!r.ok) throw new Error(`data.json: HTTP ${r.status}`);
  D = await r.json();
  D.regionColour = Object.fromEntries(D.regions.map((r) => [r.name, r.colour]));
  return D;
}

export const SEAT_COLOURS = { A: "#6d3a8e", B: "#c0661a", C: "#17757c", D: "#7a6a12", E: "#b23a6e", F: "#3d4b5c",
  R: "#a8231b", N: "#4a4f57" };   // (R and N: the SPI solitaire's Red and non-Red Players)
/** The colours of the counters, by the units' colour: the body, the ink of the strength, the
 *  leaders' star, the edge of an uncontrolled counter (an owned one is edged in its seat's colour).
 *  The one place: the map's counters (js/board.js), its key and the unit dots and chips of the
 *  panels (colourStyle) read it, so a new colour of counters is one line here.  ("": the Czar and
 *  the Gold.) */
export const COUNTER_COLOURS = {
  Red: { fill: "#a8231b", ink: "#fff6e8", star: "#f3cf5a", edge: "#1d150e" },
  White: { fill: "#f4efe2", ink: "#2b2118", star: "#8a6412", edge: "#6b5a44" },
  Blue: { fill: "#2c5897", ink: "#f2f5ff", star: "#f3cf5a", edge: "#1d150e" },
  Green: { fill: "#3d7a36", ink: "#f3fbe9", star: "#f3cf5a", edge: "#1d150e" },
  Anarchist: { fill: "#151515", ink: "#f2f2f2", star: "#f3cf5a", edge: "#8a8a8a" },   // 001 Anarchists
  "": { fill: "#d7ad2b", ink: "#2b2118", star: "#5a4300", edge: "#1d150e" },
};

/** The colours of counters of `colour` (the imperial gold for one not in the table). */
export function counterColours(colour) {
  return COUNTER_COLOURS[colour] || COUNTER_COLOURS[""];
}

/** CSS for the unit dots and chips of the panels, from COUNTER_COLOURS (added once by js/main.js). */
export function colourStyle() {
  return Object.entries(COUNTER_COLOURS).map(([c, k]) =>
    `[data-color="${c}"].unit-dot, .unit-chip[data-color="${c}"]${c ? `, .ctl[data-color="${c}"]` : ""} { background: ${k.fill}; color: ${k.ink}; }`)
    .join("\n");
}

export const PHASES = [
  ["random_events", "Random Events"],
  ["movement", "Movement"],
  ["combat", "Combat"],
  ["randomizer", "Randomizer"],
];
export const PHASE_NAMES = { trading: "Pre-game trading", vote: "End-game vote", over: "Game over",
  leaders: "Red Leader Determination",                                       // the SPI solitaire, 004 [24.0]
  first: "First Phase (movement)", second: "Second Phase (combat)",          // the postal game, 004 [17.0]
  ...Object.fromEntries(PHASES) };

export function unit(id) {
  return D.units[String(id)];
}
export function uname(id) {
  const u = unit(id);
  if (!u) return `#${id}`;
  return u.kind === "leader" || u.kind === "imperial" ? u.name : u.label;
}
export function ulabel(id) {
  const u = unit(id);
  return u ? u.label : `#${id}`;
}
export function isLeader(id) {
  const u = unit(id);
  return !!u && u.kind === "leader";
}
export function isImperial(id) {
  const u = unit(id);
  return !!u && u.kind === "imperial";
}
export function province(code) {
  return D.provinces[code];
}
export function pname(code) {
  const p = D.provinces[code];
  return p ? p.name : code;
}
/** An engine message as a player reads it: the provinces it names by code ("ARCH") by their
 *  names on the map ("Archangel"); any other word is left as it is. */
export function placeNames(text) {
  // (not a code in a unit's label, "WU3 OMSK", "BU2 CHER/GE": the counters and the log read so)
  return String(text ?? "").replace(/(?<![A-Z]U\d{1,2} )\b[A-Z]{4}\b(?!\/)/g, (w) => (D.provinces && D.provinces[w] ? D.provinces[w].name : w));
}
export function nationalityName(nat) {
  return D.blue_names[nat] || D.green_names[nat] || nat;
}

export function attachedTo(stack, uid) {
  const a = stack.attached || {};
  return a[String(uid)] ?? a[uid];
}

export function leadersOf(stack) {
  return stack.units.filter(isLeader);
}

/** The stack of ``view`` that holds unit ``uid`` (undefined when it is not on the map). */
export function stackOf(view, uid) {
  return view.stacks.find((s) => s.units.includes(uid));
}

/** A stack's strength as the engine counts it (facts.strengths, by stack id); null if unknown. */
export function shownStrength(strengths, stack) {
  const n = (strengths || {})[String(stack.id)];
  return n === undefined ? null : n;
}

export function pct(p) {
  return `${Math.round(p * 100)}%`;
}
