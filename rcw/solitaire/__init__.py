"""004 [18.0]-[28.0]: the SPI solitaire game (Fred Georgian's rules) as an engine mode.

``rcw.modes.new_game(players, seed, {"mode": "spi-solitaire"})`` (``players`` 1 or 2; both mean
the one human) returns a :class:`SoloGame`, with two seats: ``"R"``, the Red Player, the only
one that ever acts, and ``"N"``, the non-Red Player, "a system of rules" (004 [28.0]).

**Why the non-Red side lives in the engine, not in a bot.**  Every non-Red choice is fixed by
a procedure and a die roll: the target province and path (004 [21.13], [21.22]), the number
of provinces moved (004 [21.12], [21.26]), the stacking (004 [22.1]), which Red force to
attack and whether to attack at all (004 [23.11]-[23.15]), which units an Exchange takes
(004 [23.16]).  Run by the engine with the game's own RNG, the solitaire is a seed plus the
Red Player's actions (replay, saves and ``state_hash`` work as in the multi-player game),
the "must" rules are enforced rather than hoped for, and seat ``"N"`` never has to be
asked anything.  Every non-Red step is reported as an :class:`~rcw.actions.Event` sentence
citing its case.

The solitaire reuses the multi-player rules wherever they apply (movement limits and the stop
rule, leader capacity and stacking, combat and its odds, Random Events, the Randomizer,
replacement restrictions); its modules hold only what the solitaire rules add or change:

==========================  ===========================================================
:mod:`~.base`               seats, numbers, naming, the die among equal options
:mod:`~.routes`             target provinces and paths (004 [21.13], [21.2])
:mod:`~.setup`              the set-up (004 [27.0])
:mod:`~.random_events`      Random Events and the Randomizer (004 [20.0])
:mod:`~.nonred_movement`    the non-Red Movement Phase (004 [21.0])
:mod:`~.nonred_stacking`    the non-Red Stacking Phase (004 [22.0])
:mod:`~.nonred_combat`      the non-Red Combat Phase and decisions (004 [23.0], [13.41])
:mod:`~.red`                Red Leader Determination (004 [24.0]) and the Czar (004 [26.0])
:mod:`~.replacement`        the Replacement Phase (004 [25.0])
:mod:`~.victory`            victory (004 [28.0])
:mod:`~.turn`               the Sequence of Play (004 [19.0]) and ``settle``
:mod:`~.game`               :class:`SoloGame`, the mode
==========================  ===========================================================

Each module's docstring gives the readings it makes where the rules are silent or ambiguous.
``rcw.modes`` registers :class:`SoloGame`; ``State.solo`` holds the solitaire's bookkeeping
(paths, the non-Red step in progress, the Red Leader Determination).  Nothing in
:mod:`rcw.game` or :mod:`rcw.rules` imports this package.
"""

from rcw.solitaire.base import LAST_TURN, MODE, NONRED, OBJECTIVE_REGIONS, RED_SEAT, TARGETS
from rcw.solitaire.game import SOLO_HANDLERS, SoloGame
from rcw.solitaire.nonred_combat import choose_exchange_loss, nonred_attack, nonred_decision
from rcw.solitaire.nonred_movement import move_force, nonred_movement
from rcw.solitaire.nonred_stacking import nonred_stacking, white_arrangement
from rcw.solitaire.random_events import draw, roll_random_events
from rcw.solitaire.red import (
    MAX_RED_LEADERS,
    DeployLeader,
    EndLeaderDeployment,
    available_leaders,
    check_deploy,
    czar_check,
    deploy_candidates,
    enter_leader_phase,
    settle_kills,
)
from rcw.solitaire.replacement import replacement_block, replacement_phase
from rcw.solitaire.routes import assign_route, rail_distances, remaining_route, shortest_routes
from rcw.solitaire.setup import setup
from rcw.solitaire.turn import end_game_turn, settle, start_nonred_turn, start_red_turn
from rcw.solitaire.victory import LEVELS, finish, nonred_in_targets, objective_units, red_level

__all__ = [
    "LAST_TURN", "LEVELS", "MAX_RED_LEADERS", "MODE", "NONRED", "OBJECTIVE_REGIONS", "RED_SEAT", "SOLO_HANDLERS",
    "TARGETS", "DeployLeader", "EndLeaderDeployment", "SoloGame", "assign_route", "available_leaders",
    "check_deploy", "choose_exchange_loss", "czar_check", "deploy_candidates", "draw", "end_game_turn",
    "enter_leader_phase", "finish", "move_force", "nonred_attack", "nonred_decision", "nonred_in_targets",
    "nonred_movement", "nonred_stacking", "objective_units", "rail_distances", "red_level", "remaining_route",
    "replacement_block", "replacement_phase", "roll_random_events", "settle", "settle_kills", "setup",
    "shortest_routes", "start_nonred_turn", "start_red_turn", "white_arrangement",
]
