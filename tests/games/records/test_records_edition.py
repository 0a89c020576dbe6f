"""The standard edition loads into typed objects, and content errors name their entry."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from recordroom.games.records.edition import BONUSES, EditionError, load_edition, parse_edition


def standard_data() -> dict[str, Any]:
    path = resources.files("recordroom.games.records") / "editions" / "standard.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_standard_edition_shape() -> None:
    ed = load_edition()
    assert len(ed.cards) == 180
    assert [len(ed.deck_for(n)) for n in range(1, 7)] == [30, 60, 90, 120, 150, 180]
    roles = [s.role for s in ed.crew_slots]
    assert sorted(roles) == sorted([0] + [1] * 4 + [2] * 3 + [3] * 4)
    assert ed.goal_boxes == 6
    assert len(ed.goals) >= ed.public_goals + 12
    assert ed.agenda_boxes == 9


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["deck"]["crew"][3].update(role="drummer"),
            r"deck\.crew\[3\]\.role \(C004\): unknown role",
        ),
        (lambda d: d["deck"]["crew"][0].update(sides=["red"]), r"deck.crew\[0\].*sides"),
        (
            lambda d: d["goals"]["cards"][1].update(kind="luck"),
            r"goals\.cards\[1\]\.kind \(G02\): unknown goal kind",
        ),
        (lambda d: d["crew"]["slots"][2].update(bonus="gold"), r"crew.slots\[2\].*bonus"),
        (lambda d: d["tour"]["steps"][0].update(points="x"), r"tour.steps\[0\].*points"),
        (lambda d: d["assets"].update(bonuses=["album"]), r"assets.bonuses"),
        (lambda d: d["deck"]["agenda"].pop(), r"deck.*players = 6"),
        (lambda d: d["deck"]["asset"][0].update(id="C001"), r"duplicate card id"),
        (lambda d: d["harmonies"]["bonus_boxes"][0].update(colour="pink"), r"bonus_boxes\[0\]"),
        (lambda d: d["agenda"]["lines"][0].update(boxes=[0, 1, 99]), r"agenda.lines\[0\]"),
    ],
)
def test_content_errors_name_the_entry(change: Any, message: str) -> None:
    data = standard_data()
    change(data)
    with pytest.raises(EditionError, match=message):
        parse_edition(data, "standard.toml")


def test_unknown_edition() -> None:
    with pytest.raises(EditionError):
        load_edition("no_such_edition")


def test_the_edition_page_lists_the_goal_cards_as_the_data_has_them() -> None:
    """docs/records-edition.md's goal table: each card's name, count, points and bonus."""
    ed = load_edition()
    page = Path(__file__).parents[3] / "docs" / "records-edition.md"
    rows = {}
    for line in page.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.fullmatch(r"G\d\d", cells[0]):
            rows[cells[0]] = cells
    listed = [g for g in ed.goals if g.id in rows]
    assert len(listed) >= len(ed.goals) - 4  # one row covers the four colour goals
    for g in listed:
        _, name, condition, points, bonus = rows[g.id]
        assert name == g.name, g.id
        assert str(g.n) in re.findall(r"\d+", condition), g.id
        assert int(points) == g.points, g.id
        assert bonus == ("" if g.bonus < 0 else BONUSES[g.bonus]), g.id
