"""Italian and English for every human text (the command line, the viewer,
the dispute report): one gettext catalog read with Babel, two layers.

The catalog is ``ledger/translations/<lang>/LC_MESSAGES/ledger.po`` (domain
``ledger``). English is the source language (its msgids are the English
text: ``en`` needs no catalog). The ``.po`` file kept in git is compiled in
memory on first use (:func:`babel.messages.mofile.write_mo`), so there is
no build step and no stale ``.mo``. One ``babel.cfg`` at the root of the
checkout reads every module of ``ledger/`` and ``replay_web/`` and the
viewer's templates; its first lines are the two commands that keep the
catalog in step with the sources::

    pybabel extract -F babel.cfg -k N_ -k C_:1c,2 --no-location --sort-output --no-wrap -o /tmp/ledger.pot .
    pybabel update -D ledger -i /tmp/ledger.pot -d ledger/translations --no-fuzzy-matching --ignore-obsolete --no-wrap

A msgid is in the catalog once. The layers (:data:`LAYERS`) differ only
where the viewer words a msgid otherwise than the command line: such a
msgid has a second entry in the msgctxt ``"viewer"`` (:data:`VIEWER`),
marked at the viewer's call sites with :func:`C_`. ``translations(lang,
"viewer")`` reads that entry first and the one without a context else;
``translations(lang)`` (the command line's, and the words the viewer shares
with it: the notation, the findings) never reads it.

Only human output is translated: never ``--json``, rule ids, event types or
the record format. Messages are data (:mod:`ledger.texts`: a msgid and its
params, English ``msgid % params``) rendered where they are shown with the
translations object of this module; the rendering functions stay pure
(English by default). The language is ``--lang``, else the locale variables
(:func:`env_lang`); the viewer's is the page's (:mod:`replay_web.lang`).

>>> choose_lang("it_IT.UTF-8"), choose_lang("en-GB"), choose_lang("fr"), choose_lang("C"), choose_lang(None)
('it', 'en', None, None, None)
>>> env_lang({"LANG": "it_IT.UTF-8"}), env_lang({"LC_ALL": "C", "LANG": "it_IT.UTF-8"}), env_lang({})
('it', 'en', 'en')
>>> translations("it").gettext("hand over"), translations("it").gettext("stalled")
('smazzata finita', 'bloccata')
>>> translations("it", "viewer").gettext("stalled"), translations("it", "viewer").gettext("stock")
('gioco bloccato', 'tallone')
"""

from __future__ import annotations

import io
import os
import threading
from collections.abc import Mapping
from functools import cache
from gettext import NullTranslations
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from babel.support import Translations

#: languages of the human output: English (the source) and Italian
LANGUAGES: tuple[str, ...] = ("en", "it")
DEFAULT_LANG = "en"
#: the gettext domain of the one catalog
DOMAIN = "ledger"
#: where the catalog of each language lives (``<lang>/LC_MESSAGES/ledger.po``)
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"
#: the locale variables, in the order POSIX gives them precedence for messages
LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: who reads the catalog: the command line (and the words shared with it), the viewer
Layer = Literal["cli", "viewer"]
LAYERS: tuple[Layer, ...] = ("cli", "viewer")
#: the msgctxt of the viewer's own wording of a msgid the command line words otherwise
VIEWER = "viewer"
#: how :func:`translations` names the layer that refuses a language
_SPEAKER: dict[str, str] = {"cli": "the command line speaks", "viewer": "the report is in"}

_lock = threading.Lock()


def N_(msgid: str) -> str:
    """Marks ``msgid`` for the catalog (``pybabel extract -k N_``); the text
    itself, translated where it is shown."""
    return msgid


def C_(context: str, msgid: str) -> str:
    """Marks ``msgid`` in the msgctxt ``context`` for the catalog (``pybabel
    extract -k C_:1c,2``): :data:`VIEWER` for the viewer's own wording (read
    first by ``translations(lang, "viewer")``), or a context read with
    ``pgettext``. The msgid itself, translated where it is shown.

    >>> C_("viewer", "stalled")
    'stalled'
    """
    return msgid


def choose_lang(value: str | None) -> str | None:
    """The language named by ``value`` (``it``, ``it_IT.UTF-8``, ``en-GB``,
    ``it@euro``…), or None when it names none of :data:`LANGUAGES` (``C``, ``POSIX``, ``fr``)."""
    if not value:
        return None
    code = value.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else None


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale variables ask for: the first set one of
    :data:`LOCALE_VARS` decides (``LANGUAGE`` may list several, ``it:en``);
    Italian for ``it_IT.*``, else English (``C``, another language, none)."""
    env = os.environ if environ is None else environ
    for var in LOCALE_VARS:
        value = env.get(var) or ""
        if not value:
            continue
        parts = value.split(":") if var == "LANGUAGE" else [value]
        for part in parts:
            lang = choose_lang(part)
            if lang:
                return lang
        if var != "LANGUAGE":  # LC_ALL=C (or fr_FR) overrides LANG, as gettext does
            return DEFAULT_LANG
    return DEFAULT_LANG


def po_path(lang: str) -> Path:
    """Where the catalog of ``lang`` lives (``ledger/translations/<lang>/LC_MESSAGES/ledger.po``)."""
    return TRANSLATIONS_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def compiled(lang: str, layer: Layer = "cli") -> Translations:
    """The catalog of ``lang`` compiled in memory for ``layer``: a new object
    on each call (:func:`translations` caches one). For the viewer, each
    translated msgid of the msgctxt :data:`VIEWER` stands in for its entry
    without a context. Raises ``FileNotFoundError`` when the catalog is missing."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    with _lock, po_path(lang).open("rb") as fp:
        catalog = read_po(fp, locale=lang, domain=DOMAIN)
    if layer == "viewer":
        for own in [m for m in catalog if m.context == VIEWER]:
            strings = own.string if isinstance(own.string, tuple) else (own.string,)
            if own.fuzzy or not all(strings):
                continue  # untranslated in the viewer's wording: the shared entry's
            shared = catalog.get(own.id)
            if shared is None:
                catalog.add(own.id, own.string, flags=own.flags)
            else:
                shared.string, shared.flags = own.string, set(own.flags)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@cache
def translations(lang: str, layer: Layer = "cli") -> NullTranslations:
    """The gettext translations of ``lang`` for ``layer`` (English: the msgids themselves).

    Raises ``ValueError`` for a language not in :data:`LANGUAGES` or a layer
    not in :data:`LAYERS`, ``FileNotFoundError`` when the catalog is missing.
    """
    if layer not in LAYERS:
        raise ValueError(f"layer {layer!r}: the catalog's layers are {', '.join(LAYERS)}")
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: {_SPEAKER[layer]} {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANG:
        return NullTranslations()
    return compiled(lang, layer)


__all__ = [
    "DEFAULT_LANG",
    "DOMAIN",
    "LANGUAGES",
    "LAYERS",
    "LOCALE_VARS",
    "TRANSLATIONS_DIR",
    "VIEWER",
    "C_",
    "Layer",
    "N_",
    "choose_lang",
    "compiled",
    "env_lang",
    "po_path",
    "translations",
]
