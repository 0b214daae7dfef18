// Results where the player looks: a combat, a purge, an assassination or an epidemic, as it
// happens, shows its dice and result in a toast over the map and flashes its province (the log
// keeps the full text).  Read from the engine's events of each live update; the texts are the
// engine's own.

import { uname, pname } from "./data.js";
import { RESULT_WORDS } from "./log.js";

const resultWords = (r) => (RESULT_WORDS[r] ? RESULT_WORDS[r][0].toUpperCase() + RESULT_WORDS[r].slice(1) : r);

/** What the seat's own roll or draw gave (QA: a player's Random Events roll and Randomizer draw
 *  were told only in the log, the page going straight on to the next phase; 004 [12.13]: the
 *  result is "immediately effected"): the engine's words of its random event (other than an
 *  epidemic, a result for all) and of the markers drawn, kept or redrawn. */
const RANDOMIZER = "the Auxiliary Forces Randomizer (004 [12.13])";
const OWN_DRAWS = { random_event: "the Random Events Table (004 [12.0])", drew: RANDOMIZER, withdrawal: RANDOMIZER,
  kept: RANDOMIZER, redraw: RANDOMIZER, redraw_offered: RANDOMIZER };

/** The results of one update frame: [{kind, title, detail, provinces, good}]; ``seat``: the
 *  page's seat, whose own draws are results too. */
export function resultsOf(frame, seat = null) {
  const out = [];
  for (const e of frame.events || []) {
    const d = e.data || {};
    // (an event naming no seat, e.g. the war in the West ending, is no one's draw)
    const whose = "seat" in d ? d.seat : frame.actor;
    if (seat && OWN_DRAWS[e.kind] && whose === seat && !(e.kind === "random_event" && d.result === "epidemic")) {
      out.push({ kind: "draw", title: e.text, detail: OWN_DRAWS[e.kind], provinces: d.provinces || [] });
      continue;
    }
    if (e.kind === "combat") {
      // (a Subversive Attack short of De does nothing, 004 [8.33]: the engine's no_effect event says
      // so; QA read "Exchange in LIVO" over a log saying "no effect")
      const none = (frame.events || []).some((x) => x.kind === "no_effect");
      out.push({ kind: "combat", title: none ? `No effect in ${d.province}` : `${resultWords(d.result)} in ${d.province}`,
        detail: `${d.seat} attacks at ${d.odds}${d.subversive ? " (subversive)" : ""}: die ${d.die} on the Combat Results Table → ${d.result}`, provinces: [d.province] });
    } else if (e.kind === "purge" || e.kind === "counterpurge") {
      const roll = (d.dice || []).reduce((a, b) => a + b, 0);
      const what = d.result === "C" ? "Counterpurge!" : `${d.result} point${d.result === "1" ? "" : "s"}`;
      out.push({ kind: e.kind, title: `${d.counter ? "Counterpurge" : "Purge"} of ${d.target} by ${(d.purgers || []).join("+")}: ${what}`,
        detail: `strength ${d.strength}, column ${d.column}, roll ${(d.dice || []).join("+")} = ${roll}`, provinces: [] });
    } else if (e.kind === "assassination") {
      out.push({ kind: "assassination", title: `Assassins ${d.success ? "kill" : "miss"} ${uname(d.victim)}`,
        // the engine's terms (004 [10.0]): the dice, +1 for each marker beyond the first, less the victim's value
        detail: `${d.seat}: roll ${(d.dice || []).join("+")}` + (d.value === undefined ? "" : `${d.extra ? ` +${d.extra} (markers)` : ""} − ${d.value} (${uname(d.victim)}'s value)`)
          + ` = ${d.total}${d.need === undefined ? "" : `, ${d.need} or more needed`}${d.success ? "" : ": the markers pass on"}`,
        provinces: d.province ? [d.province] : [] });
    } else if (e.kind === "random_event" && d.result === "epidemic") {
      out.push({ kind: "epidemic", title: `Epidemic in ${(d.provinces || []).map(pname).join(", ")}`, detail: `rolled ${(d.roll || []).join("-")}`,
        provinces: d.provinces || [] });
    }
  }
  return out;
}
