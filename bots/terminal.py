"""What the terminal games (``rcw solo``, ``rcw solo --spi``) print and read, whatever the game:
unit and province names, tables, one typed line."""

from __future__ import annotations

from rcw.data import default


def unit_name(uid: int) -> str:
    """A unit as the counters name it (an Imperial unit in capitals)."""
    u = default().units[uid]
    return u.label if not u.is_imperial else u.name.upper()


def province(code: str) -> str:
    """A province as ``CODE (Name)``."""
    p = default().provinces.get(code)
    return f"{code} ({p.name})" if p else code


def table(rows: list[list[str]], header: list[str]) -> str:
    """Rows under a header, in aligned columns (indented two spaces)."""
    if not rows:
        return "  (none)"
    cols = [header] + rows
    w = [max(len(str(r[i])) for r in cols) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  " + "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()

    return "\n".join([line(header), "  " + "  ".join("-" * x for x in w)] + [line(r) for r in rows])


def read_line(prompt: str, inp, out) -> str:
    """One typed line after ``prompt``; end of input reads as ``q`` (save and quit).  Piped
    input is echoed, so a scripted transcript shows what was chosen."""
    print(prompt, end="", file=out, flush=True)
    line = inp.readline()
    if not line:
        return "q"
    if not getattr(inp, "isatty", lambda: False)():
        print(line.strip(), file=out, flush=True)
    return line.strip()
