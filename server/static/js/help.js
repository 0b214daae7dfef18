// The rules in brief: what a newcomer needs to start (QA: no help anywhere for a first-time
// player).  Words from the rulebook, each with its case; who opposes whom is the engine's
// (data.json `opposes`, Game.hostile).  The rulebook itself is 004; the page cites its cases.

import { h, modal } from "./util.js";
import { D } from "./data.js";

const COLOURS = ["Red", "White", "Blue", "Green", "Anarchist"];

/** Who opposes whom, as the engine says (004 [8.11]-[8.15]; Anarchists: 001). */
function opposesTable() {
  const opp = D.opposes || {};
  const shown = COLOURS.filter((c) => opp[c]);
  return h("table.brief-opposes",
    h("thead", h("tr", h("th", { scope: "col" }, "units of"), h("th", { scope: "col" }, "oppose (may attack)"))),
    h("tbody", shown.map((c) => h("tr", h("th", { scope: "row" }, h("span.unit-dot", { dataset: { color: c } }), ` ${c}`,
      c === "Anarchist" ? h("span.small", " (001's optional rule)") : null),
    h("td", (opp[c] || []).join(", ") || "nobody")))));
}

const SECTION = (title, ...body) => h("section.brief", h("h3", title), ...body);

/** The multi-player game in brief. */
function multiPlayer() {
  return [
    SECTION("How to win",
      h("p", "Before anyone can win, a side must: the game ends at the end of a Game-Turn in a White Victory when no Red leader is left on the map outside Siberia, in a Red Victory when no White combat unit is, or by the Politburo's vote when no White leader is (004 [14.1]). Then the player with the most Victory Points of the winning colour wins; the other colour's points count for nothing (004 [14.0]). You score for the units in your section of the Victory Point Chart (those you eliminated), for the units of the winning colour you control on the map at the end, and, in a Red Victory, 2 for each Politburo marker (004 [14.4]) — so you may hold Red and White leaders at once and change sides as the war turns.")),
    SECTION("A Game-Turn",
      h("p", "Each player in turn plays a Player-Turn: Random Events (one die rolled twice, 004 [12.0]), Movement (one force at a time; by rail for Red and White forces with a leader, 004 [5.5]), Combat (declare, add attackers, resolve on the Combat Results Table, 004 [8.0]) and a draw from the Randomizer (004 [12.13]). The turn order is drawn anew every Game-Turn (004 [4.2]); replacements come back between Game-Turns (004 [9.0]).")),
    SECTION("Colours", h("p", "Combat units belong to a colour, whoever controls them; a force stops on entering a province held by units of any other colour (004 [5.27]), opposed or not."), opposesTable()),
    SECTION("Politics",
      h("p", "Politburo markers (☭) make the Central Committee: players who consent to each other and hold at least 8 markers (004 [11.11]). Its members may purge another player's Red leaders and markers (004 [11.0]); a member cannot be purged (004 [11.14]); the victim may counterpurge. Assassin markers (†) send assassins after an enemy leader in a province where you have one (004 [10.0]). Trades of markers are open at any time, of leaders only before the game (004 [15.33]); pacts made in chat bind no one but are announced when broken.")),
    SECTION("The players' strip",
      h("ul", h("li", "☭ Politburo markers · † Assassin markers · ▤ units in the player's section of the Victory Point Chart · CC a member of the Central Committee"),
        h("li", "FR, BR, US, JA, CZ: Blue control markers; BA, BY, UK, TC, SB, FN, PO: Green ones — their holder moves those units (004 [5.61], [5.71])"))),
    SECTION("Help on the page",
      h("p", "The Orders panel lists only what the rules allow now, with the case that allows it; the Key (on the map) explains the counters; the Log tells everything that happened, with the dice.")),
  ];
}

/** The SPI solitaire in brief (004 [18.0]-[28.0]). */
function solitaire() {
  return [
    SECTION("The SPI solitaire",
      h("p", "You play Red; the game plays the other side, Player N (White, Blue and Green), by fixed procedures (004 [20.0]-[23.0]). N answers no proposal: there is no negotiation (004 [18.0])."),
      h("p", "Red wins by eliminating every non-Red unit from the provinces of Greater Russia, White Russia, Ukraine and Cossack (004 [28.11]): a Decisive Victory by Game-Turn 5, Substantive on 6, Marginal on 7 (004 [28.12]). N wins at once with a non-Red unit in Petrograd or Tver at the end of a Game-Turn (004 [28.13]); anything else is a Draw after Game-Turn 7 (004 [28.15]). The Orders panel says what each step allows.")),
    SECTION("Colours", opposesTable()),
  ];
}

/** Open the rules in brief (``solo``: the SPI solitaire's). */
export function openRulesInBrief(solo = false) {
  return modal("Rules in brief", h("div.rules-brief", ...(solo ? solitaire() : multiPlayer())), [{ label: "Close" }], { cls: "wide" });
}
