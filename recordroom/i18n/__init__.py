"""Every word a player reads, in each language the app speaks: the message catalogues.

One JSON file per language sits next to this module (``en.json``, ``zh-CN.json``) and is the only
source of the words: the server reads it here, the browser fetches the same file
(``GET /i18n/{lang}.json``) through ``web/common/i18n.js``. A catalogue is one flat object: a key
(``lobby.join``) maps to a message with ``{name}`` placeholders, or, when the words change with a
number, to an object of plural forms (``{"one": "{count} point", "other": "{count} points"}``)
chosen by the ``count`` parameter with the language's plural rule (English: one and other; Chinese:
other only). English is the reference: every other catalogue has exactly its keys and, in every
message, exactly its placeholders (``tests/i18n`` checks both).

Error messages are keyed ``error.<code>`` by the server's stable error code; the code itself never
changes with the language.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

DEFAULT = "en"
"""The language of a receiver that says nothing (or asks for one we do not have)."""

LANGUAGES: dict[str, str] = {"en": "English", "zh-CN": "简体中文"}
"""Each catalogue's tag and the name of the language in itself (what a language switch shows)."""

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")

Message = str | dict[str, str]


class CatalogueError(ValueError):
    """A catalogue file that is not a flat object of messages."""

    code = "i18n/catalogue"


@cache
def catalogue(lang: str) -> dict[str, Message]:
    """The messages of one language (``LANGUAGES``), read once."""
    if lang not in LANGUAGES:
        raise CatalogueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGUAGES)}")
    data: Any = json.loads((HERE / f"{lang}.json").read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise CatalogueError(f"{lang}.json is not a JSON object")
    for key, value in data.items():
        plural_ok = (
            isinstance(value, dict)
            and value
            and all(form in PLURAL_FORMS and isinstance(text, str) for form, text in value.items())
        )
        if not isinstance(value, str) and not plural_ok:
            raise CatalogueError(f"{lang}.json: {key!r} is neither a message nor plural forms")
    return data


PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")


def plural_form(lang: str, count: float) -> str:
    """The CLDR plural category of ``count`` for the integers and decimals our pages show."""
    if lang.startswith("zh"):
        return "other"
    return "one" if count == 1 else "other"


def supported(tag: str | None) -> str | None:
    """Our language for a BCP 47 tag (``zh``, ``zh-Hans-CN``, ``en-GB`` ...), or None."""
    if not tag:
        return None
    tag = tag.strip().replace("_", "-").lower()
    for lang in LANGUAGES:
        if tag == lang.lower():
            return lang
    primary = tag.split("-")[0]
    if primary == "zh":
        # Traditional Chinese readers can read our Simplified catalogue better than English.
        return "zh-CN"
    for lang in LANGUAGES:
        if lang.lower().split("-")[0] == primary:
            return lang
    return None


def negotiate(accept_language: str | None) -> str:
    """The language to answer in, from an ``Accept-Language`` header (quality values honoured)."""
    if not accept_language:
        return DEFAULT
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:32]):
        tag, _, params = part.partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if quality > 0:
            ranked.append((-quality, index, tag))
    for _, _, tag in sorted(ranked):
        lang = supported(tag)
        if lang is not None:
            return lang
    return DEFAULT


def chosen(asked: str | None, accept_language: str | None) -> str:
    """The receiver's language: the one a request asks for (``?lang=``) if it is one of ours,
    else the best of its ``Accept-Language``."""
    return supported(asked) or negotiate(accept_language)


def placeholders(message: Message) -> set[str]:
    """The placeholder names a message uses (every plural form together)."""
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def has(key: str, lang: str = DEFAULT) -> bool:
    """Whether a catalogue holds ``key``."""
    return key in catalogue(lang)


def t(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang`` (English when that language lacks it), filled in.

    A plural message picks its form by ``count``. A placeholder without a value stays as written,
    so a missing value shows rather than vanishing.
    """
    lang = lang if lang in LANGUAGES else DEFAULT
    message = catalogue(lang).get(key)
    if message is None:
        message = catalogue(DEFAULT).get(key)
    if message is None:
        return key
    if isinstance(message, dict):
        count = params.get("count", 0)
        form = plural_form(lang, count if isinstance(count, int | float) else 0)
        text = message.get(form) or message.get("other") or next(iter(message.values()))
    else:
        text = message

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        return str(params[name]) if name in params else match.group(0)

    return PLACEHOLDER.sub(fill, text)


def error_message(lang: str, code: str, fallback: str) -> str:
    """What an error with ``code`` says to a receiver reading ``lang``.

    English receivers get the server's own sentence (it names the limit or the field); others get
    the catalogue's sentence for the code, or the English one when the catalogue has none.
    """
    if lang == DEFAULT:
        return fallback
    key = f"error.{code}"
    return t(lang, key) if has(key, lang) else fallback
