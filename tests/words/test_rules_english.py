"""Each refusal's and Cobra note's English lives in one place: its template beside its code in
the rules (`ENGLISH`). The command line and the journal fill it (`str(exc)`, `Note.text`), and
the catalogues' template (companion.pot) has it as its msgid, extracted by
`python3 run.py catalogues`; no raise site writes an English sentence of its own."""
from __future__ import annotations

import ast
import string
from pathlib import Path

import cobi_companion.cards as cards_package
import cobi_companion.device as device_package
import cobi_companion.rules as rules_package
import pytest
from cobi_companion.rules.cobra.notes import Note, Why
from cobi_companion.rules.english import Word, fill
from cobi_companion.rules.errors import Coded, Refusal, RulesError
from cobi_companion.rules.tank.refusals import TankRefusal
from cobi_companion.words import compile as catalogues
from cobi_companion.words import extract

CODES: list[Coded] = [code for enum in extract.enums() for code in enum]
RULES = Path(rules_package.__file__).parent
# Where each enum's templates are written, by the enum's name.
DECLARED = {"Refusal": RULES / "errors.py", "EasyRefusal": RULES / "easy" / "refusals.py",
            "TankRefusal": RULES / "tank" / "refusals.py",
            "CobraRefusal": RULES / "cobra" / "refusals.py", "Why": RULES / "cobra" / "notes.py"}


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def written(enum: str) -> list[str]:
    """The members named as keys of the `ENGLISH` dict in the enum's file, in order."""
    tree = ast.parse(DECLARED[enum].read_text(encoding="utf-8"))
    found = [node for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
             and isinstance(node.target, ast.Name) and node.target.id == "ENGLISH"]
    assert len(found) == 1, f"{DECLARED[enum]}: one ENGLISH, not {len(found)}"
    given = found[0].value
    assert isinstance(given, ast.Call) and isinstance(given.args[0], ast.Dict)
    return [key.attr for key in given.args[0].keys if isinstance(key, ast.Attribute)
            and isinstance(key.value, ast.Name) and key.value.id == enum]


@pytest.mark.parametrize("enum", extract.enums(), ids=lambda e: e.__name__)
def test_every_code_has_exactly_one_english_template(enum: type[Coded]) -> None:
    keys = written(enum.__name__)
    assert sorted(keys) == sorted(code.name for code in enum)        # each once, none else
    assert all(code.english.strip() for code in enum)


@pytest.mark.parametrize("code", CODES, ids=lambda c: f"{type(c).__name__}.{c.name}")
def test_a_template_names_exactly_the_values_its_code_comes_with(code: Coded) -> None:
    assert placeholders(code.english) == set(code.names)


def test_the_catalogues_template_has_the_rules_english() -> None:
    template = catalogues.read(catalogues.template_path())
    pot = {entry.context: entry.msgid for entry in template.entries
           if entry.context.startswith(("refusal_", "note_"))}
    assert pot == extract.messages(), \
        "a template of the rules changed: run `python3 run.py catalogues` to extract it"


def test_extracting_again_changes_nothing() -> None:
    template = catalogues.read(catalogues.template_path())
    assert extract.po.write(extract.extracted(template)) == extract.po.write(template)


def test_extraction_takes_a_changed_english_and_keeps_the_comments() -> None:
    template = catalogues.read(catalogues.template_path())
    key = extract.key_of(Refusal.NO_SUCH_PIECE)
    for entry in template.entries:
        if entry.context == key:
            entry.msgid = "an old English"
    split = extract.key_of(Why.SPLIT_RESULT)
    template.entries = [e for e in template.entries if e.context != split]
    template.entries.append(extract.po.Entry("refusal_gone", "a code no longer raised", ""))
    again = extract.extracted(template).by_context()
    assert again[key].msgid == Refusal.NO_SUCH_PIECE.english
    assert again[split].msgid == Why.SPLIT_RESULT.english
    assert "refusal_gone" not in again
    assert again[extract.key_of(Refusal.SQUAD_NEEDS_FIGURE)].comments == \
        ["the battle, the cards and the rules levels"]


# ---- no English written at a raise site ----

REFUSERS = {"RulesError", "CardValueMissing", "MissingValue", "BandOverlap", "Note"}
CODE_ENUMS = {"Refusal", "EasyRefusal", "TankRefusal", "CobraRefusal", "Why"}
SOURCES = [*RULES.rglob("*.py"), *Path(cards_package.__file__).parent.rglob("*.py"),
           *Path(device_package.__file__).parent.rglob("*.py")]


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr \
        if isinstance(func, ast.Attribute) else ""


def _coded(arg: ast.expr) -> bool:
    """A code: Refusal.X (or a game's, or Why.X), a code read back (Why(saved)), or a name
    that holds one (`code`, `why`)."""
    if isinstance(arg, ast.Attribute | ast.Call):
        named = arg.value if isinstance(arg, ast.Attribute) else arg.func
        return isinstance(named, ast.Name) and named.id in CODE_ENUMS
    return isinstance(arg, ast.Name)


def _sentence(arg: ast.expr) -> bool:
    """An English sentence written in place: a str, an f-string, or one joined to either."""
    if isinstance(arg, ast.BinOp):
        return _sentence(arg.left) or _sentence(arg.right)
    return isinstance(arg, ast.JoinedStr) or (isinstance(arg, ast.Constant)
                                             and isinstance(arg.value, str))


def refusing_calls() -> list[tuple[str, ast.Call]]:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [(f"{path.relative_to(RULES.parent)}:{node.lineno}", node)
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Call) and _called(node) in REFUSERS]
    return found


def test_a_refusal_or_a_note_is_made_from_its_code_first_and_no_sentence() -> None:
    calls = refusing_calls()
    assert len(calls) > 250                      # the rules' raise sites are all read
    wrong = [where for where, call in calls
             if (_called(call) != "CardValueMissing"
                 and not (call.args and _coded(call.args[0])))
             or any(_sentence(arg) for arg in call.args)]
    assert wrong == []


# ---- the rules' plain English ----

@pytest.mark.parametrize(("template", "values", "said"), [
    ("{name} has {figures:figure|figures}", {"name": "Rifle 1", "figures": 1},
     "Rifle 1 has 1 figure"),
    ("{figures:figure|figures}", {"figures": 3}, "3 figures"),
    ("{cm} cm, {n}, {c:+d}", {"cm": 30.5, "n": 4, "c": -2}, "30.5 cm, 4, -2"),
    ("{cm} cm", {"cm": 100.0}, "100 cm"),
    ("{labels} / {labels:and}", {"labels": ("a", "b", "c")}, "a, b, c / a, b and c"),
    ("{labels:and}", {"labels": ("a",)}, "a"),
    ("{labels}", {"labels": ()}, "none"),
    ("card{source}: x", {"source": "x.toml"}, "card (x.toml): x"),
    ("card{source}: x", {"source": ""}, "card: x"),
    ("{field:key} ({field})", {"field": Word("armour_side", "side armour")},
     "armour_side (side armour)"),
    ("{side} {side:key}", {"side": "axis"}, "axis axis"),
])
def test_the_english_formatter(template: str, values: dict[str, object], said: str) -> None:
    assert fill(template, values) == said  # type: ignore[arg-type]


def test_a_refusal_says_its_code_english_filled() -> None:
    refused = RulesError(TankRefusal.TOO_MANY_UNDER, label="Rifle 2", left=1, count=3)
    assert str(refused) == "Rifle 2 has 1 figure left: 3 cannot be under the tank"
    assert refused.code is TankRefusal.TOO_MANY_UNDER
    assert refused.values == {"label": "Rifle 2", "left": 1, "count": 3}


def test_a_note_says_its_code_english_filled() -> None:
    note = Note(Why.ATTRITION_STEPS, {"steps": 2})
    assert str(note) == note.text == "Allied: lose 2 steps, no retreat; the German units are " \
        "not affected (17.3.2 step 4b4)"


def test_codes_of_two_enums_with_one_string_keep_their_own_english() -> None:
    from cobi_companion.rules.cobra.refusals import CobraRefusal
    assert Why.WITHDRAWAL_STEPS == CobraRefusal.WITHDRAWAL_STEPS       # the same str
    assert Why.WITHDRAWAL_STEPS.english != CobraRefusal.WITHDRAWAL_STEPS.english
