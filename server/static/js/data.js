// The game data (data.json, generated from data/ by build.py) and the arithmetic the page shows:
// strengths, combat odds, purge and assassination chances, Victory Point scores.  The engine
// on the server decides everything; these are only read-outs for the player.

export let D = null;

export async function loadData() {
  if (D) return D;
  const r = await fetch("data.json", { cache: "no-cache" });
  if (!r.ok) throw new Error(`data.json: HTTP ${r.status}`);
  D = await r.json();
  D.regionColour = Object.fromEntries(D.regions.map((r) => [r.name, r.colour]));
  return D;
}

export const SEAT_COLOURS = { A: "#6d3a8e", B: "#c0661a", C: "#17757c", D: "#7a6a12", E: "#b23a6e", F: "#3d4b5c" };
export const UNIT_COLOURS = { Red: "#a8231b", White: "#f4efe2", Blue: "#2c5897", Green: "#3d7a36", "": "#c9a227" };
export const UNIT_INK = { Red: "#fff6e8", White: "#2b2118", Blue: "#f2f5ff", Green: "#f3fbe9", "": "#2b2118" };

export const PHASES = [
  ["random_events", "Random Events"],
  ["movement", "Movement"],
  ["combat", "Combat"],
  ["randomizer", "Randomizer"],
];
export const PHASE_NAMES = { trading: "Pre-game trading", vote: "End-game vote", over: "Game over",
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
export function nationalityName(nat) {
  return D.blue_names[nat] || D.green_names[nat] || nat;
}

export function attachedTo(stack, uid) {
  const a = stack.attached || {};
  return a[String(uid)] ?? a[uid];
}

/** A unit's colour in a stack (004 [13.21], [13.26]): Imperial units take the controller's colour. */
export function colourOf(uid, stack) {
  const u = unit(uid);
  if (!u) return "";
  if (u.kind === "imperial") return stack ? stack.color || "" : "";
  if (u.color === "Green" && stack) {
    const lead = attachedTo(stack, uid);
    if (lead) return unit(lead).color;
  }
  return u.color;
}

export function fightingUnits(stack) {
  return stack.units.filter((u) => !isImperial(u));
}
/** 004 [8.28]: leaders, combat units attached to a leader, Blue/Green units. */
export function attackUnits(stack) {
  return stack.units.filter((x) => {
    const u = unit(x);
    if (!u || u.kind === "imperial") return false;
    return u.kind === "leader" || !!attachedTo(stack, x) || u.color === "Blue" || u.color === "Green";
  });
}
export function strength(units, doubledRed = false) {
  return units.reduce((t, x) => t + unit(x).strength * (doubledRed && unit(x).color === "Red" ? 2 : 1), 0);
}
export function stackStrength(stack) {
  return strength(fightingUnits(stack));
}
export function leadersOf(stack) {
  return stack.units.filter(isLeader);
}

export function opposed(a, b) {
  if (!a || !b || a === b) return false;
  if (a === "Red" || b === "Red") return true;
  return (a === "White" && b === "Green") || (a === "Green" && b === "White");
}

// -- combat (004 [8.0]) ------------------------------------------------------------------------------
export function oddsColumn(att, dfn) {
  if (dfn <= 0) return 6;
  if (att >= dfn) return Math.min(Math.floor(att / dfn), 6);
  return 2 * att >= dfn ? 0 : null;
}
export function oddsLabel(att, dfn) {
  const c = oddsColumn(att, dfn);
  return c === null ? "below 1:2" : D.tables.crt_columns[c];
}
/** The six results of one CRT column (die 1..6). */
export function crtColumn(col) {
  return D.tables.crt.map((row) => row[col]);
}
export function crtChances(col) {
  const out = { De: 0, Ex: 0, Ae: 0 };
  for (const r of crtColumn(col)) out[r] += 1;
  return out;
}

// -- politics (004 [10.0], [11.0]) ---------------------------------------------------------------------
export function leadership(view, seat) {
  let t = 0;
  for (const st of view.stacks) {
    if (st.owner !== seat) continue;
    for (const x of st.units) {
      const u = unit(x);
      if (u.kind === "leader" && u.color === "Red") t += u.strength;
    }
  }
  return t;
}
export function purgeStrength(view, purgers, counter = false) {
  return purgers.reduce((t, p) => t + leadership(view, p) + (view.politburo[p] || 0) * (counter ? 2 : 1), 0);
}
export function purgeColumn(strength) {
  const b = D.tables.purge_bounds;
  for (let i = 0; i < b.length; i++) if (b[i][1] === null || strength <= b[i][1]) return i;
  return b.length - 1;
}
const TWO_DICE = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]; // ways of rolling 2..12 out of 36
/** Outcomes of a purge at this strength: [{roll, result, ways}] and a summary. */
export function purgeOdds(strength) {
  const col = purgeColumn(strength);
  const rows = [];
  let c = 0;
  let pts = 0;
  let zero = 0;
  for (let roll = 2; roll <= 12; roll++) {
    const res = D.tables.purge[roll - 2][col];
    const ways = TWO_DICE[roll];
    rows.push({ roll, result: res, ways });
    if (res === "C") c += ways;
    else {
      pts += ways * Number(res);
      if (Number(res) === 0) zero += ways;
    }
  }
  return { column: D.tables.purge_columns[col], rows, counter: c / 36, expected: pts / 36, nothing: zero / 36 };
}
export function purgeableLeaders(view, victim) {
  const out = [];
  for (const st of view.stacks) {
    if (st.owner !== victim) continue;
    for (const x of st.units) {
      const u = unit(x);
      if (u.kind === "leader" && u.color === "Red") out.push(x);
    }
  }
  return out.sort((a, b) => a - b);
}
/** 004 [10.0]: success when d1 + d2 + (markers - 1) - value >= 7. */
export function assassinationChance(value, markers) {
  const need = D.tables.assassination_success - (markers - 1) + value;
  let ways = 0;
  for (let roll = 2; roll <= 12; roll++) if (roll >= need) ways += TWO_DICE[roll];
  return ways / 36;
}

// -- victory points (004 [14.4]) ----------------------------------------------------------------------
export function score(view, colour) {
  const pts = Object.fromEntries(view.seats.map((p) => [p, 0]));
  for (const p of view.seats) {
    for (const [uid, faceUp] of view.vp[p] || []) {
      const u = unit(uid);
      if (u.kind === "imperial") {
        if (colour === "White" && !faceUp) pts[p] += 5;
        else if (colour === "Red" && faceUp && uid === D.czar) pts[p] += 5;
        continue;
      }
      if (u.color === "Blue" && u.nationality === "CZ") {
        const ok = colour === "Red" ? faceUp : !faceUp;
        pts[p] += ok ? u.strength : 0;
        continue;
      }
      if (colour === "Red" && ["White", "Blue", "Green"].includes(u.color)) pts[p] += u.strength;
      if (colour === "White" && ["Red", "Green"].includes(u.color)) pts[p] += u.strength;
    }
    if (colour === "Red") pts[p] += 2 * (view.politburo[p] || 0);
  }
  for (const st of view.stacks) {
    if (!st.owner) continue;
    for (const uid of st.units) {
      const u = unit(uid);
      if (u.kind === "imperial") {
        if (colour === "White" || uid === D.gold) pts[st.owner] += 5;
      } else if (u.color === colour && u.color !== "Green") pts[st.owner] += u.strength;
    }
  }
  return pts;
}

export function pct(p) {
  return `${Math.round(p * 100)}%`;
}
