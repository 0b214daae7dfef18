"""Draw the game map as SVG (placeholder; replaced by the map renderer)."""


def add_parser(sub) -> None:  # pragma: no cover - replaced
    pass
