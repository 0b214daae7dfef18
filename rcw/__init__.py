"""SPI's *Russian Civil War* (1976): a deterministic rules engine.

``rcw`` is pure Python with no I/O beyond reading its own ``data/`` files; the server and
the bots use it only through :class:`rcw.game.Game`.
"""

__version__ = "0.1.0"
