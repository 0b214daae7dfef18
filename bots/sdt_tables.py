"""The tables of J. Richard Jarvinen's "RUSSIAN CIVIL WAR Solitaire for Fanatics"
(in ``004_8c1b9ecc5e5ea495.txt``, the article after the game profile), as pure data and
pure functions.  :mod:`bots.sdt` plays them; ``tests/test_sdt.py`` pins every entry.

The article's printed tables reached us through OCR and are partly garbled.  Each table
below quotes what survives and says how we read it ("our reading").  Where the article
leaves a point to "common sense", the rule we chose is stated here and in :mod:`bots.sdt`.

Contents
--------
- Political Indicator Table (PIT): :func:`pcm`, :func:`undecided_band`, :func:`political_color`.
- Player Cooperation Table (PCT): :func:`initial_relation`, :func:`shift`, the shift constants,
  :func:`friendliness_order`.
- Attack Consideration: :func:`attack_goes_ahead`.
- Purge Cooperation: :func:`joins_committee`, :func:`collective_purge`,
  :func:`politburo_instead`, :data:`COMMITTEE_MIN_POLITBURO`.
- Strategy Determination Table (SDT): :data:`SDT`.
- Attack Priority Table (APT): :data:`APT`.
- Vindictive Strategy Table (VST): :data:`VST`, :func:`vst_needs_reroll`.
- Assassinations: :func:`assassination_levels`, :func:`assassin_markers_used`.
"""

from __future__ import annotations

from dataclasses import dataclass

RED, WHITE, BLUE, GREEN = "Red", "White", "Blue", "Green"
UNDECIDED = "Undecided"

# -- Political Indicator Table ---------------------------------------------------------------


def pcm(red_leadership: int, white_leadership: int) -> int:
    """The Political Control Marker: "equal to his Red leader combat strength minus his
    White leader combat strength".  A leader's combat strength is its value (004 [8.26]);
    the article's justification ("fifteen more Red combat strength points than White at the
    beginning": Red leaders total 40, White 25) confirms that only the leaders count."""
    return red_leadership - white_leadership


def undecided_band(turn: int) -> tuple[int, int] | None:
    """The PCM columns that make a player Undecided on Game-Turn ``turn``.

    "On game turn one the boundaries are one and five ... on game turn two ... between one
    and four ... on game turn three the boundary is one and three; on game turn four ... one
    and two; on game turn five only those whose PCMs are on column one are considered
    Undecided.  On all remaining game turns there can no longer be any Undecided players."
    """
    if turn < 1:
        turn = 1
    if turn > 5:
        return None
    return (1, 6 - turn)


def political_color(pcm_value: int, turn: int) -> str:
    """Red, White or Undecided.  "A player whose PCM is on the six or greater column is
    considered a Red player ... between one and five (inclusive) is Undecided ... less than
    one is White"; the Red boundary moves one column left each Game-Turn; from turn 6 every
    PCM of 1 or more is Red."""
    if pcm_value < 1:
        return WHITE
    band = undecided_band(turn)
    if band is not None and band[0] <= pcm_value <= band[1]:
        return UNDECIDED
    return RED


# -- Player Cooperation Table ----------------------------------------------------------------

PCT_MIN, PCT_MAX = 2, 7
"""'Markers may never shift further than column 7 to the right nor column 2 to the left.'"""

SHIFT_ATTACK = +1
SHIFT_PURGE = +1
SHIFT_ASSASSINATION = +1
SHIFT_ASSASSIN_GIFT = -1
SHIFT_POLITBURO_GIFT = -2
"""The notes under the PCT, as printed (OCR): "For each attack, purge attempt, or
assassination attempt against, or assassin marker given to another player, shift marker 1
column left.  For each Politburo marker given to another player, shift marker 2 columns
left."  Our reading: a line was lost after "against": hostile acts (attack, purge attempt,
assassination attempt) shift the marker one column RIGHT (less cooperation: "The further
right the marker is placed, the less likely is the chance for cooperation"), an Assassin
marker given shifts it one column left, a Politburo marker given two columns left (the
Purge Cooperation procedure confirms: "The markers reflecting the two players relationship
are immediately moved two columns left").  A relationship is one value per pair of players
(the article keeps it on both rows and calls the second copy "redundant")."""


def initial_relation(color_a: str, color_b: str) -> int:
    """Initial PCT column: "For two players with the same political outlook (both Red, both
    White or both Undecided), a marker is placed on column 2 ... diametrically opposed ...
    (Red versus White) ... on the 5 column.  For all other relationships (Undecided against
    Red or White) ... on the 3 column."""
    if color_a == color_b:
        return 2
    if {color_a, color_b} == {RED, WHITE}:
        return 5
    return 3


def shift(value: int, delta: int) -> int:
    """Move a PCT marker ``delta`` columns (right is positive), kept within columns 2-7."""
    return max(PCT_MIN, min(PCT_MAX, value + delta))


def friendliness_order(relations: dict[str, int]) -> list[str]:
    """Other players from friendliest (lowest column) to unfriendliest.  Ties: our rule
    (the article is silent) is alphabetical order of the player letters."""
    return sorted(relations, key=lambda p: (relations[p], p))


def attack_goes_ahead(pct_value: int, die: int) -> bool:
    """Attack Consideration: "If the die roll ... is greater than the number indicated on the
    PCT ... the attack is aborted ... equal to or less than ... the attack takes place"."""
    return die <= pct_value


# -- Purge Cooperation -----------------------------------------------------------------------

COMMITTEE_MIN_POLITBURO = 8
"""'If the total is eight or greater, a purge is attempted' (004 [11.11]): the article's number,
pinned here; the bot itself asks the engine's ``limits()["committee_markers"]`` (the rule is
known once, in the engine)."""


def joins_committee(pct_value: int, die: int) -> bool:
    """"If the die roll is equal to or greater than the number on the PCT reflecting the two
    players' cooperation, that player joins the Central Committee.\""""
    return die >= pct_value


def collective_purge(die: int) -> bool:
    """"A die roll of three or greater implies a collective purge.\""""
    return die >= 3


def politburo_instead(die: int) -> bool:
    """"If an individual purge result yields a two or more, a die is rolled to determine if a
    Politburo marker is taken instead of a leader.  A die roll of one or two implies that the
    purging player takes one Politburo Marker if available.\""""
    return die <= 2


# -- Strategy Determination Table ---------------------------------------------------------


@dataclass(frozen=True)
class SdtRow:
    roll: int
    attacks: int            # required number of attacks
    min_odds: int           # smallest odds column accepted, as n for n:1 (1 = 1-1, 2 = 2-1)
    purge: bool
    assassination: bool
    vindictive: bool = False
    gift_assassin: bool = False


SDT: dict[int, SdtRow] = {
    1: SdtRow(1, 1, 1, False, False, gift_assassin=True),
    2: SdtRow(2, 2, 2, False, False),
    3: SdtRow(3, 3, 1, False, True),
    4: SdtRow(4, 4, 2, True, False),
    5: SdtRow(5, 5, 2, True, True),
    6: SdtRow(6, 3, 1, False, False, vindictive=True),
}
"""The SDT as printed (OCR)::

    Die  Req Nbr  Min   Purge    Assass.
    1    1        1-1   No       No
    2    2        2-1   No       No
    3    3        1-1   No       Yes
    4    4        2-1   Yes      No
    5    5        2-1   Yes      Yes
    6    Roll die again using VST

"On a die roll of one, the phasing player must immediately give one assassin marker, if
available, to the 2nd friendliest player as defined on the PCT."  Row 6: "The required
number of attacks when using the VST is always three and the minimum odds are 1-1."
"A player is never required to attack at 1-2 odds."
"""

ESCORT_MIN_ODDS = 3
"""'Units that are controlling or escorting the Czar or the Gold are never required to attack
at less than 3-1 odds.'"""

# -- Attack Priority Table ------------------------------------------------------------------


@dataclass(frozen=True)
class AptEntry:
    priority: int           # I, II, III
    units: str              # colour of the phasing player's attacking units
    target: str             # colour of the units attacked


def _apt(*rows: tuple[int, str, str]) -> tuple[AptEntry, ...]:
    return tuple(AptEntry(*r) for r in rows)


APT: dict[str, tuple[AptEntry, ...]] = {
    WHITE: _apt((1, BLUE, RED), (1, GREEN, RED), (1, WHITE, RED), (1, RED, GREEN),
                (2, WHITE, GREEN), (2, RED, BLUE),
                (3, GREEN, WHITE), (3, RED, WHITE)),
    RED: _apt((1, GREEN, WHITE), (1, RED, WHITE), (1, RED, BLUE), (1, WHITE, GREEN),
              (2, RED, GREEN), (2, WHITE, RED),
              (3, GREEN, RED), (3, BLUE, RED)),
    UNDECIDED: _apt((1, RED, BLUE),
                    (2, RED, GREEN), (2, WHITE, GREEN), (2, GREEN, RED), (2, GREEN, WHITE),
                    (3, RED, WHITE), (3, WHITE, RED)),
}
"""The APT in the order the attacks must be attempted.  As printed (OCR)::

    Player  Units                 Attack Priority
    Color   Cntrld                I              II            III
    White   Blue Green White Red  Red Red Red Green  Green Blue  White White
    Red     Green Red White Blue  White W/B Green    Green Red   Red Red
    Undec.  Red White Green Blue  Blue               Green Green R/W   White Red

White: fixed by the article's worked example ("Blue controlled units against Red units ...
Green controlled units against Red units ... White vs. Red, Red vs. Green, White vs. Green
(this is a Priority II attack), Red vs. Blue, Green vs. White (Priority III), and Red vs.
White").  Red: "Red units controlled by a Red player under Attack Priority I, lists two
colors: White and Blue ... first the Red units must attempt to attack White units before
they can attack Blue units"; our reading of the rest: I Green vs White, Red vs White then
Blue, White vs Green; II Red vs Green, White vs Red; III Green vs Red, Blue vs Red.
Undecided: "A similar entry is found under Attack Priority II for Green units controlled by
an Undecided player" (Green vs Red/White), so II's two "Green" are the Red and White rows;
our reading: I Red vs Blue; II Red vs Green, White vs Green, Green vs Red then White; III
("White Red") Red vs White, White vs Red.  Blue units of an Undecided player have no entry
(the printed table leaves no token for them), so they make no APT attack (they may on the
VST).

How the OCR lines are read: each priority column lists its entries top to bottom in the
order of the "Units Cntrld" rows, a row with no entry in that column leaving no token.  The
White table proves it: I "Red Red Red Green" is Blue, Green, White vs Red and Red vs Green;
II "Green Blue" is White vs Green, Red vs Blue; III "White White" is Green vs White, Red vs
White: exactly the worked example.  So the White table has 8 entries, the Red table 7
tokens (8 attacks, W/B counting twice) and the Undecided table 6 tokens (7 attacks, R/W
counting twice); we add none.

Red vs Blue lines (Red I, White II, Undecided I) may be met by a Subversive Attack
(004 [8.3]); see :mod:`bots.sdt`."""

ANARCHIST = "Anarchist"

APT_ANARCHISTS: dict[str, tuple[AptEntry, ...]] = {
    WHITE: _apt((1, ANARCHIST, RED), (3, ANARCHIST, WHITE), (3, WHITE, ANARCHIST)),
    RED: _apt((1, ANARCHIST, WHITE), (3, ANARCHIST, RED), (3, RED, ANARCHIST)),
    UNDECIDED: _apt((2, ANARCHIST, RED), (2, ANARCHIST, WHITE), (3, RED, ANARCHIST), (3, WHITE, ANARCHIST)),
}
"""Lines added to the APT for 001's optional Anarchists (ours: the article knows no Anarchists),
only in games that have them, each after the printed lines of its priority.  By the spirit of the
table:

* Anarchist units a player controls fight as his Green units do (the other colour that opposes
  both Red and White): a White player's as "Green vs Red" (I) and "Green vs White" (III), a Red
  player's as "Green vs White" (I) and "Green vs Red" (III), an Undecided player's as the two
  Green lines of II.  Each attacks alone (001: hostile to all, each other too).
* Against Anarchist units: "No victory is possible while any Anarchist unit is present in any
  non-Siberian Russian province" (001), so the colour a player backs attacks them, last (III):
  White vs Anarchist for a White player, Red vs Anarchist for a Red player, both for an Undecided
  one.  His own Anarchist units are not his targets (they are his while he holds them).
* From Game-Turn 6 (:data:`ANARCHY_TURN`: eliminated Anarchists stay off the map and count for
  Victory Points, 001) the attacks on them come first (:data:`APT_ORDER`, priority I, before the
  printed lines): while one stands in European Russia nobody wins; and his own are targets too,
  since eliminated they count for his Victory Points whichever side wins."""

APT_ORDER: dict[str, tuple[AptEntry, ...]] = {
    WHITE: _apt((1, WHITE, ANARCHIST)),
    RED: _apt((1, RED, ANARCHIST)),
    UNDECIDED: _apt((1, RED, ANARCHIST), (1, WHITE, ANARCHIST)),
}
ANARCHY_TURN = 6

# -- Vindictive Strategy Table -------------------------------------------------------------

FRIENDLIEST, SECOND_FRIENDLIEST, CZAR, GOLD, SECOND_UNFRIENDLIEST, UNFRIENDLIEST = (
    "friendliest", "2nd friendliest", "czar", "gold", "2nd unfriendliest", "unfriendliest")

VST: dict[int, str] = {1: FRIENDLIEST, 2: SECOND_FRIENDLIEST, 3: CZAR, 4: GOLD,
                       5: SECOND_UNFRIENDLIEST, 6: UNFRIENDLIEST}
"""VST as printed (OCR): "1 Attack friendliest player / 2 Attack 2nd friendliest player /
3 Attack player who controls the C[zar] / [4] Attack player who controls the Gold /
[5] Attack 2nd unfriendliest player / 6 Attack unfriendliest player"."""

VST_ATTACKS, VST_MIN_ODDS = 3, 1


def vst_needs_reroll(result: str, me: str, czar_holder: str | None, gold_holder: str | None) -> bool:
    """"If the phasing player controls the Gold (or the Czar), or if the Czar has been executed
    or removed from play, roll the die again until an appropriate result is achieved."
    Our reading: results 3 and 4 are rerolled when the phasing player holds that Imperial
    unit or when no player controls it (executed, emigrated, or standing uncontrolled)."""
    if result == CZAR:
        return czar_holder is None or czar_holder == me
    if result == GOLD:
        return gold_holder is None or gold_holder == me
    return False


def vst_target(result: str, order: list[str], czar_holder: str | None, gold_holder: str | None) -> str | None:
    """The player a VST result points at; ``order`` is friendliest-first (other players)."""
    if not order:
        return None
    if result == FRIENDLIEST:
        return order[0]
    if result == SECOND_FRIENDLIEST:
        return order[1] if len(order) > 1 else order[0]
    if result == UNFRIENDLIEST:
        return order[-1]
    if result == SECOND_UNFRIENDLIEST:
        return order[-2] if len(order) > 1 else order[-1]
    if result == CZAR:
        return czar_holder
    if result == GOLD:
        return gold_holder
    return None


# -- Assassinations ----------------------------------------------------------------------------


def assassin_markers_used(markers: int) -> int:
    """"A player should always use all the assassination markers available to him, up to a
    maximum of three, regardless of the level of the target leader.\""""
    return max(0, min(markers, 3))


def assassination_levels(markers: int) -> tuple[int, ...]:
    """Target leader values in order of preference.  "If the phasing player has only one
    assassin marker, the assassination is attempted against a level 1 leader ... [else] level
    2 ... [else] level 3.  ... two assassination markers ... level 2 ... [else] level 3 ...
    [else] level 1.  ... three or more ... level 3 ... [else] level 2 ... [else] level 1.\""""
    if markers <= 0:
        return ()
    if markers == 1:
        return (1, 2, 3)
    if markers == 2:
        return (2, 3, 1)
    return (3, 2, 1)
