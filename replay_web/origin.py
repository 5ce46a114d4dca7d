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
    is foreign; a request without the header (no browser sends a form
    without it) is left to the CSRF token. The bearer-token write API is
    exempt, as from the CSRF check: it reads no cookie."""
    if request.method not in current_app.config["WTF_CSRF_METHODS"] or request.blueprint == "write":
        return
    origin = request.headers.get("Origin")
    if origin is None:
        return
    try:
        host = urlsplit(origin).netloc.lower()
    except ValueError:
        host = ""
    if host != request.host.lower():
        raise CSRFError("The Origin header does not match the host.")


__all__ = ["same_origin"]
