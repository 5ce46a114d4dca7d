"""Pages of a long list (issue 27, defect 4: a 100,000-event game made a
28–50 MB game page and a 13 MB events answer).

Two conventions, one per kind of reader:

- the game page (HTML) shows its move list and its findings one page at a
  time: ``moves_page=P`` / ``findings_page=P`` (1-based) and
  ``moves_size=N`` / ``findings_size=N`` (:data:`MOVES` and
  :data:`FINDINGS`: default and cap); the move list's default page is the
  one holding ``at``, the findings' the first (:func:`html_window`);
- the JSON API pages as ``/api/games/<id>/audit`` does: ``?offset=N``
  (default 0) and ``?limit=M`` (default and cap per list, :data:`EVENTS` and
  :data:`API_FINDINGS`); an answer that names a page, or whose list is longer
  than one page, carries ``total``, ``offset`` and ``limit``, and while items
  remain a ``Link: <…>; rel="next"`` header (:func:`api_page`). A list of
  one page asked for without paging is answered exactly as before.

A size, page, offset or limit out of range is a 400 naming the parameter
and what is allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from flask import Response, abort, jsonify, request

from replay_web.lang import gettext as _
from replay_web.params import int_arg

#: ``(default, cap)`` items per page: the game page's move list and findings
MOVES = (500, 2000)
FINDINGS = (100, 1000)
#: ``(default, cap)`` of the API's events (``/api/games/<id>``) and findings (``/audit``)
EVENTS = (1000, 10_000)
API_FINDINGS = (1000, 10_000)


@dataclass(frozen=True)
class Window:
    """Page ``page`` (1-based) of ``size`` items of a list of ``total``:
    items ``start`` to ``stop - 1``."""

    total: int
    size: int
    page: int

    @property
    def pages(self) -> int:
        """How many pages (at least 1, for an empty list)."""
        return max(1, -(-self.total // self.size))

    @property
    def start(self) -> int:
        return (self.page - 1) * self.size

    @property
    def stop(self) -> int:
        return min(self.start + self.size, self.total)

    @property
    def prev(self) -> int | None:
        """The previous page's number, None on the first."""
        return self.page - 1 if self.page > 1 else None

    @property
    def next(self) -> int | None:
        """The next page's number, None on the last."""
        return self.page + 1 if self.page < self.pages else None


def _size(args: Mapping[str, str], name: str, limits: tuple[int, int]) -> int:
    value = int_arg(args, name)
    if value is None:
        return limits[0]
    if not 1 <= value <= limits[1]:
        abort(
            400, description=_("%(name)s=%(value)s: give 1 to %(cap)s per page", name=name, value=value, cap=limits[1])
        )
    return value


def html_window(
    args: Mapping[str, str], name: str, total: int, limits: tuple[int, int], holding: int | None = None
) -> Window:
    """The page of the list ``name`` (``moves`` or ``findings``) the game page
    shows: ``<name>_size`` items (``limits``: default, cap) of page
    ``<name>_page``, by default the page holding item ``holding`` (else the
    first). 400 for a size past the cap or a page past the last."""
    size = _size(args, f"{name}_size", limits)
    page = int_arg(args, f"{name}_page")
    pages = Window(total, size, 1).pages
    if page is None:
        page = 1 if holding is None else min(holding // size + 1, pages)
    if not 1 <= page <= pages:
        abort(400, description=_("%(name)s=%(value)s: pages 1–%(pages)s", name=f"{name}_page", value=page, pages=pages))
    return Window(total, size, page)


def pager(window: Window, name: str, url: Any) -> dict[str, Any] | None:
    """What the page's pager of list ``name`` shows, None for a list of one
    page: ``{page, pages, first, last, total, prev, next}``, ``first`` and
    ``last`` the item numbers shown, ``prev``/``next`` the links (None at an
    end) made by ``url(**{f"{name}_page": n, f"{name}_size": size})``."""
    if window.pages == 1:
        return None
    keep = {} if window.size == (MOVES if name == "moves" else FINDINGS)[0] else {f"{name}_size": window.size}

    def link(page: int | None) -> str | None:
        return None if page is None else url(**{f"{name}_page": page, **keep})

    return {
        "page": window.page,
        "pages": window.pages,
        "first": window.start,
        "last": window.stop - 1,
        "total": window.total,
        "prev": link(window.prev),
        "next": link(window.next),
    }


@dataclass(frozen=True)
class Slice:
    """What an API request asks of a list of ``total`` items: items
    ``start`` to ``start + size - 1``; ``whole``: no page named and the list
    fits the default page (answered exactly as before paging)."""

    total: int
    start: int
    size: int
    whole: bool

    @property
    def stop(self) -> int:
        return min(self.start + self.size, self.total)


def api_slice(total: int, key: str, limits: tuple[int, int]) -> Slice:
    """The request's ``?offset=`` (default 0) and ``?limit=`` (``limits``:
    default and cap) over a list ``key`` of ``total`` items; 400 for a limit
    outside 1..cap or a negative offset."""
    offset = int_arg(request.args, "offset")
    limit = int_arg(request.args, "limit")
    if limit is not None and not 1 <= limit <= limits[1]:
        abort(400, description=f"limit={limit}: give 1 to {limits[1]:,} {key} per page")
    if offset is not None and offset < 0:
        abort(400, description=f"offset={offset}: give 0 or more")
    size = limits[0] if limit is None else limit
    return Slice(total, offset or 0, size, offset is None and limit is None and total <= size)


def api_answer(body: dict[str, Any], key: str, part: Slice) -> Response:
    """The JSON answer: ``body`` (its ``key`` already cut to ``part``) plus,
    unless ``part.whole``, ``total``, ``offset`` and ``limit`` and, while
    items remain, ``Link: <path?…offset=next…>; rel="next"``."""
    if part.whole:
        return jsonify(body)
    response = jsonify({**body, "total": part.total, "offset": part.start, "limit": part.size})
    if part.start + part.size < part.total:
        args = {**request.args.to_dict(), "offset": str(part.start + part.size), "limit": str(part.size)}
        response.headers["Link"] = f'<{request.path}?{urlencode(args)}>; rel="next"'
    return response


def api_page(body: dict[str, Any], key: str, limits: tuple[int, int]) -> Response:
    """:func:`api_answer` of ``body`` with its whole list ``body[key]`` cut to the request's page."""
    part = api_slice(len(body[key]), key, limits)
    return api_answer({**body, key: body[key][part.start : part.stop]}, key, part)
