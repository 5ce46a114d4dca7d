"""The viewer's forms take unsafe requests from this site only: the ``Origin`` check (issue 27, defect 7).

:func:`same_origin` runs before every request of the app (registered by
:func:`replay_web.desk.init_app`, beside Flask-WTF's CSRF check).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request
from flask_wtf.csrf import CSRFError


def same_origin() -> None:
    """Refuse (400, as a bad CSRF token is) an unsafe request of the viewer's
    forms whose ``Origin`` header names another site, whatever the scheme:
    Flask-WTF compares the ``Referer`` with the host over https only, so a
    foreign ``Origin`` over plain http reached the ruling forms (issue 27,
    defect 7). ``Origin: null`` (a sandboxed frame, a cross-site redirect)
    is foreign, and so is this host under another scheme (an
    ``https://`` origin on a plain-http server: another origin, RFC 6454;
    behind a TLS proxy, ``SESSION_COOKIE_SECURE=True`` says the pages are
    https). A request without the header (no browser sends a form
    without it) is left to the CSRF token. The bearer-token write API is
    exempt, as from the CSRF check: it reads no cookie."""
    if request.method not in current_app.config["WTF_CSRF_METHODS"] or request.blueprint == "write":
        return
    origin = request.headers.get("Origin")
    if origin is None:
        return
    try:
        parts = urlsplit(origin)
        scheme, host = parts.scheme.lower(), parts.netloc.lower()
    except ValueError:
        scheme, host = "", ""
    if host != request.host.lower() or scheme != _scheme():
        raise CSRFError("The Origin header does not match the host.")


def _scheme() -> str:
    """The scheme of this site's pages: https when the request came over TLS or
    the server is configured behind a TLS proxy (``SESSION_COOKIE_SECURE``)."""
    return "https" if request.is_secure or current_app.config.get("SESSION_COOKIE_SECURE") else "http"


__all__ = ["same_origin"]
