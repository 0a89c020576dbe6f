"""The catalogues: the same keys in every language, the same placeholders, the plural forms each
language needs, a message for every error code, and the module's language choice and formatting."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from recordroom import i18n
from recordroom.engine import errors as engine_errors
from recordroom.server.protocol import ErrorCode

OTHERS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
WEB = Path(i18n.__file__).resolve().parent.parent / "web"


def test_every_language_has_every_key_and_no_other() -> None:
    reference = set(i18n.catalogue(i18n.DEFAULT))
    for lang in OTHERS:
        keys = set(i18n.catalogue(lang))
        assert not reference - keys, f"{lang} lacks {sorted(reference - keys)}"
        assert not keys - reference, f"{lang} has keys English lacks: {sorted(keys - reference)}"


@pytest.mark.parametrize("lang", OTHERS)
def test_placeholders_are_the_same_in_every_language(lang: str) -> None:
    english = i18n.catalogue(i18n.DEFAULT)
    different = {
        key: (sorted(i18n.placeholders(message)), sorted(i18n.placeholders(english[key])))
        for key, message in i18n.catalogue(lang).items()
        if key in english and i18n.placeholders(message) != i18n.placeholders(english[key])
    }
    assert not different, f"{lang}: placeholders differ from English: {different}"


@pytest.mark.parametrize("lang", list(i18n.LANGUAGES))
def test_plural_messages_have_the_forms_of_their_language(lang: str) -> None:
    needed = {"en": {"one", "other"}, "zh-CN": {"other"}}[lang]
    english = i18n.catalogue(i18n.DEFAULT)
    for key, message in i18n.catalogue(lang).items():
        if isinstance(english[key], dict):
            assert isinstance(message, dict), f"{lang}: {key} must be plural forms"
            assert set(message) == needed, f"{lang}: {key} has forms {sorted(message)}"
        else:
            assert isinstance(message, str), f"{lang}: {key} must be one message"


def test_the_checks_catch_a_missing_key_and_a_changed_placeholder(tmp_path: Path) -> None:
    """The two checks above on a broken pair of catalogues (so they can fail)."""
    en = {"a": "Hello {name}", "b": "Bye"}
    zh = {"a": "你好 {nom}"}
    assert set(en) - set(zh) == {"b"}
    assert i18n.placeholders(zh["a"]) != i18n.placeholders(en["a"])


def test_a_catalogue_that_is_not_flat_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "en.json").write_text(json.dumps({"a": {"nested": {"b": "c"}}}))
    monkeypatch.setattr(i18n, "HERE", tmp_path)
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(i18n.CatalogueError):
            i18n.catalogue("en")
    finally:
        monkeypatch.undo()
        i18n.catalogue.cache_clear()
    with pytest.raises(i18n.CatalogueError):
        i18n.catalogue("fr")


def error_codes() -> set[str]:
    server = {str(v) for k, v in vars(ErrorCode).items() if k.isupper() and isinstance(v, str)}
    engine = {
        cls.code
        for cls in vars(engine_errors).values()
        if isinstance(cls, type) and issubclass(cls, engine_errors.RulesError)
    }
    every = getattr(engine_errors, "Code", None)  # the one enum of codes, where there is one
    return server | engine | ({str(c) for c in every} if every is not None else set())


def test_every_error_code_has_a_message_in_every_language() -> None:
    for lang in i18n.LANGUAGES:
        missing = sorted(c for c in error_codes() if not i18n.has(f"error.{c}", lang))
        assert not missing, f"{lang}: no message for {missing}"


def test_game_terms_use_the_rulebooks_words() -> None:
    zh = i18n.catalogue("zh-CN")
    text = " ".join(v if isinstance(v, str) else " ".join(v.values()) for v in zh.values())
    for term in [
        "作废",
        "目标",
        "日程",
        "发行",
        "乐团成员",
        "巡演",
        "乘数",
        "资产",
        "和声",
        "周末",
    ]:
        assert term in text, term


def test_every_key_the_pages_use_is_in_the_catalogue() -> None:
    """Keys written literally in the pages (data-i18n attributes and t("...") calls) exist."""
    english = i18n.catalogue(i18n.DEFAULT)
    pattern = re.compile(
        r"""data-i18n(?:-html)?="([^"]+)"|\b(?:t|plural)\(\s*["']([a-z][\w./-]*)["']"""
    )
    attr = re.compile(r'data-i18n-attr="([^"]+)"')
    missing: set[str] = set()
    for path in WEB.rglob("*"):
        if path.suffix not in (".html", ".js"):
            continue
        text = path.read_text(encoding="utf-8")
        for match in pattern.finditer(text):
            key = match.group(1) or match.group(2)
            if key not in english:
                missing.add(f"{path.relative_to(WEB)}: {key}")
        for match in attr.finditer(text):
            for pair in match.group(1).split(";"):
                key = pair.split(":", 1)[1].strip()
                if key not in english:
                    missing.add(f"{path.relative_to(WEB)}: {key}")
    assert not missing, sorted(missing)


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("", "en"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"),
        ("zh-Hans-CN", "zh-CN"),
        ("zh-TW", "zh-CN"),
        ("en-GB,en;q=0.9", "en"),
        ("fr-FR, de;q=0.8", "en"),
        ("fr-FR, zh;q=0.5, en;q=0.4", "zh-CN"),
        ("en;q=0.3, zh-CN;q=0.9", "zh-CN"),
        ("zh;q=0, en", "en"),
        ("*", "en"),
    ],
)
def test_accept_language_picks_our_language(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_format_plural_and_placeholders() -> None:
    assert i18n.t("en", "common.points", count=1) == "1 point"
    assert i18n.t("en", "common.points", count=3) == "3 points"
    assert i18n.t("zh-CN", "common.points", count=1) == "1 分"
    assert i18n.t("zh-CN", "common.and_list", first="安、博", last="杰") == "安、博和杰"
    # An unknown language reads English; an unknown key shows itself; a missing value shows.
    assert i18n.t("xx", "common.points", count=2) == "2 points"
    assert i18n.t("en", "no.such.key") == "no.such.key"
    assert i18n.t("en", "common.and_list", first="A") == "A and {last}"


def test_error_messages_follow_the_receiver() -> None:
    assert i18n.error_message("en", "room/not_found", "no room ABCD") == "no room ABCD"
    assert i18n.error_message("zh-CN", "room/not_found", "no room ABCD") == "没有这个代码的房间。"
    assert i18n.error_message("zh-CN", "made/up", "as sent") == "as sent"
