"""The game data as package data (installed as ``rcw.gamedata``): ``map.toml``, ``counters.toml``
and ``tables.toml``, read by :mod:`rcw.data` through :mod:`importlib.resources`."""
