"""The viewer's and the dispute report's language: the Flask edge of the
one catalog (:mod:`ledger.i18n`, ``ledger/translations``).

Text is looked up with :func:`viewer_translations`, the one catalog's
translations (``ledger.i18n.translations``): the viewer words every msgid as
the command line does (a second meaning of a word, ``hand`` as a smazzata,
is the msgctxt :data:`ledger.i18n.DEAL`, read with ``pgettext``).
Italian uses the federations' words: smazzata (hand), tallone (stock), pozzo
/ monte degli scarti (discard pile), pozzetto, pinella, calata (meld),
chiusura (going out), arbitro, penalità.

In the viewer (:func:`init_app`): the page's language is ``?lang=it|en``
(sticky: every ``url_for`` link of that page carries it), else the best of
the browser's ``Accept-Language``, else English; another ``lang`` is 400.
Templates call ``_()`` / ``ngettext()`` / ``pgettext()`` (Jinja's i18n
extension, new style: ``_("hand %(n)s", n=3)``); Python code calls
:func:`gettext` / :func:`ngettext` of this module, which read the request's
language. HTML pages answer with ``Content-Language`` and ``Vary:
Accept-Language``; the JSON API stays English.

>>> viewer_translations("it").gettext("stock"), viewer_translations("it").pgettext("a deal of the game", "hand")
('tallone', 'smazzata')
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from gettext import NullTranslations
from typing import TYPE_CHECKING, Any, Protocol, cast

from ledger.i18n import DEFAULT_LANG, LANGUAGES, N_, choose_lang, compiled, translations

if TYPE_CHECKING:
    from flask import Flask, Response

#: names of the languages, each in its own language (the header's switch)
LANGUAGE_NAMES = {"en": "English", "it": "Italiano"}


#: Werkzeug's titles of the HTTP errors the viewer's pages answer with (error.html)
HTTP_TITLES = (
    N_("Bad Request"),
    N_("Unauthorized"),
    N_("Forbidden"),
    N_("Not Found"),
    N_("Method Not Allowed"),
    N_("Conflict"),
    N_("Request Entity Too Large"),
    N_("Unprocessable Record"),
    N_("Internal Server Error"),
    N_("Service Unavailable"),
)


def viewer_translations(lang: str) -> NullTranslations:
    """The viewer's gettext translations of ``lang``: :func:`ledger.i18n.translations`
    (cached there).

    Raises ``ValueError`` for a language not in :data:`~ledger.i18n.LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the report is in {', '.join(LANGUAGES)}")
    return translations(lang)


@cache
def form_translations(lang: str) -> NullTranslations:
    """WTForms' own messages (``This field is required.``, ``Number must be
    between %(min)s and %(max)s.``…) in ``lang``, for the viewer's forms
    (:mod:`replay_web.desk`): this catalog's wording where it has the
    message, else WTForms' catalog of ``lang`` (``wtforms/locale``, read by
    :func:`wtforms.i18n.get_builtin_gnu_translations`). English: the
    messages as WTForms writes them.

    Raises ``ValueError`` for a language not in :data:`LANGUAGES`.

    >>> form_translations("it").gettext("This field is required.")
    'Questo campo è obbligatorio.'
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: the viewer is in {', '.join(LANGUAGES)}")
    if lang == DEFAULT_LANG:
        return NullTranslations()
    from wtforms.i18n import get_builtin_gnu_translations

    own = compiled(lang)
    own.add_fallback(get_builtin_gnu_translations([lang]))
    return own


# --- the viewer's request language ------------------------------------------------


def current_lang() -> str:
    """The language of the request being served (English outside a request)."""
    from flask import g, has_request_context

    if not has_request_context():
        return DEFAULT_LANG
    lang: str = g.get("lang", DEFAULT_LANG)
    return lang


def gettext(text: str, **variables: Any) -> str:
    """``text`` in the request's language, ``%(name)s`` filled from ``variables``."""
    out = viewer_translations(current_lang()).gettext(text)
    return out % variables if variables else out


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural of the request's language; ``%(num)s`` is ``num``."""
    out = viewer_translations(current_lang()).ngettext(singular, plural, num)
    return out % {"num": num, **variables}


def request_lang() -> tuple[str, str | None]:
    """``(lang, sticky)`` of the request: ``?lang=it|en`` (then also
    ``sticky``, kept on the page's links), else the browser's
    ``Accept-Language``, else English. Another ``lang`` value aborts with 400."""
    from flask import abort, request

    raw = request.args.get("lang")
    if raw:
        if raw not in LANGUAGES:
            abort(400, description=f"lang={raw!r}: the viewer is in {' or '.join(LANGUAGES)}")
        return raw, raw
    best = request.accept_languages.best_match(LANGUAGES)
    return (choose_lang(best) or DEFAULT_LANG), None


def _html_request() -> bool:
    from flask import request

    return not request.path.startswith("/api/") and request.endpoint != "static"


def lang_url(lang: str) -> str:
    """The page being shown, in ``lang`` (the header's language switch).

    A page answering a POST cannot be asked for again: the switch goes to
    the page it sends the reader back to when it names one (``g.lang_back``,
    ``(endpoint, values)``: the stale ruling's 409 goes to the game at that
    position, the ruling filled in; issue 26), else to the games list."""
    from flask import g, request, url_for

    if request.endpoint is None or request.method != "GET":
        back = g.get("lang_back")
        if back is not None:
            endpoint, target = back
            return url_for(endpoint, **{**target, "lang": lang})
        return url_for("games.games_list", lang=lang)
    values: dict[str, Any] = {
        **(request.view_args or {}),
        **{k: v for k, v in request.args.items() if k != "lang"},
        "lang": lang,
    }
    return url_for(request.endpoint, **values)


class _I18nEnvironment(Protocol):
    """A Jinja environment with the i18n extension added: the method it
    installs (not on :class:`jinja2.Environment`'s type)."""

    def install_gettext_callables(
        self,
        gettext: Callable[[str], str],
        ngettext: Callable[[str, str, int], str],
        newstyle: bool | None = None,
        pgettext: Callable[[str, str], str] | None = None,
    ) -> None: ...


def init_app(app: Flask) -> None:
    """The request language on ``app``: chosen before each page, kept on
    its links, said in the response headers, and ``_`` / ``ngettext`` /
    ``pgettext`` in its templates (Jinja's i18n extension, new style). The
    templates' word filters are :func:`replay_web.words.init_app`'s."""
    from flask import g, has_app_context

    app.jinja_env.add_extension("jinja2.ext.i18n")
    cast(_I18nEnvironment, app.jinja_env).install_gettext_callables(
        lambda s: viewer_translations(current_lang()).gettext(s),
        lambda s, p, n: viewer_translations(current_lang()).ngettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: viewer_translations(current_lang()).pgettext(c, s),
    )

    @app.before_request
    def _choose() -> None:
        if _html_request():
            g.lang, g.lang_sticky = request_lang()

    @app.url_defaults
    def _sticky(endpoint: str, values: dict[str, Any]) -> None:
        sticky = g.get("lang_sticky") if has_app_context() else None
        if sticky and endpoint != "static" and not endpoint.startswith(("api.", "write.", "stream.")):
            values.setdefault("lang", sticky)

    @app.after_request
    def _headers(response: Response) -> Response:
        if _html_request() and response.mimetype == "text/html":
            response.headers["Content-Language"] = current_lang()
            response.vary.add("Accept-Language")
        return response

    app.jinja_env.globals.update(lang_url=lang_url, current_lang=current_lang, LANGUAGE_NAMES=LANGUAGE_NAMES)
