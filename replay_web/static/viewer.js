// rummy-ledger viewer: step through a game without reloading the page.
// Plain JS, no build step. The server renders every view; this script only
// swaps the board fragment (/games/<id>/board?at=N: the board and the
// score panel at N) and keeps the URL, the
// slider, the controls and the move list in step. In a seat's or spectator's
// view (pov) the move list itself depends on the position, so stepping loads
// the page; such a page knows nothing after its position (no data-last), so
// "next" always asks for the following position.
(function () {
  "use strict";
  var root = document.getElementById("game");
  if (!root) return;

  var pov = root.dataset.pov;
  var lang = root.dataset.lang || ""; // ?lang= of the page, kept on every URL it makes (replay_web/i18n.py)
  var last = pov === "" ? parseInt(root.dataset.last, 10) : Infinity;
  var hands = JSON.parse(root.dataset.hands || "[]");
  var violations = JSON.parse(root.dataset.violations || "[]");
  var pageUrl = root.dataset.page;
  var boardUrl = root.dataset.board;
  var at = parseInt(root.dataset.at, 10);
  var slider = document.getElementById("slider");
  var pending = null;

  function query(n) {
    var q = "?at=" + n;
    if (pov !== "") q += "&pov=" + encodeURIComponent(pov);
    if (lang !== "") q += "&lang=" + encodeURIComponent(lang);
    return q;
  }

  function before(list, n) {
    var best = null;
    for (var i = 0; i < list.length; i++) if (list[i] < n) best = list[i];
    return best;
  }

  function after(list, n) {
    for (var i = 0; i < list.length; i++) if (list[i] > n) return list[i];
    return null;
  }

  function setControl(id, n) {
    var el = document.getElementById(id);
    if (!el) return;
    if (n === null) {
      el.classList.add("disabled");
      el.removeAttribute("href");
      el.setAttribute("aria-disabled", "true");
      delete el.dataset.at;
    } else {
      el.classList.remove("disabled");
      el.setAttribute("href", pageUrl + query(n));
      el.removeAttribute("aria-disabled");
      el.dataset.at = String(n);
    }
  }

  function refreshControls() {
    setControl("nav-first", 0);
    setControl("nav-prev", Math.max(at - 1, 0));
    setControl("nav-next", Math.min(at + 1, last));
    setControl("nav-last", last);
    setControl("nav-prev-hand", before(hands, at));
    setControl("nav-next-hand", after(hands, at));
    setControl("nav-prev-violation", before(violations, at));
    setControl("nav-next-violation", after(violations, at));
    slider.value = String(at);
    root.dataset.at = String(at);
    var old = document.querySelector("#moves li.current");
    if (old) {
      old.classList.remove("current");
      old.removeAttribute("aria-current");
    }
    var li = document.getElementById("move-" + at);
    if (li) {
      li.classList.add("current");
      li.setAttribute("aria-current", "step");
      li.scrollIntoView({ block: "nearest" });
    }
    document.title = document.title.replace(/ \d+ · /, " " + at + " · ");
    // the report links follow the position (the report of the table at `at`)
    var links = document.querySelectorAll("a.report-link[data-report]");
    for (var k = 0; k < links.length; k++) {
      links[k].setAttribute("href", links[k].dataset.report + "?at=" + at + (lang !== "" ? "&lang=" + encodeURIComponent(lang) : ""));
    }
  }

  function go(n, push) {
    if (n === null || isNaN(n)) return;
    n = Math.max(0, Math.min(last, n));
    if (pov !== "") {
      // a seat's view: the move list and panels end at the position
      if (n !== at) window.location.assign(pageUrl + query(n));
      return;
    }
    at = n;
    refreshControls();
    if (push !== false) history.pushState({ at: n }, "", pageUrl + query(n));
    if (pending) pending.abort();
    var ctrl = new AbortController();
    pending = ctrl;
    fetch(boardUrl + query(n), { signal: ctrl.signal, headers: { Accept: "text/html" } })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.text();
      })
      .then(function (html) {
        if (ctrl !== pending) return;
        var board = document.getElementById("board");
        var tmp = document.createElement("div");
        tmp.innerHTML = html; // server-rendered, escaped by the template engine
        var fresh = tmp.querySelector("#board");
        if (board && fresh) board.replaceWith(fresh);
        var score = document.getElementById("score-panel");
        var freshScore = tmp.querySelector("#score-panel");
        if (score && freshScore) score.replaceWith(freshScore); // the score panel follows the position
        pending = null;
      })
      .catch(function (err) {
        if (err && err.name === "AbortError") return;
        window.location.assign(pageUrl + query(n)); // fall back to a full load
      });
  }

  // Controls, move list and audit links: step in place.
  document.addEventListener("click", function (ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest("a[data-at]");
    if (!a || !root.contains(a)) return;
    ev.preventDefault();
    go(parseInt(a.dataset.at, 10));
  });

  slider.addEventListener("input", function () {
    go(parseInt(slider.value, 10));
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.metaKey || ev.ctrlKey || ev.altKey) return;
    var t = ev.target;
    var typing = t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if (typing) return;
    var target = null;
    switch (ev.key) {
      case "ArrowRight": target = at + 1; break;
      case "ArrowLeft": target = at - 1; break;
      case "Home": target = 0; break;
      case "End": target = isFinite(last) ? last : null; break;
      case "n": target = after(violations, at); break;
      case "p": target = before(violations, at); break;
      case "PageDown": target = after(hands, at); break;
      case "PageUp": target = before(hands, at); break;
      default: return;
    }
    ev.preventDefault();
    if (target !== null && target >= 0 && target <= last && target !== at) go(target);
  });

  window.addEventListener("popstate", function (ev) {
    var n = ev.state && typeof ev.state.at === "number" ? ev.state.at : parseInt(new URLSearchParams(location.search).get("at") || String(last), 10);
    go(n, false);
  });

  // The URL always names the position, even when the page was opened without ?at=.
  history.replaceState({ at: at }, "", pageUrl + query(at));
  var cur = document.getElementById("move-" + at);
  if (cur) cur.scrollIntoView({ block: "nearest" });
})();
