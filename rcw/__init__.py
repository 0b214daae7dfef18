"""SPI's *Russian Civil War* (1976): a deterministic rules engine.

``rcw`` is pure Python with no I/O beyond reading its own ``data/`` files; the server and
the bots use it only through :class:`rcw.game.Game`.
"""

__version__ = "0.1.0"

#: The rules' edition: raised with every rule fix that changes how a logged game replays (a step
#: the rules now refuse, another die roll, another final state).  A game's record carries the
#: edition it was played under; a replay under another may differ, which is no sign of tampering
#: (``rcw.verify``).  1: every game before it was kept; 2: 2026-11-27's fixes of 004 [13.41],
#: [14.0], [11.12] and [14.23]; 3: the next session's of 004 [5.0] (a force may go back where it has
#: been; a Czech unit leaves once its force has ended), [5.25]/[5.61] (what a force leaves where
#: it was formed has not moved) and the SPI solitaire's [24.14]-[24.17].
RULES_EDITION = 3
