"""Write the wire actions appendix of ``docs/protocol.md`` from the action definitions.

Every action type of :mod:`rcw.actions` (its ``t``, fields and their types and defaults, the
rule case it implements, whether ``legal`` lists it, an example) is described by
:func:`rcw.actions.describe_actions`; this script renders that as Markdown and replaces the
part of ``docs/protocol.md`` between the two markers below (appending it the first time).
``tests/test_protocol_appendix.py`` fails when the file differs from what it would write.

    python scripts/protocol_appendix.py           # rewrite the appendix
    python scripts/protocol_appendix.py --check   # exit 1 (and say so) if it is stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "protocol.md"
BEGIN = "<!-- BEGIN appendix A: written by scripts/protocol_appendix.py from rcw.actions; do not edit by hand -->"
END = "<!-- END appendix A -->"

INTRO = """\
## Appendix A. Wire actions

Every action a seat may send in `act` is a map `{"t": <type>, "seat": <seat>, ...fields}`, the
form in which `legal` lists actions and a game's `record` logs them. These are the actions of
the multi-player game, the one the server plays (the SPI solitaire of `rcw solo --spi` has a
few of its own). In `act`, `seat` may be left out: the server
fills in the connection's seat (naming another seat is `not_your_seat`). A field left out takes
its default. A map with an unknown `t`, an unknown field or a field of the wrong type is refused
with `illegal_action` and `engine_code: "bad_action"`, and changes nothing; so is an action the
rules do not allow now (then `rule` names the case and `engine_code` the reason).

`legal` lists every legal action of most types. A few are *parametric*: the engine takes any
value that passes its checks, and `legal` lists only some of them, or none (the column
*in `legal`*); build them from the fields below. Unit ids, stack ids and province codes are
those of `view` (`view.stacks`, `view.hands`, `view.offers`) and of the client's `data.json`.

This appendix is generated from `rcw/actions.py` (`rcw.actions.describe_actions()`) by
`python scripts/protocol_appendix.py`; a test fails when it is out of date.
"""


def _json(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _listed(a: dict) -> str:
    return "yes" if a["listed"] == "all" else a["listed"].split(":", 1)[0]


def render(actions: list[dict]) -> str:
    """The appendix (between the markers, markers excluded) for ``describe_actions()``."""
    out = [INTRO, "| `t` | fields | rule | in `legal` |", "|---|---|---|---|"]
    for a in actions:
        names = ", ".join(f"`{f['name']}`" for f in a["fields"][1:]) or "(none)"
        out.append(f"| [`{a['type']}`](#{a['type'].lower()}) | {names} | {a['rules'][0]} | {_listed(a)} |")
    for a in actions:
        out += ["", f"### {a['type']}", "", a["doc"], ""]
        rule = f"Rule: {a['rules'][0]}"
        if len(a["rules"]) > 1:
            rule += f" (also cited: {', '.join(a['rules'][1:])})"
        head, _, why = a["listed"].partition(":")
        listed = "every legal one" if a["listed"] == "all" else f"{head} ({why.strip()})" if why else head
        out += [f"{rule}. In `legal`: {listed}.", ""]
        out += ["| field | type | default | meaning |", "|---|---|---|---|"]
        for f in a["fields"]:
            default = "required (`act` fills it in)" if f["name"] == "seat" else f"`{_json(f['default'])}`"
            out.append(f"| `{f['name']}` | {f['type']} | {default} | {f['meaning']} |")
        out += ["", "```json", _json(a["example"]), "```"]
    return "\n".join(out) + "\n"


class Intruder(ValueError):
    """A section of the document written by hand between the markers (it would be lost)."""


def rewrite(text: str, appendix: str) -> str:
    """``text`` (the document) with its appendix replaced by ``appendix`` (appended if absent).
    Raises :class:`Intruder` if a section other than the appendix is between the markers."""
    block = f"{BEGIN}\n{appendix}{END}\n"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        old, tail = rest.split(END, 1)
        others = [line for line in old.splitlines() if line.startswith("## ") and line != "## Appendix A. Wire actions"]
        if others:
            raise Intruder(f"{others[0]!r} is between the appendix markers; move it above {BEGIN[:20]}...")
        return head + block + tail.lstrip("\n")
    return text.rstrip("\n") + "\n\n" + block


def expected(text: str) -> str:
    """The document as this script would write it."""
    from rcw.actions import describe_actions

    return rewrite(text, render(describe_actions()))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="only say whether docs/protocol.md is current (exit 1 if not)")
    p.add_argument("--doc", type=Path, default=DOC, help="the document (default: docs/protocol.md)")
    args = p.parse_args(argv)
    text = args.doc.read_text()
    try:
        new = expected(text)
    except Intruder as e:
        print(f"{args.doc}: {e}")
        return 2
    if args.check:
        if new != text:
            print(f"{args.doc}: the wire actions appendix is stale; run python scripts/protocol_appendix.py")
            return 1
        print(f"{args.doc}: the wire actions appendix is current")
        return 0
    if new != text:
        args.doc.write_text(new)
        print(f"{args.doc}: appendix A rewritten")
    else:
        print(f"{args.doc}: appendix A already current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
