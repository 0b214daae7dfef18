"""``rcw serve`` (placeholder until the server lands)."""


def add_parser(sub) -> None:
    pass
