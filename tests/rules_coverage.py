"""Rule-case coverage of the multi-player rules, 004 [1.0]-[16.0], of the postal rules, 004
[17.0], and of the optional rules and variants that are game options (:data:`OPTIONAL_CASES`),
by the tests.

Every case of those sections is listed in :data:`CASES`.  A case either states something the
engine must do - then at least one test function must cite it (``004 [5.24]`` in its name's
``test_5_24_`` form, its docstring, a comment or a string inside it, or the comment lines right above it) - or it is listed in
:data:`REASONS` with a one-line reason it needs no test (a heading, a definition, a
physical-component note, a cross-reference).  ``tests/test_rules_coverage.py`` fails when a
case is neither, and (when the rulebook is at hand) when the rulebook's list of cases and
:data:`CASES` differ.

The optional rules have no case numbers: each paragraph is a case named by its document and
heading (``001 Anarchists: Roving Attack``), cited by a test that names it (the longest name
found at a place counts: ``001 Anarchists: Makhno`` cites that case, not ``001 Anarchists``), or
listed in :data:`OPTIONAL_REASONS`.

    python tests/rules_coverage.py            # print the summary and the uncovered cases
    python tests/rules_coverage.py --write    # regenerate docs/rules-coverage.md

The postal game's rule changes, 004 [17.0] (its general rule and procedure, then "RULES CHANGES
BY SECTION", numbered like the standard rules), are listed apart in :data:`POSTAL_CASES`: a test
cites one as ``004 [17.0] postal [8.0]`` (or by its name, ``test_postal_8_0_...``); the general
rule as ``004 [17.0]`` alone.

Not a test module (pytest collects ``test_*.py`` only).
"""

from __future__ import annotations

import ast
import os
import re
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DOC = REPO / "docs" / "rules-coverage.md"
RULEBOOK = "004_8c1b9ecc5e5ea495.txt"

# (case, its opening words).  The rulebook prints case 11.11 as a second "[11.1]" and the
# heading 3.3 without brackets; both are listed under their real numbers.
CASES: list[tuple[str, str]] = [
    ("1.0", 'INTRODUCTION'),
    ("2.0", 'GENERAL COURSE OF PLAY'),
    ("3.0", 'GAME EQUIPMENT'),
    ("3.1", 'THE GAME MAP'),
    ("3.2", 'THE PLAYING PIECES'),
    ("3.21", 'Sample Units'),
    ("3.22", 'Summary of Unit Types'),
    ("3.23", 'Definition of Basic Terms'),
    ("3.3", 'GAME CHARTS AND TABLES'),
    ("3.4", 'GAME PARTS INVENTORY'),
    ("4.0", 'SEQUENCE OF PLAY'),
    ("4.1", 'THE GAME-TURN'),
    ("4.2", 'GAME-TURN SEQUENCE OUTLINE'),
    ("5.0", 'MOVEMENT'),
    ("5.1", 'HOW TO MOVE UNITS'),
    ("5.11", "During the Movement Phase, only the Phasing Player's units"),
    ("5.12", 'Movement is calculated in terms of Movement Points. A'),
    ("5.13", 'A Leader may attach and/or detach any eligible combat'),
    ("5.14", 'The maximum number of combat units which a Leader'),
    ("5.2", 'MOVEMENT INHIBITIONS AND PROHIBITIONS'),
    ("5.21", 'Movement may never take place out of sequence. A'),
    ("5.22", 'Red and White combat units may only be moved'),
    ("5.23", 'One Movement Point must be expended from the Movement'),
    ("5.24", 'All movement must be executed from one province to'),
    ("5.25", 'Any unit which moved as part of a stack'),
    ("5.26", 'A combat unit attached to (stacked under) a given'),
    ("5.27", 'A unit (or force) may freely enter or exit'),
    ("5.28", 'A unit may never expend more Movement Points than'),
    ("5.3", 'TERRAIN EFFECTS ON MOVEMENT'),
    ("5.31", 'Units are prohibited from entering Sea or Lake areas'),
    ("5.32", 'White units (only) are permited to move directly from'),
    ("5.33", 'Units are prohibited from moving directly from Petrograd to'),
    ("5.34", 'Combat and Leader units may never be voluntarily moved'),
    ("5.35", 'The movement of certain Blue and Green units is'),
    ("5.36", 'There are special rules governing the movement of units'),
    ("5.37", 'The Cities printed on the map have no effect'),
    ("5.4", 'STACKING EFFECTS ON MOVEMENT'),
    ("5.41", 'Stacking or unstacking units in the same province is'),
    ("5.42", 'A force may not end a Movement Phase in'),
    ("5.5", 'RAIL MOVEMENT'),
    ("5.51", 'Only Red and White units may use Rail Movement.'),
    ("5.52", 'A Red or White force (or Leader) which begins'),
    ("5.53", 'Rail Movement is executed during the regular Movement Phase.'),
    ("5.54", 'The ability of a Leader to attach, transport and/or'),
    ("5.55", 'Although Rail Movement does not require the expenditure of'),
    ("5.6", 'HOW TO MOVE BLUE'),
    ("5.61", 'There are five Blue Control Markers in the Auxiliary'),
    ("5.62", 'The Blue units that lack a corresponding Control Marker,'),
    ("5.63", 'Any Blue unit which may be moved possesses a'),
    ("5.64", 'Blue units may not use Rail Movement.'),
    ("5.65", 'Czechoslovakian and Japanese units may never enter a…'),
    ("5.66", 'Czechoslovakian units may exit the map for Victory Point'),
    ("5.67", 'There are five Blue Withdrawal Markers in the Auxiliary'),
    ("5.7", 'HOW TO MOVE GREEN'),
    ("5.71", 'Each distinct nationalist force is represented by a Green'),
    ("5.72", 'All Green combat units have a Movement Allowance of'),
    ("5.73", 'Green units may not use Rail Movement.'),
    ("5.74", 'Green units may never enter a province outside of'),
    ("5.75", 'Finnish units may only enter the following provinces:…'),
    ("5.76", 'Polish units may enter any province in any of'),
    ("6.0", 'ZONES OF CONTROL'),
    ("7.0", 'STACKING'),
    ("7.1", 'STACKING LIMITATIONS AND PROHIBITIONS'),
    ("7.11", 'A single stack may contain a maximum of five'),
    ("7.12", 'Units controlled by different Players may never be stacked'),
    ("7.13", 'Different colored units may never be stacked together…'),
    ("7.14", 'Blue (or Green) units of different nationalities may never'),
    ("7.15", 'There is no limit to the number of stacks'),
    ("7.16", 'Units which are not controlled by any Player remain'),
    ("7.2", 'STACKING POSITION AND UNIT TYPES'),
    ("7.21", 'When a combat (or Imperial) unit is attached to'),
    ("7.22", 'The Leadership Value of a given Leader indicates the'),
    ("7.23", 'The counter mix provides six distinct sets of Player'),
    ("7.3", 'EFFECT ON COMBAT'),
    ("7.31", 'The attacker must attack all of the units in'),
    ("7.32", 'The units in an attacking stack must participate in'),
    ("7.33", 'The units in two or more stacks may combine'),
    ("7.34", 'Separate stacks may not be combined in defense. Each'),
    ("8.0", 'COMBAT'),
    ("8.1", 'DEFINITION OF OPPOSING FORCES'),
    ("8.11", 'Units are opposed to one another strictly on a'),
    ("8.12", 'Red units oppose all non-Red units.'),
    ("8.13", 'White units oppose Red and Green units (only).'),
    ("8.14", 'Green units oppose Red and White units (only).'),
    ("8.15", 'Blue units oppose only Red units.'),
    ("8.2", 'WHICH UNITS MAY ATTACK'),
    ("8.21", 'During a Combat Phase, only units which are controlled'),
    ("8.22", 'Units may only attack opposing (Enemy) units. Friendly units'),
    ("8.23", 'Only units which occupy the same province as an'),
    ("8.24", "Attacking is completely voluntary; the Phasing Player's…"),
    ("8.25", 'No unit may attack or be attacked more than'),
    ("8.26", 'For Combat purposes, a Leader has a Combat Strength'),
    ("8.27", "A unit's Combat Strength is indivisible; it may not"),
    ("8.28", 'Red and White combat units may only participate in'),
    ("8.29", 'The Phasing Player may freely examine the counters of'),
    ("8.3", 'SUBVERSIVE ATTACK'),
    ("8.31", 'A Subversive Attack may only be made by Red'),
    ("8.32", 'Red units in different provinces may combine their Combat'),
    ("8.33", 'Subversive Attacks are resolved according to the normal…'),
    ("8.4", 'EXPLANATION OF COMBAT RESULTS'),
    ("8.41", '"Ae" = Attacker Eliminated: All attacking units which…'),
    ("8.42", '"De" = Defender Eliminated: All defending units involved in'),
    ("8.43", '"Ex" = Exchange of Losses: The total Attack Strength'),
    ("8.44", 'Units eliminated in combat are removed from the map'),
    ("8.45", 'Defending units eliminated in combat are removed from the'),
    ("8.46", 'Attacking units eliminated in combat against a unit (or'),
    ("8.47", 'No attack may be made at less than 1:2'),
    ("8.48", 'An attack made at greater than 6:1 odds is'),
    ("8.5", 'COMBAT RESULTS TABLE'),
    ("9.0", 'REPLACEMENT OF COMBAT UNITS'),
    ("9.1", 'WHICH UNITS MAY BE REPLACED'),
    ("9.11", 'Only Red, White and Green combat units may be'),
    ("9.12", 'During the Replacement Phase of each Game-Turn, Players…'),
    ("9.13", 'Red combat units may never be replaced during a'),
    ("9.14", 'No Red combat units may be replaced during the'),
    ("9.15", 'Combat units of a given color (either Red or'),
    ("9.16", 'No units may be replaced after the Fifth Game-Turn.'),
    ("9.17", 'During the Replacement Phase, all replacements are…'),
    ("9.18", 'A given combat unit may be replaced each and'),
    ("10.0", 'ASSASSINATION'),
    ("10.1", 'ASSASSINATION LIMITATIONS AND PROHIBITIONS'),
    ("10.11", 'A Player may only attempt an assassination during his'),
    ("10.12", 'A Player must control at least one Assassin Marker'),
    ("10.13", 'The Leader whose assassination is attempted, must occupy a'),
    ("10.14", 'The color of Leader units involved in an assassination'),
    ("10.15", 'A Player may attempt to assassinate a Leader which'),
    ("10.16", 'An unlimited number of Assassin Markers may be employed'),
    ("10.17", 'An unlimited number of assassination attempts may be made'),
    ("10.2", 'EFFECT OF ASSASSINATION'),
    ("10.21", 'A Leader who is the victim of a successful'),
    ("10.22", 'All Assassin Markers employed in a successful…'),
    ("10.23", 'All Assassin Markers employed in an unsuccessful…'),
    ("11.0", 'PURGE'),
    ("11.1", 'CONSTITUTION OF THE CENTRAL COMMITTEE'),
    ("11.11", 'Any individual, or group of Players, who collectively…'),
    ("11.12", 'The only effective course of action by which an'),
    ("11.13", 'The Central Committee may be reformed according to the'),
    ("11.14", 'A Player may never be Purged while he is'),
    ("11.2", 'EXPLANATION OF PURGE RESULTS'),
    ("11.21", 'Number result: The Purging Player(s) may immediately…'),
    ("11.22", 'Instead of taking control of a Red Leader, a'),
    ("11.23", 'When the Central Committee Purges as a group, it'),
    ("11.24", '"C" result (Counterpurge): The Player being Purged (or…'),
    ("11.25", 'Once a Counterpurge begins, a maximum of two Players'),
    ("11.26", 'A Purge may result in any number of Counterpurges,'),
    ("11.27", 'Any result gained in a Counterpurge is exempt from'),
    ("11.3", 'SPECIAL POLITBURO AND PURGE RESTRICTIONS'),
    ("11.31", 'Only Red Leaders on the map and Politburo Markers'),
    ("11.32", 'If either Lenin (I.D.#151) or Trotsky (I.D.#152) is…'),
    ("11.4", 'PURGE TABLE (See the map.)'),
    ("12.0", 'RANDOM EVENTS'),
    ("12.1", 'EXPLANATION OF RANDOM EVENTS TABLE RESULTS'),
    ("12.11", 'Epidemic: An Epidemic result indicates one or more provinces'),
    ("12.12", 'Subversive Attacks Doubled. During the Combat Phase of the'),
    ("12.13", 'Draw from the Randomizer. The Phasing Player must…'),
    ("12.2", 'RANDOM EVENTS TABLE (See the map.)'),
    ("13.0", 'IMPERIAL UNITS'),
    ("13.1", 'HOW TO MOVE THE IMPERIAL UNITS'),
    ("13.11", 'Neither the Czar nor the Gold has any intrinsic'),
    ("13.12", 'Regardless of color, any force which possesses a Movement'),
    ("13.13", 'The Player whose Player Control Marker is stacked above'),
    ("13.14", 'During his Movement Phase, the Phasing Player may attach'),
    ("13.15", 'If the Phasing Player controls an Imperial unit, he'),
    ("13.2", 'CONTROLLING IMPERIAL UNITS'),
    ("13.21", 'The Leader stacked directly above an Imperial unit is'),
    ("13.22", 'A White Leader which controls the Czar may attach'),
    ("13.23", 'A White force which controls the Czar may freely'),
    ("13.24", 'A non-White Leader or force derives no special benefit'),
    ("13.25", 'A Red or White Leader which controls the Gold'),
    ("13.26", 'If a Leader which controls the Gold attaches any'),
    ("13.27", 'A Finnish or Polish unit may never be attached'),
    ("13.28", 'A Blue or Green force derives no special benefit'),
    ("13.29", 'At the instant a Leader loses control of an'),
    ("13.3", 'EMIGRATION OF IMPERIAL UNITS'),
    ("13.31", 'During his Movement Phase, the Player who controls an'),
    ("13.32", 'An Imperial unit may only be removed for Victory'),
    ("13.33", 'There is no Movement Point cost to remove an'),
    ("13.34", 'Once an Imperial unit is removed from the map,'),
    ("13.4", 'HOW IMPERIAL UNITS ARE CAPTURED'),
    ("13.41", 'If all of the combat and/or Leader units stacked'),
    ("13.42", 'An Imperial unit may never be stacked alone with'),
    ("13.5", 'EXECUTION OF THE CZAR'),
    ("13.51", 'The Czar may never be eliminated by combat, epidemic'),
    ("13.52", "To order the Czar's execution, the Central Committee must"),
    ("13.53", "The Central Committee may order the Czar's execution at"),
    ("13.54", 'The Player who controls the Czar at the instant'),
    ("13.55", 'If the Player who controls the Czar complies with'),
    ("13.56", 'Once "executed," the Czar is permanently out of the'),
    ("13.57", 'The Central Committee may issue an execution order whenever'),
    ("14.0", 'VICTORY CONDITIONS'),
    ("14.1", 'HOW THE GAME IS ENDED'),
    ("14.2", 'PLAYER PARTICIPATION'),
    ("14.21", 'A Player who wishes to leave the game may'),
    ("14.22", 'When a Player quits before the completion of the'),
    ("14.23", 'When a Player quits the game, all Politburo, Assassin'),
    ("14.24", 'When a Player leaves the game before its completion,'),
    ("14.3", 'TURN RECORD TRACK'),
    ("14.4", 'VICTORY POINTS SCHEDULE'),
    ("14.41", 'Red Victory Points are awarded to each Player for'),
    ("14.42", 'Red Victory Points are awarded to each Player for'),
    ("14.43", 'White Victory Points are awarded to each Player for'),
    ("14.44", 'White Victory Points are awarded to each Player for'),
    ("14.45", 'When a Czechoslovakian (Blue) combat unit is voluntarily…'),
    ("14.46", 'When an Imperial unit is voluntarily removed from the'),
    ("14.47", 'No Victory Points are awarded for any unit except'),
    ("14.5", 'VICTORY POINTS CHART'),
    ("15.0", 'HOW TO SET UP AND PLAY THE GAME'),
    ("15.1", 'SETTING UP THE GAME EQUIPMENT'),
    ("15.11", 'Place the map on a large, smooth table and'),
    ("15.12", 'Place the game box, with the counters sorted by'),
    ("15.13", 'Provide two wide-mouthed, opaque containers (such as…'),
    ("15.2", 'PREPARATION OF THE RANDOMIZERS'),
    ("15.21", 'One Player Control Marker bearing a unique alphabetical code'),
    ("15.22", 'The Initial Forces Randomizer is prepared for play by'),
    ("15.23", 'After all of the units in the Initial Forces'),
    ("15.3", 'DISTRIBUTION OF INITIAL FORCES'),
    ("15.31", 'After the Initial Forces Randomizer is prepared, Player A'),
    ("15.32", 'Thirteen of the fifteen available Politburo Markers are…'),
    ("15.33", 'Players are now permitted to trade any of the'),
    ("15.34", 'At the conclusion of the trading session, each Player'),
    ("15.4", 'INITIAL DEPLOYMENT OF COMBAT UNITS'),
    ("15.41", 'Immediately after the trading session, all of the Red,'),
    ("15.42", 'Blue (or Green) combat units of the same nationality,'),
    ("15.43", 'The Stacking Rules (Section 7.0) must be observed in'),
    ("15.5", 'INITIAL DEPLOYMENT OF LEADER UNITS'),
    ("15.51", 'After all of the combat units are deployed, the'),
    ("15.52", 'Like combat units, Leader units are coded to indicate'),
    ("15.53", 'Leaders controlled by different Players may never be stacked'),
    ("15.54", 'Leaders controlled by a single Player may be stacked'),
    ("15.55", 'The Stacking Rules (Section 7.0) are in full effect'),
    ("15.56", 'In order to avoid confusion it is suggested that'),
    ("15.6", 'SPECIAL FIRST GAME-TURN MECHANICS'),
    ("15.61", 'After the Initial Forces distribution and deployment,…'),
    ("15.62", 'The game begins with an initial Player-Turn Sequencing…'),
    ("16.0", 'SUMMARY OF RULES (See page 18.)'),
]

# 004 [17.0] Postal Russian Civil War: the general rule and procedure ("17.0"), then the rule
# changes, numbered as the standard rules' sections they change.
POSTAL_CASES: list[tuple[str, str]] = [
    ("17.0", "POSTAL RUSSIAN CIVIL WAR (General Rule, Procedure)"),
    ("4.2", "SEQUENCE OF PLAY"),
    ("5.0", "MOVEMENT"),
    ("8.0", "COMBAT"),
    ("10.0", "ASSASSINATION"),
    ("11.0", "PURGE"),
    ("12.0", "RANDOM EVENTS TABLE"),
    ("13.26", "Attaching Green Units with Gold"),
    ("13.5", "EXECUTION OF THE CZAR"),
    ("15.0", "INITIAL SET-UP"),
]

HEADING = "section heading: its cases are listed (and tested) one by one"
TABLE = "a printed table (see the map): its data are data/tables.toml, its use is tested under the case that uses it"
PHYSICAL = "physical equipment and table-top housekeeping; nothing for the engine to enforce"
REASONS: dict[str, str] = {
    "1.0": "introduction: no rule",
    "3.0": HEADING,
    "3.1": "the printed map: reconstructed as data/map.toml (checked by tests/test_data.py); its rules are [5.3]",
    "3.2": "the counters: data/counters.toml (checked by tests/test_data.py)",
    "3.21": "pictures of sample counters",
    "3.22": "pictures summarising the counter types",
    "3.23": "definitions of terms; each term's rule is a case of its own ([8.26], [11.0], [12.0], [15.13])",
    "3.3": TABLE,
    "3.4": "the parts inventory of the boxed game",
    "4.0": HEADING + " ([4.1], [4.2])",
    "5.1": HEADING,
    "5.2": HEADING,
    "5.3": HEADING,
    "5.35": "cross-reference to [5.6] and [5.7], whose cases are tested",
    "5.36": "cross-reference to [5.5], whose cases are tested",
    "5.4": HEADING,
    "5.5": HEADING,
    "7.1": HEADING,
    "7.2": HEADING,
    "7.3": HEADING,
    "8.1": HEADING,
    "8.2": HEADING,
    "8.4": HEADING,
    "8.5": TABLE,
    "9.1": HEADING,
    "10.1": HEADING,
    "10.2": HEADING,
    "11.1": HEADING + " (the misprinted second \"[11.1]\" is case [11.11])",
    "11.2": HEADING,
    "11.3": HEADING,
    "11.4": TABLE,
    "12.1": HEADING,
    "12.2": TABLE,
    "13.1": HEADING,
    "13.2": HEADING,
    "13.3": HEADING,
    "13.4": HEADING,
    "13.5": HEADING,
    "14.2": HEADING,
    "14.5": "the printed Victory Point Chart: its sections are State.vp, filled by the cases of [8.45], [10.21], [14.4]",
    "15.1": HEADING,
    "15.11": PHYSICAL,
    "15.12": PHYSICAL,
    "15.13": PHYSICAL + " (the two cups are State.order's draw and State.aux, tested under [15.2], [15.62])",
    "15.2": HEADING,
    "15.3": HEADING,
    "15.34": "where the markers lie on the table; the engine keeps each player's counts (State.politburo, "
             "State.assassins), shown in every view",
    "15.4": HEADING,
    "15.5": HEADING,
    "15.56": "a suggestion about control markers on the table; the engine's stacks carry their owner ([7.23])",
    "15.6": HEADING,
    "16.0": "pointer to the printed summary page",
}


# -- the optional rules and variants that are game options (rcw/options.py) -----------------------------
# (id, its opening words).  An id is the document, then the paragraph's heading as printed
# ("001 Anarchists: Roving Attack", "001 No Leader Suicide 2 D", "004 Masses [13.51]").  A test
# cites one when its text (quotes aside, lines joined) names it: the longest id found at a place
# is the one cited, and never one followed by more of a longer id ("001 No Leader Suicide 2" is
# not "... 2 A").
OPTIONAL_CASES: list[tuple[str, str]] = [
    # 001, "Optional Forces" (the options anarchists, freikorps, shock_armies)
    ("001 Optional Forces", "Optional Forces"),
    ("001 Anarchists", "Neither the Ukrainian Nestor Makhno nor other Anarchists are represented"),
    ("001 Anarchists: Makhno", "Strength 6 combat unit."),
    ("001 Anarchists: Other Anarchist Units", "2x strength 3 units that begin the game in the Auxiliary Forces Randomizer"),
    ("001 Anarchists: Anarchist Control Marker", "This is the Anarchist Control Marker to be placed in the"),
    ("001 Anarchists: Moving Anarchist Units", "The Movement Allowance of all Anarchist units is 4."),
    ("001 Anarchists: 1", "Any Anarchist unit present in a province through which a Rail line passes"),
    ("001 Anarchists: 2", "Any Anarchist unit present in a Port province will prevent Emigration"),
    ("001 Anarchists: 3", "Anarchist units may never be stacked with other units."),
    ("001 Anarchists: 4", "The presence of any units (including Anarchists) in a province never interferes"),
    ("001 Anarchists: Roving Attack", "At the end of any Game Turn, following the Replacement Segment"),
    ("001 Anarchists: Elimination", "Whenever Anarchist units are eliminated, the procedure"),
    ("001 Anarchists: Tenacity", "Anarchist units are immune to Epidemics and Subversive attacks."),
    ("001 Anarchists: Anarchy versus Order", "No victory is possible while any Anarchist unit is present"),
    ("001 Freikorps", "Volunteers from Germany, mainly veterans disenchanted with civilian life"),
    ("001 Freikorps: Control and Out Markers", "The Freikorps Control Marker and the Freikorp Out Marker"),
    ("001 Freikorps: Subversion", "All Subversion attacks against the Freikorp are -1 to die"),
    ("001 Shock Armies", "2 red and 1 white Shock Army combat units (all 8 strength)"),
    # 001, "OPTIONAL RULES" (the option additional_draws)
    ("001 Optional Rules", "OPTIONAL RULES"),
    ("001 Additional Randomizer Draws", "If any Russian province containing a city is occupied solely"),
    ("001 No Leader Suicide", "(recommended) In order to prevent players sending Leaders to an easy death"),
    ("001 No Leader Suicide 1", "Leaders without combat units may never initiate regular Combat"),
    ("001 No Leader Suicide 2", "A Leader who is not stacked with at least one combat-capable"),
    ("001 No Leader Suicide 2 A", "A friendly unit with which the Leader may legally stack is present"),
    ("001 No Leader Suicide 2 B", "All differently colored units present are under that player's control"),
    ("001 No Leader Suicide 2 C", "All differently colored units present are other Leaders"),
    ("001 No Leader Suicide 2 D", "Unattached units of the appropriate color are present"),
    ("001 No Leader Suicide 3", "Whenever possible, a Leader alone must be moved to and stacked with"),
    ("001 Reduced Red and White leader movement", "Leaders move 2 + Leadership rating hexes per turn"),
    ("001 Start of Turn", "Pick a random player out of the cup to go first ... Or for less predictable turn order"),
    ("004 Masses", "There are about 200 conflict simulations on the market"),
    ("004 Masses [8.3]", "SUBVERSIVE ATTACK. This section can be made optional or deleted."),
    ("004 Masses [12.12]", "Subversive Attacks Doubled. Ignore this result."),
    ("004 Masses [13.0]", "IMPERIAL UNITS This whole section can also be deleted or declared optional."),
    ("004 Masses [11.0]", "PURGE All the Politburo and Purge rules should be deleted."),
    ("004 Masses [13.5]", "EXECUTION OF THE TSAR"),
    ("004 Masses [13.51]", "The Tsar may never be eliminated by combat, epidemic or assassination."),
    ("004 Masses [13.52]", "The Tsar may be executed at any time he is controlled by a Red Leader"),
    ("004 Masses [13.53]", "When the Tsar is executed, the Victory Points"),
    ("004 Masses [13.54]", "To execute the Tsar, the controlling player simply moves the Tsar marker"),
    ("004 Masses [15.22]", "The Initial Forces Randomizer is prepared for play by Player A who places a total of 52"),
    ("004 Masses [15.32]", "Rule [15.32] is deleted."),
    ("004 Masses, closing", "By deleting the above rules, you can remove a lot of 'dirt'"),
    ("004 critique CITIES", "Regional capitals were of primary importance in the war"),
    ("004 critique THE MAP", "While I recognize that one man's reference sources"),
    ("004 critique LEADERS", "There are some major omissions from the counter mix"),
    ("004 critique ASSASSINS", "Failed assassination attempts on Lenin or Trotsky should allow them"),
    ("004 critique EPIDEMICS", "Historically, leaders were not immune from epidemic."),
    ("004 critique EVACUATION", "White armies historically evacuated Russia on two occasions."),
    ("004 critique CZECHS", "The initial set-up omits the Czech forces at Penza and Samara."),
    ("004 critique GERMAN WITHDRAWAL", "The end of World War I was not a 'random event.'"),
    ("004 critique NATIONALISTS", "It is unrealistic for different nationalist groups to ignore each other."),
    ("004 critique OVERALL SIMULATION", "In the end, the game breaks down as a simulation"),
]
NOT_AN_OPTION = "a criticism with no rule proposed; not an option of issue 14 (docs/variants.md)"
OPTIONAL_REASONS: dict[str, str] = {
    "001 Optional Forces": "section heading: its forces are listed (and tested) one by one",
    "001 Optional Rules": "section heading: its rules are listed (and tested) one by one",
    "001 No Leader Suicide": "the rule's purpose; its prohibitions are 1 to 3",
    "004 Masses": "the article's argument for the variant: no rule",
    "004 Masses [13.5]": HEADING + " ([13.51]-[13.54])",
    "004 Masses, closing": "the article's conclusion: no rule",
    "004 critique CITIES": "a defence bonus for capitals, with no numbers; not an option of issue 14 (the map's cities "
                           "come with 001 Additional Randomizer Draws)",
    "004 critique THE MAP": "province names and ports on the printed map; the map is data/map.toml",
    "004 critique LEADERS": "omissions from the counter mix (Alekseev, Kornilov, Mamontov, Pilsudski ...); no rule",
    "004 critique NATIONALISTS": NOT_AN_OPTION,
    "004 critique OVERALL SIMULATION": "the critic's verdict on the game: no rule",
}


# -- the rulebook ---------------------------------------------------------------------------------
def find_rulebook() -> Path | None:
    """The 004 rulebook, if it is at hand: ``$RCW_RULEBOOK``, or ``seeds/`` beside the repo."""
    env = os.environ.get("RCW_RULEBOOK")
    cands = [Path(env)] if env else []
    cands += [REPO.parent / "shared" / "seeds" / RULEBOOK, REPO.parent / "seeds" / RULEBOOK,
              Path("/work/shared/seeds") / RULEBOOK]
    return next((p for p in cands if p.is_file()), None)


def rulebook_cases(path: Path) -> list[str]:
    """Case numbers of 004 [1.0]-[16.0] in the order printed (the multi-player rules run from
    the first "[1.0] INTRODUCTION" to "[17.0] POSTAL")."""
    text = path.read_text(encoding="utf-8", errors="replace")
    start = text.index("[1.0] INTRODUCTION")
    end = text.index("[17.0] POSTAL", start)
    out: list[str] = []
    for line in text[start:end].splitlines():
        for m in re.finditer(r"(?:^|\[)(\d{1,2}\.\d{1,2})\]", line):
            c = m.group(1)
            if c in out:
                if c != "11.1":
                    continue
                c = "11.11"                 # "[11.1] Any individual, or group of Players ..."
            out.append(c)
        if line.startswith("3.3 GAME CHARTS AND TABLES") and "3.3" not in out:
            out.append("3.3")
    return out


def rulebook_postal_cases(path: Path) -> list[str]:
    """The postal rule changes of 004 [17.0] in the order printed (between "RULES CHANGES BY
    SECTION" and the Players' Notes), after the general rule ("17.0")."""
    text = path.read_text(encoding="utf-8", errors="replace")
    start = text.index("RULES CHANGES BY SECTION")
    end = text.index("PLAYERS' NOTES, POSTAL GAME", start)
    return ["17.0"] + re.findall(r"^\[(\d{1,2}\.\d{1,2})\]", text[start:end], re.M)


# -- the tests ------------------------------------------------------------------------------------
# A citation of 004: "[5.24]", "004 [5.24]"; not a case of another document ("001 [5.24]") nor
# a postal rule quoted by its own number ("postal [5.0]") nor an article's ("004 Masses [8.3]").
_CITE = re.compile(r"(?<!001 )(?<!000 )(?<!003 )(?<!postal )(?<!Masses )\[(\d{1,2}\.\d{1,2})\]")
_NAME = re.compile(r"^test_(\d{1,2})_(\d{1,2})(?:_|$)")


_POSTAL_CITE = re.compile(r"postal \[(\d{1,2}\.\d{1,2})\]")
_POSTAL_RULE = re.compile(r"004 \[17\.0\](?! postal)")
_POSTAL_NAME = re.compile(r"^test_postal_(\d{1,2})_(\d{1,2})(?:_|$)")


def _test_texts(tests: Path):
    """(file name, test name, text) of every test function: its lines, with the comment lines
    just above it and its decorators."""
    for f in sorted(tests.glob("test_*.py")):
        src = f.read_text(encoding="utf-8")
        lines = src.splitlines()
        for node in ast.walk(ast.parse(src)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or not node.name.startswith("test_"):
                continue
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            while first > 1 and lines[first - 2].lstrip().startswith("#"):   # the comment just above
                first -= 1
            yield f.name, node.name, "\n".join(lines[first - 1:node.end_lineno])


def citations(tests: Path = TESTS, postal: bool = False) -> dict[str, list[str]]:
    """case -> ["file.py::test_name", ...]: the test functions that cite it (``postal``: the
    cases of 004 [17.0], :data:`POSTAL_CASES`)."""
    out: dict[str, set[str]] = {}
    for fname, name, text in _test_texts(tests):
        if postal:
            found = {m.group(1) for m in _POSTAL_CITE.finditer(text)}
            if _POSTAL_RULE.search(text):
                found.add("17.0")
            m = _POSTAL_NAME.match(name)
        else:
            found = {m.group(1) for m in _CITE.finditer(text)}
            m = _NAME.match(name)
        if m:
            found.add(f"{m.group(1)}.{m.group(2)}")
        for c in found:
            out.setdefault(c, set()).add(f"{fname}::{name}")
    return {c: sorted(v) for c, v in out.items()}


def matrix(tests: Path = TESTS) -> list[dict]:
    cites = citations(tests)
    return [{"case": c, "title": t, "tests": cites.get(c, []), "reason": REASONS.get(c)} for c, t in CASES]


def optional_citations(tests: Path = TESTS, cases: list[tuple[str, str]] | None = None) -> dict[str, list[str]]:
    """id -> ["file.py::test_name", ...]: the test functions that name an optional case (see
    :data:`OPTIONAL_CASES`; this module's own tests' examples cite nothing)."""
    names = sorted((c for c, _ in (cases or OPTIONAL_CASES)), key=len, reverse=True)
    pattern = re.compile("(" + "|".join(re.escape(n) for n in names) + r")(?![\w.]| [A-D]\b| \[)")
    out: dict[str, set[str]] = {}
    for fname, name, text in _test_texts(tests):
        if fname == "test_rules_coverage.py":
            continue
        flat = " ".join(text.replace('"', "").replace("'", "").split())      # (quotes aside, lines joined)
        for m in pattern.finditer(flat):
            out.setdefault(m.group(1), set()).add(f"{fname}::{name}")
    return {c: sorted(v) for c, v in out.items()}


def optional_matrix(tests: Path = TESTS) -> list[dict]:
    cites = optional_citations(tests)
    return [{"case": c, "title": t, "tests": cites.get(c, []), "reason": OPTIONAL_REASONS.get(c)}
            for c, t in OPTIONAL_CASES]


def postal_matrix(tests: Path = TESTS) -> list[dict]:
    """The rows of :data:`POSTAL_CASES` (every one states something the engine must do)."""
    cites = citations(tests, postal=True)
    return [{"case": c, "title": t, "tests": cites.get(c, []), "reason": None} for c, t in POSTAL_CASES]


def uncovered(rows: list[dict]) -> list[str]:
    return [r["case"] for r in rows if not r["tests"] and not r["reason"]]


def summary(rows: list[dict]) -> dict[str, int]:
    return {"cases": len(rows), "tested": sum(1 for r in rows if r["tests"]),
            "reason_only": sum(1 for r in rows if not r["tests"] and r["reason"]),
            "with_reason": sum(1 for r in rows if r["reason"]), "uncovered": len(uncovered(rows))}


READINGS = "\n## Readings"


def kept_sections() -> str:
    """The hand-written part of the document that ``--write`` keeps: from its "## Readings"
    heading (the readings the rulebook allows and the engine's options for them) to the end."""
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
    i = text.find(READINGS)
    return text[i:] if i >= 0 else ""


def render(rows: list[dict], optional: list[dict] | None = None, postal: list[dict] | None = None) -> str:
    s = summary(rows)
    postal = postal if postal is not None else postal_matrix()
    p = summary(postal)
    out = [
        "# Rule-case coverage: 004 [1.0]-[16.0] and the postal rules, 004 [17.0]",
        "",
        "Generated by `python tests/rules_coverage.py --write`; checked by `tests/test_rules_coverage.py`,",
        "which fails when a case of the multi-player rules is neither cited by a test nor given a",
        "reason here.  A test *cites* a case when `[x.yy]` appears in the test function (name",
        "`test_x_yy_…`, docstring, comment or string, e.g. the rule an `IllegalAction` must name)",
        "or in the comment lines directly above it.  Where the rulebook allows two readings, the",
        "engine's choice, its reasons and the game option that picks the other are in \"Readings\"",
        "at the end (written by hand; `--write` keeps it).",
        "",
        f"**{s['cases']} cases**: {s['tested']} cited by tests, {s['reason_only']} listed with a reason only "
        f"(no test needed), {s['uncovered']} uncovered.",
        "",
    ]
    out += _table(rows, "[{}]")
    out += [
        "",
        "## Postal Russian Civil War, 004 [17.0]",
        "",
        "The postal game's general rule and procedure, then its rule changes, numbered as the",
        "sections of the standard rules they change (a test cites one as `004 [17.0] postal [8.0]`,",
        "or by its name, `test_postal_8_0_…`; the general rule as `004 [17.0]`).  The sample",
        "postal game, The Bell, is played in `test_postal_bell.py`.",
        "",
        f"**{p['cases']} cases**: {p['tested']} cited by tests, {p['uncovered']} uncovered.",
        "",
    ]
    out += _table(postal, "postal [{}]", "section")
    if optional:
        o = summary(optional)
        out += [
            "",
            "## The optional rules and variants",
            "",
            "001's optional forces and rules (the summary's turn order included) and the two variants printed",
            "in 004 (Ware's \"Russian Civil War for the Masses\", DeBaun's critique), game options of",
            "`rcw/options.py` (docs/variants.md), by paragraph: a paragraph is named by its document and",
            "heading (`001 Anarchists: Roving Attack`, `004 Masses [13.51]`); a test cites it by naming it.",
            "",
            f"**{o['cases']} cases**: {o['tested']} cited by tests, {o['reason_only']} listed with a reason only, "
            f"{o['uncovered']} uncovered.",
            "",
        ]
        out += _table(optional, "{}")
    return "\n".join(out) + "\n" + kept_sections()


def _table(rows: list[dict], name: str, title: str = "opens with") -> list[str]:
    """The matrix as a Markdown table (``name``: how a case is shown, e.g. ``[{}]``)."""
    out = [f"| case | {title} | tests citing it | no test needed because |", "|---|---|---|---|"]
    for r in rows:
        tests = ", ".join(f"`{t}`" for t in r["tests"][:6])
        if len(r["tests"]) > 6:
            tests += f" and {len(r['tests']) - 6} more"
        out.append(f"| {name.format(r['case'])} | {r['title']} | {tests or '—'} | {r['reason'] or ''} |")
    return out


def main(argv: list[str]) -> int:
    rows, postal = matrix(), postal_matrix()
    s, p = summary(rows), summary(postal)
    print(f"{s['cases']} cases: {s['tested']} cited by tests, {s['reason_only']} with a reason only, "
          f"{s['uncovered']} uncovered; postal: {p['cases']} cases, {p['tested']} cited, {p['uncovered']} uncovered")
    for c in uncovered(rows):
        print(f"  uncovered: [{c}] {dict(CASES)[c]}")
    for c in uncovered(postal):
        print(f"  uncovered: postal [{c}] {dict(POSTAL_CASES)[c]}")
    opt = optional_matrix()
    o = summary(opt)
    print(f"{o['cases']} optional cases: {o['tested']} cited by tests, {o['reason_only']} with a reason only, "
          f"{o['uncovered']} uncovered")
    for c in uncovered(opt):
        print(f"  uncovered: {c} {dict(OPTIONAL_CASES)[c]}")
    book = find_rulebook()
    if book is not None and (rulebook_cases(book) != [c for c, _ in CASES]
                             or rulebook_postal_cases(book) != [c for c, _ in POSTAL_CASES]):
        print("  the rulebook's cases differ from CASES or POSTAL_CASES", file=sys.stderr)
        return 1
    if "--write" in argv:
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(render(rows, opt, postal), encoding="utf-8")
        print(f"wrote {DOC.relative_to(REPO)}")
    return 1 if s["uncovered"] or p["uncovered"] or o["uncovered"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
