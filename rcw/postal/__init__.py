"""004 [17.0] Postal Russian Civil War as an engine mode: simultaneous orders, two phases a
Game-Turn, the engine as Gamesmaster.

``rcw.modes.new_game(players, seed, {"mode": "postal"})`` returns a :class:`PostalGame`.  Every
seat sends an order sheet for each phase (``SubmitOrders``); when all have (or the Gamesmaster
closes the phase, ``ClosePhase``) the engine carries out every legal written order with the
multi-player rules, answers from the sheets what the live game would ask out of turn, and
reports the phase as The Bell did.  A game is still its seed, options and action log.

The package reuses the multi-player rules (:mod:`rcw.rules`) for every rule they state; its
modules hold what the postal rules add or change:

==========================  ===========================================================
:mod:`~.base`               names, the postal bookkeeping (``State.postal``), skipped orders
:mod:`~.sheets`             order sheets, their kinds and fields, the two actions
:mod:`~.validate`           judging a sheet order by order when it arrives
:mod:`~.gm`                 the Gamesmaster's hands: actions, and answers to decisions
:mod:`~.movement`           postal [5.0] movement and postal [10.0] assassination
:mod:`~.combat`             postal [8.0] combat
:mod:`~.politics`           trades, Gold thefts, purges, Czar executions, the end-game vote
:mod:`~.sequence`           postal [4.2] the phases, Random Events, the end of a Game-Turn
:mod:`~.report`             the report of a phase, as data and as text
:mod:`~.rehearsal`          a seat's phase played out on a copy, written down as a sheet (bots)
:mod:`~.game`               :class:`PostalGame`, the mode
==========================  ===========================================================

Each module's docstring gives the readings it makes where the postal rules are silent.
Nothing in :mod:`rcw.game` or :mod:`rcw.rules` imports this package.
"""

from rcw.postal.base import GM, MODE, PHASE_NAMES, PHASES
from rcw.postal.game import PostalGame, reports
from rcw.postal.report import render
from rcw.postal.sheets import KINDS, ClosePhase, SubmitOrders, stand_in

__all__ = ["GM", "KINDS", "MODE", "PHASE_NAMES", "PHASES", "ClosePhase", "PostalGame", "SubmitOrders", "render", "reports", "stand_in"]
