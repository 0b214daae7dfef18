"""Every rule case of the multi-player game (004 [1.0]-[16.0]) is cited by a test or listed
with the reason it needs none (tests/rules_coverage.py); the list of cases is the rulebook's
own; docs/rules-coverage.md shows the matrix."""

from __future__ import annotations

import pytest
import rules_coverage as rc


def test_every_rule_case_is_cited_by_a_test_or_has_a_reason():
    missing = rc.uncovered(rc.matrix())
    assert not missing, ("rule cases neither cited by a test nor given a reason in tests/rules_coverage.py: "
                         + ", ".join(f"[{c}]" for c in missing))


def test_every_optional_rule_paragraph_is_cited_by_a_test_or_has_a_reason():
    """The optional rules and variants that are game options (001 Anarchists ... ): each
    paragraph is cited by a test or has a reason (tests/rules_coverage.py OPTIONAL_CASES)."""
    names = [c for c, _ in rc.OPTIONAL_CASES]
    assert len(set(names)) == len(names) and set(rc.OPTIONAL_REASONS) <= set(names)
    missing = rc.uncovered(rc.optional_matrix())
    assert not missing, ("optional rule paragraphs neither cited by a test nor given a reason in "
                         "tests/rules_coverage.py: " + ", ".join(missing))


def test_optional_citations_take_the_longest_name(tmp_path):
    (tmp_path / "test_y.py").write_text(
        "def test_a():\n"
        "    '001 Anarchists: Roving Attack, and 001 Anarchists: an option.'\n"
        "def test_b():\n"
        '    """001 Anarchists:\n'
        '    Roving Attack (broken over two lines)"""\n')
    cites = rc.optional_citations(tmp_path, [("001 Anarchists", ""), ("001 Anarchists: Roving Attack", "")])
    assert cites == {"001 Anarchists: Roving Attack": ["test_y.py::test_a", "test_y.py::test_b"],
                     "001 Anarchists": ["test_y.py::test_a"]}


def test_the_optional_rules_source_holds_every_optional_case():
    """Each 001 case opens with words printed in 001 (the player's summary among the sources)."""
    book = rc.find_rulebook()
    if book is None:
        pytest.skip("the sources are not at hand; set RCW_RULEBOOK")
    text = " ".join((book.parent / "001_15dc9e1e22e59bcb.txt").read_text(encoding="utf-8").replace("*", "").split())
    for name, words in rc.OPTIONAL_CASES:
        if name.startswith("001 "):
            for part in words.split(" ... "):       # (an elision in the opening words)
                assert " ".join(part.split()) in text, name


def test_an_optional_paragraph_is_cited_by_its_whole_id(tmp_path):
    (tmp_path / "test_y.py").write_text(
        "def test_a():\n"
        "    'The 001 No Leader Suicide 2 D, and 004 Masses [13.51]; 004 Masses [8.3] is not 004 [8.31].'\n"
        "def test_b():\n"
        "    'The 001 \"No Leader Suicide 2\": quoted.'\n")
    got = {r["case"]: r["tests"] for r in rc.optional_matrix(tmp_path)}
    assert got["001 No Leader Suicide 2 D"] == ["test_y.py::test_a"]
    assert got["001 No Leader Suicide 2"] == ["test_y.py::test_b"]
    assert got["004 Masses [13.51]"] == ["test_y.py::test_a"] and got["004 Masses [13.5]"] == []
    assert set(rc.citations(tmp_path)) == {"8.31"}           # (not 004 [8.3]: the Masses' own)


def test_reasons_name_listed_cases_only():
    cases = [c for c, _ in rc.CASES]
    assert len(set(cases)) == len(cases)
    assert set(rc.REASONS) <= set(cases)
    assert all(r.strip() for r in rc.REASONS.values())


def test_the_case_list_is_the_rulebooks():
    book = rc.find_rulebook()
    if book is None:
        pytest.skip("the rulebook (004_8c1b9ecc5e5ea495.txt) is not at hand; set RCW_RULEBOOK")
    assert rc.rulebook_cases(book) == [c for c, _ in rc.CASES]


def test_citations_are_found_in_names_docstrings_and_rule_strings(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "# -- section (004 [5.24])\n"
        "def test_5_11_name():\n"
        "    '''004 [8.42].'''\n"
        "    refused(g, a, \"004 [10.13]\")   # and 001 [5.12], postal [5.0] are not 004 cases\n"
        "def helper():\n"
        "    '004 [9.11]'\n")
    cites = rc.citations(tmp_path)
    assert set(cites) == {"5.24", "5.11", "8.42", "10.13"}
    assert cites["8.42"] == ["test_x.py::test_5_11_name"]


def test_the_coverage_document_lists_every_case():
    text = rc.DOC.read_text(encoding="utf-8")
    for c, _ in rc.CASES:
        assert f"| [{c}] |" in text, f"docs/rules-coverage.md lacks [{c}]: run python tests/rules_coverage.py --write"
    for c, _ in rc.OPTIONAL_CASES:
        assert f"| {c} |" in text, f"docs/rules-coverage.md lacks {c}: run python tests/rules_coverage.py --write"


def test_every_postal_rule_case_is_cited_by_a_test():
    """004 [17.0]: the postal game's general rule and each of its rule changes are cited."""
    missing = rc.uncovered(rc.postal_matrix())
    assert not missing, "postal rule cases no test cites: " + ", ".join(f"postal [{c}]" for c in missing)


def test_the_postal_case_list_is_the_rulebooks():
    book = rc.find_rulebook()
    if book is None:
        pytest.skip("the rulebook (004_8c1b9ecc5e5ea495.txt) is not at hand; set RCW_RULEBOOK")
    assert rc.rulebook_postal_cases(book) == [c for c, _ in rc.POSTAL_CASES]


def test_postal_citations_are_found_apart(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "def test_postal_5_0_name():\n"
        "    '''004 [17.0] postal [8.0]; 004 [8.25].'''\n"
        "def test_other():\n"
        "    refused(g, a, \"004 [17.0]\")\n")
    assert set(rc.citations(tmp_path, postal=True)) == {"5.0", "8.0", "17.0"}
    assert set(rc.citations(tmp_path)) == {"8.25", "17.0"}


def test_the_coverage_document_lists_every_postal_case():
    text = rc.DOC.read_text(encoding="utf-8")
    for c, _ in rc.POSTAL_CASES:
        assert f"| postal [{c}] |" in text, f"docs/rules-coverage.md lacks postal [{c}]: run python tests/rules_coverage.py --write"
