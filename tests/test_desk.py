"""The referee's desk (issue 16), server side: sign-in, the session cookie,
rulings through the viewer's forms with every refusal (status code, and
nothing stored), finding status in the viewer and in ``audit``, rewound
moves in the viewer and ``show``, and the score panel at a position.

A real SQLite store; the game is ``fixtures/burraco/dispute.jsonl`` up to
position 9 (unfinished, so rulings can still be appended): findings at 4
(ALL-MELD-1), 5 (BUR-PILE-1), 7 (BUR-TURN-1, Bruno's lay-off on Anna's
meld) and 8 (ALL-TURN-2, Bruno's second draw). Requests go through Flask's
test client with CSRF protection on, as in production.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ledger.audit import report
from ledger.cli import cli
from ledger.record_files import read_record
from ledger.replay import replay
from ledger.rulings import by_finding, rewound_by
from ledger.store.application import open_app
from ledger.tokens import TokenStore
from replay_web import create_app

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "burraco" / "dispute.jsonl"
GAME = "bur-dispute"
PREFIX = list(read_record(FIXTURE).events)[:10]


class Desk:
    def __init__(self, db: str, ledger: Any, tokens: dict[str, str], store: TokenStore) -> None:
        self.db, self.ledger, self.tokens, self.store = db, ledger, tokens, store
        self.app = create_app({"LEDGER_DB": db, "SPECTATOR_DELAY": 0})

    def client(self):  # type: ignore[no-untyped-def]
        return self.app.test_client()

    def length(self) -> int:
        return len(self.ledger.get_events(GAME))


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    db = str(tmp_path / "desk.db")
    ledger = open_app(db)
    ledger.append_events(GAME, PREFIX, expected=0, appended_by="test")
    store = TokenStore(ledger)
    tokens = {
        "referee": store.create("Rita Arbitro", "referee")[0],
        "recorder": store.create("Mario Rossi", "recorder")[0],
        "elsewhere": store.create("Gino", "referee", game="another-game")[0],
    }
    yield Desk(db, ledger, tokens, store)
    ledger.close()


def csrf_of(page: str) -> str:
    m = re.search(r'name="csrf_token"(?: type="hidden")? value="([^"]+)"', page)
    assert m, "no CSRF token in the page"
    return m.group(1)


def sign_in(client: Any, token: str) -> Any:
    page = client.get("/signin").get_data(as_text=True)
    return client.post("/signin", data={"csrf_token": csrf_of(page), "token": token, "next": f"/games/{GAME}"})


def page_csrf(client: Any) -> str:
    return csrf_of(client.get(f"/games/{GAME}").get_data(as_text=True))


def penalty(csrf: str | None, **over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"finding": 7, "expected": 10, "side": "seat:1", "points": -50, "rule": "BUR-TURN-1"}
    if csrf is not None:
        data["csrf_token"] = csrf
    data.update(over)
    return data


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def error_message(page: str) -> str:
    """The text of the error page's message."""
    m = re.search(r'<p class="error-message">(.*?)</p>', page, re.S)
    assert m, page
    return html.unescape(m.group(1))


def element(page: str, element_id: str) -> str:
    i = page.index(f'id="{element_id}"')
    start = page.rindex("<", 0, i)
    tag = page[start + 1 : i].split()[0]
    depth, j = 0, start
    for m in re.finditer(rf"<(/?){tag}\b", page[start:]):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            j = start + m.end()
            break
    return page[start : page.index(">", j) + 1]


# --- sign-in and the session cookie ------------------------------------------------


def test_signin_sets_a_strict_httponly_session_holding_no_token(desk: Desk) -> None:
    c = desk.client()
    resp = sign_in(c, desk.tokens["referee"])
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}"
    cookie = resp.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Secure" not in cookie
    secret = desk.tokens["referee"].split(".")[1]
    assert secret not in cookie  # the session holds the token's id, never the token
    page = c.get(f"/games/{GAME}").get_data(as_text=True)
    assert 'signed in as <b id="signed-in-name">Rita Arbitro</b> (referee)' in page


def test_session_cookie_is_secure_over_https(desk: Desk) -> None:
    c = desk.client()
    page = c.get("/signin", base_url="https://localhost").get_data(as_text=True)
    resp = c.post(
        "/signin",
        base_url="https://localhost",
        headers={"Referer": "https://localhost/signin"},
        data={"csrf_token": csrf_of(page), "token": desk.tokens["referee"]},
    )
    assert resp.status_code == 303
    assert "Secure" in resp.headers["Set-Cookie"]


def test_signin_with_a_wrong_token_is_401_and_no_session(desk: Desk) -> None:
    c = desk.client()
    resp = sign_in(c, desk.tokens["referee"][:-2] + "xx")
    assert resp.status_code == 401
    assert "the token is not valid" in resp.get_data(as_text=True)
    assert "signed in as" not in c.get(f"/games/{GAME}").get_data(as_text=True)


def test_signin_without_csrf_is_400(desk: Desk) -> None:
    resp = desk.client().post("/signin", data={"token": desk.tokens["referee"]})
    assert resp.status_code == 400
    assert "CSRF token is missing" in resp.get_data(as_text=True)
    assert "Set-Cookie" not in resp.headers or "referee_token" not in resp.headers["Set-Cookie"]


def test_signout_ends_the_session(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post("/signout", data={"csrf_token": page_csrf(c), "next": f"/games/{GAME}"})
    assert resp.status_code == 303
    assert "signed in as" not in c.get(f"/games/{GAME}").get_data(as_text=True)
    csrf = csrf_of(c.get("/signin").get_data(as_text=True))
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(csrf))
    assert resp.status_code == 401
    assert desk.length() == 10


def test_a_revoked_token_ends_its_session_at_once(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    csrf = page_csrf(c)
    desk.store.revoke(desk.tokens["referee"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(csrf))
    assert resp.status_code == 401
    assert desk.length() == 10


# --- a ruling stored ----------------------------------------------------------------


def test_penalty_ruling_is_appended_with_finding_and_referee(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c), note="lay-off on the other side"))
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=10"
    events = desk.ledger.get_events(GAME)
    assert len(events) == 11
    e = events[10]
    assert (e.type, e.seat, e.team, e.points, e.rule, e.finding, e.referee, e.note) == (
        "penalty_assessed",
        1,
        None,
        -50,
        "BUR-TURN-1",
        7,
        "Rita Arbitro",
        "lay-off on the other side",
    )
    assert desk.ledger.journal(GAME)[-1].appended_by == "Rita Arbitro"
    page = c.get(resp.headers["Location"]).get_data(as_text=True)
    assert "penalty stored at position 10" in page
    assert text(element(page, "status-7-BUR-TURN-1")).startswith(
        "ruled at position 10 by Rita Arbitro: penalty -50 to Bruno (BUR-TURN-1)"
    )
    assert text(element(page, "status-8-ALL-TURN-2")).startswith("open")
    score = text(element(page, "score-panel"))
    assert "as adjudicated 0 -50 as played 0 0" in score
    assert "-235 (played -185) hand -85 no pozzetto -100 penalty -50" in score


def test_a_ruling_keeps_the_pages_hand_order(desk: Desk) -> None:
    """The forms of a page with ?order=dealt post it, and the redirect after the ruling keeps it."""
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    page = c.get(f"/games/{GAME}?order=dealt").get_data(as_text=True)
    assert f'action="/games/{GAME}/rulings/penalty?order=dealt"' in page
    assert f'action="/games/{GAME}/rulings/restore?order=dealt"' in page
    resp = c.post(f"/games/{GAME}/rulings/penalty?order=dealt", data=penalty(csrf_of(page)))
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=10&order=dealt"
    restore = {"csrf_token": csrf_of(page), "finding": 8, "expected": 11, "target": 6, "reason": "second draw undone"}
    resp = c.post(f"/games/{GAME}/rulings/restore?order=dealt", data=restore)
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=11&order=dealt"
    bad = c.post(f"/games/{GAME}/rulings/penalty?order=sideways", data=penalty(csrf_of(page), expected=12))
    assert bad.status_code == 400 and error_message(bad.get_data(as_text=True)) == (
        "order='sideways': order=suit (by suit and rank, the default) or order=dealt (as dealt and drawn)"
    )
    assert desk.length() == 12
    default = c.get(f"/games/{GAME}").get_data(as_text=True)
    assert f'action="/games/{GAME}/rulings/penalty"' in default


def test_a_ruling_from_a_seats_view_comes_back_to_that_view(desk: Desk) -> None:
    """The forms of a page with ?pov=1 post it, the redirect keeps it (with
    ?order=); a pov the page refuses is its 400 and nothing is stored."""
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    page = c.get(f"/games/{GAME}?pov=1&order=dealt").get_data(as_text=True)
    assert f'action="/games/{GAME}/rulings/penalty?pov=1&amp;order=dealt"' in page
    assert f'action="/games/{GAME}/rulings/restore?pov=1&amp;order=dealt"' in page
    resp = c.post(f"/games/{GAME}/rulings/penalty?pov=1&order=dealt", data=penalty(csrf_of(page)))
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=10&pov=1&order=dealt"
    restore = {"csrf_token": csrf_of(page), "finding": 8, "expected": 11, "target": 6, "reason": "second draw undone"}
    resp = c.post(f"/games/{GAME}/rulings/restore?pov=spectator", data=restore)
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=11&pov=spectator"
    assert desk.length() == 12
    for bad, message in (
        ("2", "pov=2: no such seat at this table (seats 0–1); pov=spectator is the view from no seat"),
        ("north", "pov='north' is not a whole number"),
    ):
        refused = c.post(f"/games/{GAME}/rulings/penalty?pov={bad}", data=penalty(csrf_of(page), expected=12))
        shown = c.get(f"/games/{GAME}?pov={bad}")
        assert (refused.status_code, shown.status_code) == (400, 400)
        assert error_message(refused.get_data(as_text=True)) == error_message(shown.get_data(as_text=True)) == message
    assert desk.length() == 12


def test_the_desk_in_italian(desk: Desk) -> None:
    """The same ruling from Italian pages (README, "La contestazione nel
    visore"): the form posts keep ?lang=it, so the flash, the status and the
    redirect are Italian too."""
    c = desk.client()
    signin = c.get("/signin?lang=it&next=/games/bur-dispute?lang=it").get_data(as_text=True)
    assert "<h1>Accesso dell'arbitro</h1>" in signin and 'action="/signin?lang=it"' in signin
    resp = c.post(
        "/signin?lang=it",
        data={"csrf_token": csrf_of(signin), "token": desk.tokens["referee"], "next": f"/games/{GAME}?lang=it"},
    )
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?lang=it"
    page = c.get(f"/games/{GAME}?lang=it").get_data(as_text=True)
    assert "connesso come Rita Arbitro (arbitro)" in text(page)
    assert f'action="/games/{GAME}/rulings/penalty?lang=it"' in page
    assert text(element(page, "rule-7-BUR-TURN-1")).startswith(
        "decidi penalità a Anna (posto 0) Bruno (posto 1) punti regola nota assegna la penalità "
        "riporta il tavolo a subito dopo la mossa motivo ripristina la posizione"
    )
    resp = c.post(f"/games/{GAME}/rulings/penalty?lang=it", data=penalty(csrf_of(page)))
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=10&lang=it"
    page = c.get(resp.headers["Location"]).get_data(as_text=True)
    assert "penalità registrata alla posizione 10" in page
    assert text(element(page, "status-7-BUR-TURN-1")).startswith(
        "decisa alla posizione 10 da Rita Arbitro: penalità -50 a carico di Bruno (BUR-TURN-1)"
    )
    assert text(element(page, "status-8-ALL-TURN-2")).startswith("aperta")
    assert "dopo le decisioni arbitrali 0 -50 come giocato 0 0" in text(element(page, "score-panel"))
    stale = c.post(f"/games/{GAME}/rulings/penalty?lang=it", data=penalty(csrf_of(page)))  # the page showed 10 events
    assert stale.status_code == 409
    assert (
        "la decisione non è stata registrata: ora la partita ha 11 eventi, la pagina ne mostrava 10; "
        "riapri la partita (il collegamento qui sotto ricompila la tua decisione) e decidi di nuovo"
    ) in stale.get_data(as_text=True)
    assert "torna alla partita alla posizione 7, con la tua decisione compilata" in stale.get_data(as_text=True)


def test_restore_ruling_rewinds_the_moves(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(
        f"/games/{GAME}/rulings/restore",
        data={"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 6, "reason": "second draw undone"},
    )
    assert resp.status_code == 303 and resp.headers["Location"] == f"/games/{GAME}?at=10"
    e = desk.ledger.get_events(GAME)[10]
    assert (e.type, e.target, e.reason, e.finding, e.referee) == (
        "position_restored",
        6,
        "second draw undone",
        8,
        "Rita Arbitro",
    )
    page = c.get(resp.headers["Location"]).get_data(as_text=True)
    assert re.findall(r'<li id="move-(\d+)" data-pos="\d+" class="[^"]*\brewound\b', page) == ["7", "8", "9"]
    assert text(element(page, "move-8")) == "8 Bruno draws 10 ♠ from the stock rewound at 10 ALL-TURN-2"
    assert text(element(page, "status-8-ALL-TURN-2")).startswith(
        "ruled at position 10 by Rita Arbitro: table restored to move 6 move rewound at 10"
    )


# --- refusals: status code, and nothing stored ---------------------------------------


def test_no_session_is_401_and_nothing_stored(desk: Desk) -> None:
    c = desk.client()
    csrf = csrf_of(c.get("/signin").get_data(as_text=True))  # a valid CSRF token, but nobody signed in
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(csrf))
    assert resp.status_code == 401
    assert "sign in with a referee token" in resp.get_data(as_text=True)
    assert desk.length() == 10


def test_a_recorder_is_403_and_nothing_stored(desk: Desk) -> None:
    c = desk.client()
    assert sign_in(c, desk.tokens["recorder"]).status_code == 303
    page = c.get(f"/games/{GAME}").get_data(as_text=True)
    assert "rule-form" not in page  # no forms for a recorder
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c)))
    assert resp.status_code == 403
    assert "only a referee (or admin) token may append rulings" in resp.get_data(as_text=True)
    resp = c.post(
        f"/games/{GAME}/rulings/restore",
        data={"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 6, "reason": "x"},
    )
    assert resp.status_code == 403
    assert desk.length() == 10


def test_a_referee_of_another_game_is_403(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["elsewhere"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c)))
    assert resp.status_code == 403
    assert desk.length() == 10


def test_a_forged_form_without_csrf_is_400_and_nothing_stored(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])  # even with the referee's session cookie
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(None))
    assert resp.status_code == 400
    assert "The CSRF token is missing." in resp.get_data(as_text=True)
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty("forged-token"))
    assert resp.status_code == 400
    assert desk.length() == 10


def test_a_form_over_the_body_limit_is_413_in_the_page_language(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    data = penalty(page_csrf(c), note="x" * (1024 * 1024))
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=data)
    assert resp.status_code == 413 and resp.mimetype == "text/html"
    assert "the form sent is larger than the viewer takes" in resp.get_data(as_text=True)
    resp = c.post(f"/games/{GAME}/rulings/penalty?lang=it", data=data)
    assert resp.status_code == 413
    assert "il modulo inviato è più grande di quanto il visore accetti" in resp.get_data(as_text=True)
    assert desk.length() == 10


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ({"points": "lots"}, "points: Not a valid integer value."),
        ({"side": "seat 1"}, "side: seat:N or team:N"),
        ({"rule": "turn"}, "rule: a RULES.md rule id"),
        ({"rule": "BUR-NOPE-9"}, "REC-REF: unknown rule id 'BUR-NOPE-9'"),
        ({"finding": 6}, "REC-REF: position 6 carries no finding to rule on"),
        ({"side": "seat:5"}, "REC-REF: unknown seat 5"),
        ({"side": "team:0"}, "REC-REF: unknown team 0"),
    ],
)
def test_a_bad_penalty_is_400_and_nothing_stored(desk: Desk, form: dict[str, Any], expected: str) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c), **form))
    assert resp.status_code == 400
    body = resp.get_data(as_text=True).replace("&#39;", "'")
    assert "the ruling was not stored" in body and expected in body
    if expected.startswith("points:"):  # one message: no range check after it
        assert error_message(body) == f"the ruling was not stored: {expected}"
    assert desk.length() == 10


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        # each of these read as a number by int() (wtforms' IntegerField): 303, the ruling stored
        ({"expected": "\uff11\uff10"}, "expected: Not a valid integer value."),  # full-width "10"
        ({"expected": "1_0"}, "expected: Not a valid integer value."),
        ({"expected": " 10 "}, "expected: Not a valid integer value."),
        ({"finding": "\u0667"}, "finding: Not a valid integer value."),  # Arabic-Indic 7
        ({"points": "+3"}, "points: Not a valid integer value."),
        ({"points": "-\uff15\uff10"}, "points: Not a valid integer value."),
        ({"side": "seat:\uff11"}, "side: seat:N or team:N"),
        ({"side": "seat:1\n"}, "side: seat:N or team:N"),
        ({"rule": "BUR-TURN-1\n"}, "rule: a RULES.md rule id, e.g. BUR-TURN-1"),
    ],
)
def test_a_penalty_number_not_in_ascii_digits_is_400_and_nothing_stored(
    desk: Desk, form: dict[str, Any], expected: str
) -> None:
    """README: whole numbers are ASCII digits with an optional ``-``, as for the CLI and ``?at=``."""
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c), **form))
    body = resp.get_data(as_text=True)
    assert resp.status_code == 400, body
    assert error_message(body) == f"the ruling was not stored: {expected}"  # one message: no range check after it
    assert desk.length() == 10


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ({"points": "lots"}, "points: Non è un numero intero valido."),  # this catalog's wording
        ({"points": "+3"}, "points: Non è un numero intero valido."),
        ({"rule": ""}, "rule: Questo campo è obbligatorio."),  # WTForms' Italian (wtforms/locale/it)
        ({"points": 2_000_000}, "points: Il numero deve essere compreso tra -1000000 e 1000000."),
        ({"side": "seat 1"}, "side: seat:N (un posto) o team:N (una coppia)"),
        ({"rule": "turn"}, "rule: il codice di una regola di RULES.md, per esempio BUR-TURN-1"),
    ],
)
def test_the_italian_form_says_what_is_wrong_in_italian(desk: Desk, form: dict[str, Any], expected: str) -> None:
    """WTForms' own messages in the page's language: ``?lang=it`` on the
    form's action, or an Italian browser; English stays WTForms' English."""
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    data = penalty(page_csrf(c), **form)
    resp = c.post(f"/games/{GAME}/rulings/penalty?lang=it", data=data)
    assert resp.status_code == 400
    assert error_message(resp.get_data(as_text=True)) == f"la decisione non è stata registrata: {expected}"
    browser = c.post(f"/games/{GAME}/rulings/penalty", data=data, headers={"Accept-Language": "it-IT,it;q=0.9"})
    assert error_message(browser.get_data(as_text=True)) == f"la decisione non è stata registrata: {expected}"
    if form == {"rule": ""}:
        english = c.post(f"/games/{GAME}/rulings/penalty?lang=en", data=data)
        assert (
            error_message(english.get_data(as_text=True)) == "the ruling was not stored: rule: This field is required."
        )
    assert desk.length() == 10


def test_the_italian_restore_form_says_what_is_wrong_in_italian(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    data = {"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 6, "reason": ""}
    resp = c.post(f"/games/{GAME}/rulings/restore?lang=it", data=data)
    assert resp.status_code == 400
    assert error_message(resp.get_data(as_text=True)) == (
        "la decisione non è stata registrata: reason: Questo campo è obbligatorio."
    )
    data["reason"] = "x" * 2001
    resp = c.post(f"/games/{GAME}/rulings/restore?lang=it", data=data)
    assert error_message(resp.get_data(as_text=True)) == (
        "la decisione non è stata registrata: reason: La lunghezza del valore deve essere compresa tra 1 e 2000 "
        "caratteri."
    )
    assert desk.length() == 10


@pytest.mark.parametrize("field", ["finding", "expected", "target"])
def test_a_restore_number_not_in_ascii_digits_is_400_and_nothing_stored(desk: Desk, field: str) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    data = {"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 6, "reason": "second draw undone"}
    data[field] = {"finding": "\uff18", "expected": "1_0", "target": "+6"}[field]
    resp = c.post(f"/games/{GAME}/rulings/restore", data=data)
    body = resp.get_data(as_text=True)
    assert resp.status_code == 400, body
    assert error_message(body) == f"the ruling was not stored: {field}: Not a valid integer value."
    assert desk.length() == 10


def test_a_restore_outside_the_hand_is_400_rec_ref(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(
        f"/games/{GAME}/rulings/restore",
        data={"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 0, "reason": "too far"},
    )
    assert resp.status_code == 400
    assert "REC-REF: target 0 is not a position of the current line of play in hand 1" in resp.get_data(as_text=True)
    assert desk.length() == 10


def test_a_ruling_from_a_stale_page_is_409(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(page_csrf(c), expected=9, note="late & stale"))
    assert resp.status_code == 409
    page = resp.get_data(as_text=True)
    assert error_message(page) == (
        "the ruling was not stored: the game has 10 events now, the page showed 9; open the game again (the link "
        "below fills in your ruling) and rule again"
    )
    assert desk.length() == 10
    # the page is no dead end: it links back to the game at the finding, the ruling filled in again
    link = re.search(r'<p class="error-link"><a href="([^"]+)">([^<]+)</a></p>', page)
    assert link is not None and link.group(2) == "back to the game at position 7, your ruling filled in"
    href = html.unescape(link.group(1))
    assert href == (
        f"/games/{GAME}?at=7&ruling=penalty&ruling_finding=7&ruling_side=seat:1&ruling_points=-50"
        "&ruling_rule=BUR-TURN-1&ruling_note=late+%26+stale"
    )
    # the language switch stays on that target too (a GET of the POST URL is 405), not the games list
    switch = re.search(r'<a lang="it" hreflang="it" id="lang-it" href="([^"]+)">', page)
    assert switch is not None and html.unescape(switch.group(1)) == href + "&lang=it"
    italian = c.get(href + "&lang=it").get_data(as_text=True)
    assert italian.count('<details class="rule-forms"') == 4 and 'lang="it"' in italian
    again = c.get(href).get_data(as_text=True)
    forms = again[again.index('id="rule-7-BUR-TURN-1"') :]
    assert forms.startswith('id="rule-7-BUR-TURN-1" open>')
    assert (
        '<option value="seat:1" selected>' in forms and 'name="note" maxlength="2000" value="late &amp; stale"' in forms
    )
    assert f'name="expected" value="{desk.length()}"' in forms  # the page as it is now
    assert again.count('<details class="rule-forms"') == 4 and again.count(" open>") == 1
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(csrf_of(again), expected=10, note="late & stale"))
    assert (resp.status_code, desk.length()) == (303, 11)


def test_a_refilled_restore_opens_its_form_filled(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    restore = {"csrf_token": page_csrf(c), "finding": 8, "expected": 9, "target": 6, "reason": "second draw"}
    resp = c.post(f"/games/{GAME}/rulings/restore", data=restore)
    assert resp.status_code == 409
    href = html.unescape(re.search(r'<p class="error-link"><a href="([^"]+)"', resp.get_data(as_text=True)).group(1))
    assert href == f"/games/{GAME}?at=8&ruling=restore&ruling_finding=8&ruling_target=6&ruling_reason=second+draw"
    page = c.get(href).get_data(as_text=True)
    forms = page[page.index('id="rule-8-ALL-TURN-2"') :].split("</details>")[0]
    assert "open>" in forms.split("\n")[0]
    assert 'name="target" value="6"' in forms and 'name="reason" value="second draw"' in forms


def test_after_game_ended_a_penalty_only(desk: Desk) -> None:
    """FORMAT.md "Rulings after the game": the page offers the penalty form
    alone; a penalty of 0 ("the score stands") is stored, a restore is
    REC-ORDER and nothing is stored; the game stays ended."""
    from ledger.events import GameEnded, HandEnded

    desk.ledger.append_events(
        GAME, [HandEnded(reason="stalled"), GameEnded(reason="abandoned")], expected=10, appended_by="test"
    )
    c = desk.client()
    sign_in(c, desk.tokens["referee"])
    page = c.get(f"/games/{GAME}").get_data(as_text=True)
    assert "penalty-form" in page and "restore-form" not in page
    assert "0 points records that the score stands" in page
    restore = {"csrf_token": csrf_of(page), "finding": 7, "expected": 12, "target": 6, "reason": "undo"}
    resp = c.post(f"/games/{GAME}/rulings/restore", data=restore)
    assert resp.status_code == 400
    assert "REC-ORDER: position_restored after game_ended" in resp.get_data(as_text=True)
    assert desk.length() == 12
    resp = c.post(f"/games/{GAME}/rulings/penalty", data=penalty(csrf_of(page), expected=12, points=0))
    assert (resp.status_code, resp.headers["Location"]) == (303, f"/games/{GAME}?at=12")
    assert desk.length() == 13
    last = desk.ledger.get_events(GAME)[-1]
    assert (last.type, last.points, last.finding, last.referee) == ("penalty_assessed", 0, 7, "Rita Arbitro")
    assert replay(desk.ledger.get_events(GAME)).ended == "abandoned"


def test_a_signed_in_referee_sees_an_unfinished_game_whole(desk: Desk) -> None:
    app = create_app({"LEDGER_DB": desk.db, "SPECTATOR_DELAY": 3600})
    anonymous = app.test_client().get(f"/games/{GAME}?at=9")
    assert anonymous.status_code == 403  # a spectator sees up to the delayed position only
    c = app.test_client()
    sign_in(c, desk.tokens["referee"])
    page = c.get(f"/games/{GAME}?at=9")
    assert page.status_code == 200
    assert 'data-card="KC"' in page.get_data(as_text=True)


# --- the score panel follows the position --------------------------------------------


def test_score_panel_mid_hand_shows_the_hand_as_the_table_stands(desk: Desk) -> None:
    c = desk.client()
    sign_in(c, desk.tokens["referee"])  # an unfinished game: the referee sees it whole
    page = c.get(f"/games/{GAME}?at=5").get_data(as_text=True)
    score = text(element(page, "score-panel"))
    assert score.startswith("Scores at position 5 hand Anna Bruno")
    assert (
        "1 in play, as the table stands -70 melds +55 hand -25 no pozzetto -100 4 cards in hand · 2 melds"
        " -185 hand -85 no pozzetto -100 11 cards in hand · 0 melds totals 0 0"
    ) in score
    assert "winner" not in score
    fragment = c.get(f"/games/{GAME}/board?at=3").get_data(as_text=True)
    assert 'id="score-panel" data-position="3"' in fragment
    assert "-160 melds +15 hand -75 no pozzetto -100" in text(fragment)
    # a seat sees its own running figures only; a spectator none (they count hidden cards)
    seat0 = text(element(c.get(f"/games/{GAME}?at=5&pov=0").get_data(as_text=True), "score-panel"))
    assert (
        "1 in play, as the table stands -70 melds +55 hand -25 no pozzetto -100 4 cards in hand · 2 melds"
        " 11 cards in hand · 0 melds totals 0 0"
    ) in seat0
    spectator = text(element(desk.client().get(f"/games/{GAME}?at=5").get_data(as_text=True), "score-panel"))
    assert "1 in play, as the table stands 4 cards in hand · 2 melds 11 cards in hand · 0 melds totals 0 0" in spectator


def test_score_panel_shows_the_final_sheet_only_at_the_end(tmp_path: Path) -> None:
    from replay_web.store import RecordStore

    app = create_app({"LEDGER_STORE": RecordStore(paths=[str(FIXTURE)])})
    c = app.test_client()
    end = text(element(c.get(f"/games/{GAME}?at=18").get_data(as_text=True), "score-panel"))
    assert end.startswith("Scores final sheet")
    assert "as adjudicated -70 -235 as played -70 -185" in end and "winner: Anna" in end
    before = text(element(c.get(f"/games/{GAME}?at=17").get_data(as_text=True), "score-panel"))
    assert before.startswith("Scores at position 17") and "winner" not in before
    assert "as adjudicated -70 -235 as played -70 -185" in before
    early = text(element(c.get(f"/games/{GAME}?at=1").get_data(as_text=True), "score-panel"))
    assert "No hand scored yet." in early and "-180 hand -80 no pozzetto -100" in early


# --- the domain and the CLI ----------------------------------------------------------


def _ruled_record(tmp_path: Path) -> Path:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()[:10]
    lines += [
        '{"type":"penalty_assessed","seat":1,"points":-50,"rule":"BUR-TURN-1","finding":7,"referee":"Rita"}',
        '{"type":"position_restored","target":6,"reason":"undone","finding":8,"referee":"Rita"}',
        '{"type":"card_discarded","seat":1,"card":"6H"}',
    ]
    path = tmp_path / "ruled.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_rulings_and_rewound_moves_in_the_domain(tmp_path: Path) -> None:
    events = list(read_record(_ruled_record(tmp_path)).events)
    index = by_finding(events)
    assert sorted(index) == [7, 8]
    assert index[7][0].to_json() == {
        "position": 10,
        "kind": "penalty_assessed",
        "referee": "Rita",
        "seat": 1,
        "points": -50,
        "rule": "BUR-TURN-1",
    }
    assert index[8][0].to_json() == {
        "position": 11,
        "kind": "position_restored",
        "referee": "Rita",
        "target": 6,
        "reason": "undone",
    }
    assert rewound_by(events) == {7: 11, 8: 11, 9: 11}  # the penalty at 10 is not rewound
    findings = report(replay(events)).to_json(index)["findings"]
    assert [(f["position"], f["ruling"] and f["ruling"]["position"]) for f in findings] == [
        (4, None),
        (5, None),
        (7, 10),
        (8, 11),
    ]


def test_audit_shows_each_findings_status(tmp_path: Path) -> None:
    path = _ruled_record(tmp_path)
    runner = CliRunner(env={"RUMMY_LEDGER_DB": str(tmp_path / "unused.db")})
    out = runner.invoke(cli, ["audit", str(path)])
    assert out.exit_code == 1
    assert out.stdout.splitlines()[1:] == [
        "  position 4 (hand 1, seat 0): ALL-MELD-1: meld k K♣ K♦ K♠ Q♠: neither a set nor a sequence  [open]",
        "  position 5 (hand 1, seat 0): BUR-PILE-1: Anna discarded 9♣, the single card just taken from the "
        "discard pile  [open]",
        "  position 7 (hand 1, seat 1): BUR-TURN-1: Bruno laid off 6♥ on meld a of Anna: lay-offs go only on "
        "one's own side's melds"
        "  [ruled at position 10 by Rita: penalty -50 to Bruno (BUR-TURN-1); move rewound by position 11]",
        "  position 8 (hand 1, seat 1): ALL-TURN-2: Bruno drew a second time in the same turn (card_drawn)"
        "  [ruled at position 11 by Rita: table restored to move 6; move rewound by position 11]",
    ]
    js = json.loads(runner.invoke(cli, ["audit", "--json", str(path)]).stdout)
    assert [f["ruling"] for f in js["findings"][:2]] == [None, None]
    assert js["findings"][2]["ruling"] == {
        "position": 10,
        "kind": "penalty_assessed",
        "referee": "Rita",
        "seat": 1,
        "points": -50,
        "rule": "BUR-TURN-1",
    }


def test_show_names_rewound_moves(tmp_path: Path) -> None:
    path = _ruled_record(tmp_path)
    runner = CliRunner(env={"RUMMY_LEDGER_DB": str(tmp_path / "unused.db")})
    at8 = runner.invoke(cli, ["show", str(path), "--at", "8"]).stdout.splitlines()
    assert at8[-1] == "move 8 is rewound by the referee at position 11: it no longer counts"
    at12 = runner.invoke(cli, ["show", str(path), "--at", "12"]).stdout.splitlines()
    assert at12[-1] == "rewound at position 11: moves 7–9 no longer count"
    at9 = runner.invoke(cli, ["show", str(path), "--at", "6"]).stdout
    assert "rewound at position" not in at9 and "is rewound" not in at9


def test_error_pages_speak_the_pages_language(desk: Desk, web_client: Any) -> None:
    """werkzeug's 404/405, Flask-WTF's CSRF refusal, the report's finding error and a ruling's REC-REF
    refusal in Italian on an Italian page; English pages and the API's JSON keep the English."""
    c = desk.client()
    missing = c.get("/nowhere?lang=it")
    assert (missing.status_code, error_message(missing.get_data(as_text=True))) == (
        404,
        "La pagina richiesta non esiste nel visualizzatore. Se hai scritto l'indirizzo a mano, controlla che sia "
        "corretto.",
    )
    assert error_message(c.get("/nowhere").get_data(as_text=True)).startswith(
        "The requested URL was not found on the server."
    )
    assert c.get("/api/nowhere?lang=it").get_json()["error"]["message"].startswith("The requested URL was not found")
    method = c.delete(f"/games/{GAME}?lang=it")
    assert (method.status_code, error_message(method.get_data(as_text=True))) == (
        405,
        "Questa pagina non accetta richieste di questo tipo.",
    )
    forged = c.post("/signin?lang=it", data={"token": desk.tokens["referee"]})
    assert (forged.status_code, error_message(forged.get_data(as_text=True))) == (
        400,
        "Manca il token CSRF del modulo: ricarica la pagina e invialo di nuovo.",
    )
    sign_in(c, desk.tokens["referee"])
    data = {"csrf_token": page_csrf(c), "finding": 8, "expected": 10, "target": 0, "reason": "x"}
    refused = c.post(f"/games/{GAME}/rulings/restore?lang=it", data=data)
    assert (refused.status_code, error_message(refused.get_data(as_text=True))) == (
        400,
        "la decisione non è stata registrata: REC-REF: la posizione 0 non fa parte della linea di gioco attuale "
        "della smazzata 1 (posizione 10, campo target)",
    )
    assert desk.length() == 10
    report = web_client(list(read_record(FIXTURE).events)).get(f"/games/{GAME}/report?finding=14&lang=it")
    assert (report.status_code, error_message(report.get_data(as_text=True))) == (
        400,
        "nessuna irregolarità alla posizione 14 (le irregolarità sono alle posizioni 4, 5, 7, 8, 15, 17)",
    )


def test_the_page_words_are_werkzeugs_own() -> None:
    """The English descriptions the error page translates are werkzeug's current ones (a new werkzeug wording
    would otherwise go untranslated without a test noticing)."""
    from werkzeug.exceptions import BadRequest, Forbidden, MethodNotAllowed, NotFound

    from replay_web import PAGE_WORDS

    assert {e.description for e in (BadRequest, Forbidden, MethodNotAllowed, NotFound)} <= PAGE_WORDS


def test_signin_next_leaving_the_site_goes_to_the_games_list(desk: Desk) -> None:
    """``next`` that a browser would turn into another site (a tab or newline
    after the first slash is dropped, a backslash read as a slash) is not
    followed after sign-in (attacker trial: ``/%09/evil.example/x`` gave
    ``Location: //evil.example/x``)."""
    for bad in ("/\t/evil.example/x", "/\n/evil.example/x", "/\r\n/evil.example", "//evil.example", "/\\evil.example"):
        c = desk.client()
        signin = c.get("/signin").get_data(as_text=True)
        resp = c.post("/signin", data={"csrf_token": csrf_of(signin), "token": desk.tokens["referee"], "next": bad})
        assert (resp.status_code, resp.headers["Location"]) == (303, "/games"), bad
