"""Appendix A of docs/protocol.md (every wire action: its fields and their types, the rule case
it implements, whether ``legal`` lists it, an example) is generated from ``rcw.actions`` by
scripts/protocol_appendix.py: it is current, a stale one is caught, and every action type
carries what the appendix needs (a docstring citing its rule case, each field's meaning, an
example that the engine's own wire parser takes)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
from pathlib import Path

import pytest
from rules_coverage import CASES

from rcw import actions as A
from rcw.actions import action_from_wire, action_types, describe_actions, rule_cases, to_wire
from rcw.game import Game

ROOT = Path(__file__).resolve().parent.parent
# The multi-player game's actions (rcw.actions' own, in their order; game modes register more).
GAME_ACTIONS = [cls for cls in action_types().values() if cls.__module__ == "rcw.actions"]
DOC = ROOT / "docs" / "protocol.md"
spec = importlib.util.spec_from_file_location("protocol_appendix", ROOT / "scripts" / "protocol_appendix.py")
appendix = importlib.util.module_from_spec(spec)
spec.loader.exec_module(appendix)


def test_the_appendix_in_the_protocol_document_is_current():
    text = DOC.read_text()
    assert appendix.BEGIN in text and appendix.END in text
    assert appendix.expected(text) == text, "docs/protocol.md appendix A is stale: run python scripts/protocol_appendix.py"
    assert appendix.main(["--check"]) == 0


def test_a_stale_appendix_is_caught_and_rewritten(tmp_path):
    text = DOC.read_text()
    for stale in (text.replace("| `to` | string | `\"\"` | the province entered", "| `dest` | string | `\"\"` | the province entered"),
                  text.replace("\n### Quit\n", "\n### Quit (old)\n"),
                  text.replace('"rail": true}', '"rail": false}')):
        assert stale != text
        doc = tmp_path / "protocol.md"
        doc.write_text(stale)
        assert appendix.main(["--check", "--doc", str(doc)]) == 1
        assert appendix.main(["--doc", str(doc)]) == 0
        assert doc.read_text() == text                    # the rest of the document is kept as it was
    # A section written by hand inside the markers is not overwritten: the script stops.
    intruded = text.replace(appendix.BEGIN + "\n", appendix.BEGIN + "\n## 10. Written by hand\n\nKeep me.\n\n")
    doc.write_text(intruded)
    assert appendix.main(["--doc", str(doc)]) == 2 and doc.read_text() == intruded
    # A document without the appendix gets it appended once.
    head = text.split(appendix.BEGIN)[0]
    assert appendix.expected(head) == text and appendix.expected(appendix.expected(head)) == text


def test_every_action_type_is_in_the_appendix_with_its_fields_and_example():
    text = DOC.read_text().split(appendix.BEGIN)[1]
    described = describe_actions()
    assert [a["type"] for a in described] == [cls.TYPE for cls in GAME_ACTIONS]
    for a in described:
        block = text.split(f"\n### {a['type']}\n")[1].split("\n### ")[0]
        for f in dataclasses.fields(A.action_types()[a["type"]]):
            assert f"| `{f.name}` |" in block, (a["type"], f.name)
        example = json.loads(re.search(r"```json\n(.*)\n```", block).group(1))
        assert example["t"] == a["type"] and to_wire(action_from_wire(example)) == example
        assert f"Rule: {a['rules'][0]}" in block


RULEBOOK_CASES = {f"004 [{c}]" for c, _ in CASES}


def test_the_appendix_describes_exactly_the_actions_the_multi_player_game_takes():
    assert set(GAME_ACTIONS) == set(Game.HANDLERS)
    assert {a["type"] for a in describe_actions()} == {cls.TYPE for cls in Game.HANDLERS}


@pytest.mark.parametrize("cls", GAME_ACTIONS, ids=lambda cls: cls.TYPE)
def test_every_action_says_what_the_appendix_needs(cls):
    t = cls.TYPE
    doc = cls.__dict__.get("__doc__") or ""
    assert doc and not doc.startswith(f"{t}("), f"{t} has no docstring of its own (the appendix shows it)"
    cases = rule_cases(doc)
    assert cases, f"{t}'s docstring cites no rule case (004 [x.y])"
    for c in cases:
        section = int(c.split("[")[1].split(".")[0])
        assert section > 16 or c in RULEBOOK_CASES, f"{t} cites {c}, which is not a case of the rulebook"
    names = [f.name for f in dataclasses.fields(cls) if f.name != "seat"]
    assert sorted(cls.FIELDS) == sorted(names), f"{t}.FIELDS must give the meaning of exactly {names}"
    for name, meaning in cls.FIELDS.items():
        assert meaning.strip() and "|" not in meaning and "\n" not in meaning, (t, name)
    assert set(cls.EXAMPLE) <= set(names) and (cls.EXAMPLE or not names), f"{t} needs an EXAMPLE of its fields"
    wire = to_wire(action_from_wire({"t": t, "seat": "A", **cls.EXAMPLE}))
    assert {k: wire[k] for k in cls.EXAMPLE} == cls.EXAMPLE       # the parser keeps every example value
    assert cls.LISTED == "" or re.match(r"^(never|some): \S", cls.LISTED), cls.LISTED


def test_rule_cases_reads_citation_chains():
    assert rule_cases("Attach (004 [5.13], [13.14]); see 004 [4.2] A.4 and 004 [5.13] again") == \
        ["004 [5.13]", "004 [13.14]", "004 [4.2]"]
    assert rule_cases("004 [17.0] postal [11.0], The Bell #3") == ["004 [17.0]"]
    assert rule_cases("no case here [5.5]") == []


def test_what_the_appendix_says_is_parametric_is_what_the_engine_leaves_unlisted():
    """OfferTrade is never listed (any offer passing the checks may be made): one that the
    engine accepts is not among the legal actions, while the answer to it is; and the
    parametric types are the three the engine's docstrings name."""
    g = Game.new(3, 1)
    lid = g.view("A")["hands"]["A"][0]
    offer = A.OfferTrade("A", "B", give_leaders=(lid,))
    assert g.is_legal(offer) and offer not in g.legal_actions("A")
    assert A.OfferTrade.LISTED.startswith("never")
    assert {cls.TYPE for cls in GAME_ACTIONS if cls.LISTED} == {"OfferTrade", "JoinCommittee", "DeclarePurge"}
    g.apply(offer)
    assert A.AcceptTrade("B", 1) in g.legal_actions("B")            # its answer is listed
