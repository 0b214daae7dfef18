"""The Bell (004 [17.0], the sample postal game, issues #1-#4) as data: the deal of Bell #1, the
positions after the trades of Bell #2, after the June 1918 movement (Bell #3) and at the start of
July (Bell #4), the unaligned units and the Victory Point boxes; with the helpers that name them.
Shared by tests/test_bell.py (the Bell played through the multi-player API) and
tests/test_postal_bell.py (the Bell as a postal game).  Not a test module.

Printed typos read as tests/test_bell.py says ("RU1 Sytin" is RL1 Sytin, "KULA" is KUBA, ...)."""

from __future__ import annotations

from engine_helpers import D, uid, uids

from rcw.game import Game
from rcw.rng import Rng
from rcw.state import UNASSIGNED

# -- Bell #1: the Initial Forces as dealt (13 chits each: leaders, Politburo, Assassins) ------
BELL1_LEADERS = {
    "A": ["Rodzyanko", "Sablin", "Kalinin", "Lenin", "Kamenev", "Sorokin", "Markin", "Zinoviev", "Sytin",
          "Lukomsky", "Smirnov"],
    "B": ["Bonch-Bruevich", "Tukhachevsky", "Peterson", "Slavin", "Muraviev", "Kutepov", "Kikvidze",
          "Dieterichs", "Voroshilov", "Khanzin"],
    "C": ["Sivers", "Chatilov", "Deniken", "Berzin", "Kolchak", "Kappel", "Krasnov", "Yeserov", "Rykov",
          "Markov", "Bela Kun"],
    "D": ["Sidorin", "Trotsky", "Dutov", "Stalin", "Bogomoletz", "Miller", "Ulagi", "Yudenich", "May-Maevsky"],
    "E": ["Budenny", "Vatzetis", "Blucher", "Romanovsky", "Abramov", "Gai", "Wrangel", "Frunze", "Antonov"],
}
# "IN VICTORY BOX": Politburo includes the extra markers for Lenin (A) and Trotsky (D), 004 [15.32].
BELL1_PM = {"A": 3, "B": 3, "C": 2, "D": 4, "E": 3}
BELL1_AM = {"A": 0, "B": 0, "C": 0, "D": 1, "E": 1}


def ids(*names: str) -> tuple[int, ...]:
    return tuple(uid(n) for n in names)


def S(province: str, *labels: str) -> tuple[str, tuple[str, ...]]:
    """A stack as the Bell lists it, in the form :func:`positions` returns."""
    return province, tuple(sorted(D.units[u].label for lab in labels for u in _one(lab)))


def _one(lab: str) -> list[int]:
    if lab.startswith("3x "):
        return uids(lab[3:])
    if lab.startswith("2x "):
        return uids(lab[3:])[:2]
    return [uids(lab)[0]]


# -- Bell #1 after the trades of Bell #2 ----------------------------------------------------
DEPLOYED = {
    "A": [S("ESTO", "Rodzyanko", "WU2 ESTO"), S("PSKO", "Sablin"), S("KALU", "Kalinin", "RU3 KALU"),
          S("PETR", "Lenin", "RU8 PETR"), S("TULA", "Kamenev", "Sorokin", "RU4 TULA"),
          S("KAZA", "Markin", "RU2 KAZA"), S("SMOL", "Zinoviev", "RU6 SMOL"), S("TVER", "RL1 Sytin"),
          S("KUBA", "Lukomsky"), S("OREL", "Smirnov")],
    # Stalin (from D) is deployed in Voroshilov's stack: 004 [15.54] lets one player's leaders stack.
    "B": [S("OLON", "Bonch-Bruevich", "RU3 OLON"), S("NOVG", "Tukhachevsky", "RU8 NOVG"), S("PETR", "Peterson"),
          S("PSKO", "Muraviev", "RU4 PSKO"), S("TAUR", "Kutepov", "WU4 TAUR"), S("VLDV", "Kikvidze", "RU2 VLDV"),
          S("VLDV", "Dieterichs", "WU2 VLDV"), S("KURS", "Stalin", "Voroshilov", "RU6 KURS"),
          S("CHEL", "Khanzin", "WU3 CHEL")],
    "C": [S("YELI", "Sivers", "RU2 YELI"), S("ASTR", "Chatilov", "Ulagi", "Wrangel", "WU4 ASTR"),
          S("KUBA", "Deniken", "WU4 KUBA"), S("OMSK", "Kolchak", "Kappel", "WU3 OMSK", "Gold"),
          S("DCOS", "Krasnov", "WU8 DON"), S("TERE", "Markov", "WU2 TERE"), S("STAV", "Sidorin", "WU3 STAV"),
          S("ARCH", "Miller", "WU2 ARCH"), S("KHAR", "May-Maevsky", "WU6 KHAR")],
    "D": [S("TVER", "Berzin", "Trotsky", "RU8 TVER"), S("OREN", "Dutov", "WU2 OREN"),
          S("KRAS", "Bogomoletz", "RU2 KRAS"), S("LIVO", "Yudenich", "WU2 LIVO"), S("BAKU", "Rykov", "RU3 BAKU"),
          S("GROD", "Bela Kun", "RU3 GROD"), S("SMOL", "Slavin"), S("KALU", "Yeserov")],
    "E": [S("OREL", "Budenny", "RU3 OREL"), S("YARO", "Vatzetis", "RU3 YARO"),
          S("EKAT", "Blucher", "RU2 EKAT", "Czar"), S("KUBA", "Romanovsky"), S("YEKA", "Abramov", "WU3 YEKA"),
          S("NOVG", "Gai"), S("VLDM", "Frunze", "RU4 VLDM"), S("VITE", "Antonov", "RU4 VITE")],
}
# "All unaligned Nationalists and Interventionists ... in the standard initial positions" (Bell #1);
# the list of Bell #4 plus the units eliminated in June, and the lone White units.
UNALIGNED_START = [
    S("VLDV", "2x BU2 VLDV/US"), S("VLDV", "3x BU6 VLDV/JA"), S("VLDV", "GU2 VLDV"), S("CHIT", "GU2 CHIT"),
    S("IRKU", "GU2 IRKU"), S("OMSK", "BU3 OMSK/CZ"), S("CHEL", "BU3 CHEL/CZ"), S("EKAT", "BU3 EKAT/CZ"),
    S("BAKU", "GU2 BAKU"), S("DAGH", "GU2 DAGH"), S("POLT", "BU2 POLT/GE"), S("CHER", "BU2 CHER/GE"),
    S("VITE", "BU2 VITE/GE"), S("VITE", "GU2 VITE"), S("MOHI", "BU2 MOHI/GE"), S("LIVO", "BU2 LIVO/GE"),
    S("LIVO", "GU2 LIVO"), S("ARCH", "BU2 ARCH/US"), S("ARCH", "BU2 ARCH/BR"), S("MINS", "GU2 MINS"),
    S("KIEV", "GU4 KIEV"), S("POLA", "3x GU8 POLA"), S("KOVN", "GU2 KOVN"), S("COUR", "GU2 COUR"),
    S("ESTO", "GU2 ESTO"), S("FINL", "3x GU6 FINL"), S("KHER", "3x BU2 KHER/FR"), S("KHER", "BU2 KHER/GR"),
    S("KHER", "BU2 KHER/RM"), S("KHER", "BU2 KHER/GE"), S("KHER", "BU2 KHER/HU"), S("KHER", "GU2 KHER"),
    S("KHAR", "GU2 KHAR"), S("KIRG", "WU2 KIRG"), S("SAMA", "WU2 SAMA"), S("SARA", "WU2 SARA"),
    S("TIFL", "WU2 TIFL"), S("URAL", "WU2 URAL"),
]

# -- Bell #3: positions after the June 1918 movement ----------------------------------------
MOVED = {
    "A": [S("LIVO", "Rodzyanko", "WU2 ESTO"), S("LIVO", "Lenin", "RU8 PETR"), S("TIFL", "Lukomsky", "WU2 TIFL"),
          S("PETR", "Sablin"), S("KURS", "Kalinin", "RU3 KALU"), S("SARA", "Sorokin", "Kamenev", "RU4 TULA"),
          S("SARA", "Markin", "RU2 KAZA"), S("MOHI", "Zinoviev", "RU6 SMOL"), S("TVER", "RL1 Sytin"),
          S("NOVG", "Smirnov")],
    "B": [S("EKAT", "Khanzin", "WU3 CHEL"), S("TAUR", "Kutepov", "WU4 TAUR"), S("VLDV", "Dieterichs", "WU2 VLDV"),
          S("VLDV", "Kikvidze", "RU2 VLDV"), S("ARCH", "Bonch-Bruevich", "RU3 OLON", "Peterson", "Stalin"),
          S("RYAZ", "Tukhachevsky", "RU8 NOVG", "Voroshilov", "RU6 KURS"), S("PSKO", "Muraviev", "RU4 PSKO")],
    "C": [S("EKAT", "Kolchak", "Kappel", "WU3 OMSK", "Gold"), S("EKAT", "Miller", "WU2 ARCH"),
          S("EKAT", "Wrangel", "WU2 KIRG", "WU2 SAMA", "WU4 ASTR"), S("SAMA", "Deniken", "WU4 KUBA", "WU2 URAL"),
          S("KHAR", "May-Maevsky", "WU6 KHAR"), S("KHAR", "Sidorin", "WU3 STAV"), S("DCOS", "Krasnov", "WU8 DON"),
          S("ASTR", "Ulagi", "Chatilov"), S("TERE", "Markov", "WU2 TERE"), S("YELI", "Sivers", "RU2 YELI")],
    "D": [S("COUR", "Yudenich", "WU2 LIVO"), S("URAL", "Dutov", "WU2 OREN"), S("BAKU", "Rykov", "RU3 BAKU"),
          S("BARN", "Bogomoletz", "RU2 KRAS"), S("VOLO", "Trotsky", "Slavin", "Yeserov", "Berzin", "RU8 TVER"),
          S("GROD", "Bela Kun", "RU3 GROD")],
    "E": [S("DAGH", "Abramov", "WU3 YEKA"), S("TERE", "Romanovsky"), S("VOLO", "Blucher", "RU2 EKAT", "Czar"),
          S("OREL", "Budenny", "Antonov", "RU4 VITE", "RU3 OREL"),
          S("PSKO", "Frunze", "RU4 VLDM", "Vatzetis", "RU3 YARO", "Gai")],
}

# -- Bell #4: positions at the start of July 1918 (purge left out: see the module docstring) --
JULY = {
    "A": [S("LIVO", "Rodzyanko"), S("LIVO", "Lenin", "RU8 PETR"), S("PETR", "Sablin"), S("TIFL", "Lukomsky"),
          S("NOVG", "Smirnov"), S("MOHI", "Zinoviev", "RU6 SMOL"), S("KURS", "Kalinin", "RU3 KALU"),
          S("SARA", "Sorokin", "Kamenev", "RU4 TULA"), S("SARA", "Markin", "RU2 KAZA"), S("TVER", "RL1 Sytin")],
    "B": [S("VLDV", "Dieterichs", "WU2 VLDV"), S("VLDV", "Kikvidze", "RU2 VLDV"), S("EKAT", "Khanzin", "WU3 CHEL"),
          S("TAUR", "Kutepov", "WU4 TAUR"), S("ARCH", "Stalin", "Peterson", "Bonch-Bruevich", "RU3 OLON"),
          S("RYAZ", "Tukhachevsky", "Voroshilov", "RU6 KURS"), S("PSKO", "Muraviev", "RU4 PSKO")],
    "C": [S("SAMA", "Deniken", "WU4 KUBA", "WU2 URAL"), S("DCOS", "Krasnov", "WU8 DON"), S("ASTR", "Ulagi", "Chatilov"),
          S("TERE", "Markov", "WU2 TERE"), S("KHAR", "Sidorin", "WU3 STAV"), S("KHAR", "May-Maevsky", "WU6 KHAR"),
          S("YELI", "Sivers", "RU2 YELI"), S("EKAT", "Kolchak", "Kappel", "WU3 OMSK", "Gold"),
          S("EKAT", "Wrangel", "WU2 KIRG", "WU2 SAMA", "WU4 ASTR"), S("EKAT", "Miller", "WU2 ARCH")],
    "D": [S("URAL", "Dutov", "WU2 OREN"), S("BARN", "Bogomoletz", "RU2 KRAS"), S("BAKU", "Rykov", "RU3 BAKU"),
          S("GROD", "Bela Kun", "RU3 GROD"), S("VOLO", "Trotsky", "Berzin", "Slavin", "Yeserov", "RU8 TVER")],
    "E": [S("TERE", "Romanovsky"), S("DAGH", "Abramov", "WU3 YEKA"), S("OREL", "Budenny", "Antonov", "RU4 VITE", "RU3 OREL"),
          S("PSKO", "Frunze", "Vatzetis", "Gai", "RU3 YARO", "RU4 VLDM"), S("VOLO", "Blucher", "RU2 EKAT", "Czar")],
}
UNALIGNED_JULY = [
    S("VLDV", "2x BU2 VLDV/US"), S("VLDV", "3x BU6 VLDV/JA"), S("VLDV", "GU2 VLDV"), S("CHIT", "GU2 CHIT"),
    S("IRKU", "GU2 IRKU"), S("OMSK", "BU3 OMSK/CZ"), S("CHEL", "BU3 CHEL/CZ"), S("EKAT", "BU3 EKAT/CZ"),
    S("BAKU", "GU2 BAKU"), S("DAGH", "GU2 DAGH"), S("POLT", "BU2 POLT/GE"), S("MINS", "GU2 MINS"),
    S("KIEV", "GU4 KIEV"), S("POLA", "3x GU8 POLA"), S("KOVN", "GU2 KOVN"), S("VITE", "GU2 VITE"),
    S("COUR", "GU2 COUR"), S("LIVO", "WU2 LIVO"), S("ESTO", "GU2 ESTO"), S("FINL", "3x GU6 FINL"),
    S("KHER", "3x BU2 KHER/FR"), S("KHER", "BU2 KHER/GR"), S("KHER", "BU2 KHER/RM"), S("KHER", "BU2 KHER/GE"),
    S("KHER", "BU2 KHER/HU"), S("KHER", "GU2 KHER"),
]
VP_JULY = {
    "A": ["BU2 CHER/GE", "WU2 SARA", "BU2 MOHI/GE", "BU2 LIVO/GE", "GU2 LIVO"],   # "6 Pts. worth of Blue units"
    "B": ["BU2 ARCH/BR"], "C": ["GU2 KHAR"], "D": ["BU2 ARCH/US"], "E": ["BU2 VITE/GE"],
    UNASSIGNED: ["RU8 NOVG", "Yudenich", "WU2 TIFL", "WU2 ESTO"],                  # "IN NEUTRAL BOX"
}


def event_cell(province: str) -> tuple[int, int]:
    """The Random Events Table cell whose epidemic strikes ``province`` (004 [12.2])."""
    return next(c.roll for c in D.tables.random_events.values() if province in c.provinces)


def force_draw(g: Game, chit: str) -> None:
    """Arrange the (hidden) order of the Auxiliary Forces Randomizer so that the next draw
    picks ``chit``: the cup's order is secret, the RNG's pick is not changed."""
    s = g.state
    i = Rng(s.rng).below(len(s.aux))
    j = s.aux.index(chit)
    s.aux[i], s.aux[j] = s.aux[j], s.aux[i]


def deal(g: Game) -> Game:
    """Bell #1: put the Initial Forces as dealt in the hands of ``g`` (a new game of 5 players,
    its trading session open), with the markers "IN VICTORY BOX"."""
    s = g.state
    s.hand = {p: sorted(ids(*names)) for p, names in BELL1_LEADERS.items()}
    s.politburo = dict(BELL1_PM)
    s.assassins = dict(BELL1_AM)
    return g


def arrange_draws(g: Game, *chits: str) -> None:
    """Arrange the (hidden) order of the Auxiliary Forces Randomizer so that the next draws, one
    after the other with nothing else drawing on the RNG between them, pick ``chits`` in turn
    (the RNG's picks are not changed: each is ``below(len(cup))`` of the cup left)."""
    s = g.state
    rng = Rng(s.rng)
    slots = list(range(len(s.aux)))
    rest = list(s.aux)
    out: list = [None] * len(s.aux)
    for chit in chits:
        out[slots.pop(rng.below(len(slots)))] = chit
        rest.remove(chit)
    for slot in slots:
        out[slot] = rest.pop(0)
    s.aux = out
