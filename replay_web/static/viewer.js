// rummy-ledger viewer: step through a game without reloading the page.
// Plain JS, no build step. The server renders every view and decides every
// control's target (replay_web/games.py navigation): the page's links carry
// them, and so does each board fragment (/games/<id>/board?at=N: the board
// and the score panel at N; its data-nav). This script swaps the fragment in,
// sets the controls from its data-nav, keeps the URL, the slider and the move
// list in step, and maps the keys onto the controls; it computes no target.
// A key pressed while a fragment is on its way waits for that fragment's
// targets. In a seat's or spectator's view (pov) the move list itself
// depends on the position, so stepping loads the page.
(function () {
  "use strict";
  var root = document.getElementById("game");
  if (!root) return;

  var pov = root.dataset.pov;
  var order = root.dataset.order; // "" (hands by suit, the default) or "dealt"
  var lang = root.dataset.lang || ""; // ?lang= of the page, kept on every URL it makes (replay_web/i18n.py)
  var pageUrl = root.dataset.page;
  var boardUrl = root.dataset.board;
  var at = parseInt(root.dataset.at, 10);
  var slider = document.getElementById("slider");
  var pending = null; // the fragment fetch under way
  var queued = []; // controls asked for while it is under way, in order

  // control id -> key of the server's navigation targets (data-nav)
  var CONTROLS = {
    "nav-first": "first", "nav-prev": "prev", "nav-next": "next", "nav-last": "last",
    "nav-prev-hand": "prev_hand", "nav-next-hand": "next_hand",
    "nav-prev-violation": "prev_violation", "nav-next-violation": "next_violation"
  };
  var KEYS = {
    ArrowRight: "nav-next", ArrowLeft: "nav-prev", Home: "nav-first", End: "nav-last",
    n: "nav-next-violation", p: "nav-prev-violation", PageDown: "nav-next-hand", PageUp: "nav-prev-hand"
  };

  function query(n) {
    var q = "?at=" + n;
    if (pov !== "") q += "&pov=" + encodeURIComponent(pov);
    if (order) q += "&order=" + encodeURIComponent(order);
    if (lang !== "") q += "&lang=" + encodeURIComponent(lang);
    return q;
  }

  // Bring the current move into view inside the move list only: scrolling the
  // page (scrollIntoView) would, on a one-column phone layout, open the page
  // at the move list, far below the table.
  function showMove(li) {
    var list = li.parentElement;
    if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
    else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
  }

  function setControl(id, n) {
    var el = document.getElementById(id);
    if (!el) return;
    if (n === null || n === undefined) {
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

  function target(id) {
    var el = document.getElementById(id);
    return el && el.dataset.at !== undefined ? parseInt(el.dataset.at, 10) : null;
  }

  function showPosition() {
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
      showMove(li);
    }
    document.title = document.title.replace(/ \d+ · /, " " + at + " · ");
    // the report links follow the position (the report of the table at `at`)
    var links = document.querySelectorAll("a.report-link[data-report]");
    for (var k = 0; k < links.length; k++) {
      links[k].setAttribute("href", links[k].dataset.report + "?at=" + at + (order ? "&order=" + encodeURIComponent(order) : "") + (lang !== "" ? "&lang=" + encodeURIComponent(lang) : ""));
    }
  }

  function go(n, push) {
    if (n === null || isNaN(n)) return;
    if (pov !== "") {
      // a seat's view: the move list and panels end at the position
      if (n !== at) window.location.assign(pageUrl + query(n));
      return;
    }
    at = n;
    showPosition();
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
        if (fresh && fresh.dataset.nav) {
          var nav = JSON.parse(fresh.dataset.nav);
          for (var id in CONTROLS) setControl(id, nav[CONTROLS[id]]);
        }
        pending = null;
        while (queued.length && !pending) press(queued.shift());
      })
      .catch(function (err) {
        if (err && err.name === "AbortError") return;
        window.location.assign(pageUrl + query(n)); // fall back to a full load
      });
  }

  // A control, by key or click: its target as the server set it; while a
  // fragment is on its way the control waits for that fragment's targets.
  function press(id) {
    if (pending) {
      queued.push(id);
      return;
    }
    var n = target(id);
    if (n !== null && n !== at) go(n);
  }

  // Controls, move list and audit links: step in place.
  document.addEventListener("click", function (ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest("a[data-at]");
    if (!a || !root.contains(a)) return;
    ev.preventDefault();
    if (CONTROLS[a.id]) press(a.id);
    else go(parseInt(a.dataset.at, 10));
  });

  slider.addEventListener("input", function () {
    queued = [];
    go(parseInt(slider.value, 10));
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.metaKey || ev.ctrlKey || ev.altKey) return;
    var t = ev.target;
    var typing = t && (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "TEXTAREA" || t.isContentEditable);
    if (typing) return;
    if (ev.key === "v" && nextView()) { ev.preventDefault(); return; }
    var id = KEYS[ev.key];
    if (!id) return;
    ev.preventDefault();
    press(id);
  });

  // "v": the next view in the header's list (referee, each seat, spectator, and round
  // again), at the position shown now; the server decides what that view shows.
  function nextView() {
    // the header's "view as:" list: a link per other view, the current one in bold
    var options = Array.prototype.slice.call(document.querySelectorAll("nav.pov > a, nav.pov > b"));
    if (options.length < 2) return false;
    var i = options.findIndex(function (o) { return o.tagName === "B"; });
    var target = options[(i + 1) % options.length];
    if (!target.href) return false;
    var url = new URL(target.href, location.href);
    url.searchParams.set("at", at);
    location.assign(url.toString());
    return true;
  }

  window.addEventListener("popstate", function (ev) {
    var n = ev.state && typeof ev.state.at === "number" ? ev.state.at : parseInt(new URLSearchParams(location.search).get("at") || root.dataset.last, 10);
    queued = [];
    go(n, false);
  });

  // The URL always names the position, even when the page was opened without ?at=.
  history.replaceState({ at: at }, "", pageUrl + query(at));
  var cur = document.getElementById("move-" + at);
  if (cur) showMove(cur);
})();
