// Live standings of a tournament page (issue 25): the table #standings follows
// GET /api/tournaments/<id>/standings/stream (its data-stream attribute) and
// reorders its rows, keeping each entrant's players and flags as the server wrote them;
// the standings chart (#standings-chart img, its data-live URL) is loaded again after
// every message but the first (which is the page's own standings); each round's
// table row (tr.table-row: data-game, data-a, data-b) shows the MP and VP of a
// finished game from the same message, so a ruling after the game shows there too.
(function () {
  "use strict";
  var table = document.getElementById("standings");
  if (!table || !window.EventSource || !table.dataset.stream) { return; }
  var body = table.tBodies[0];
  var chart = document.querySelector("#standings-chart img[data-live]");
  function signed(n) { return (n > 0 ? "+" : "") + n; }
  function number(n) { return String(n); }
  var source = new EventSource(table.dataset.stream);
  source.addEventListener("standings", function (e) {
    var doc = JSON.parse(e.data);
    var rows = {};
    Array.prototype.forEach.call(body.rows, function (r) { rows[r.dataset.entrant] = r; });
    doc.standings.forEach(function (ln) {
      var row = rows[ln.entrant];
      if (!row) { return; }
      var cells = row.cells;
      cells[0].textContent = ln.place;
      cells[3].textContent = number(ln.vp);
      cells[4].textContent = signed(ln.mp_diff);
      cells[5].textContent = ln.mp;
      row.classList.toggle("playing", ln.rounds.some(function (r) { return r.playing; }));
      body.appendChild(row);
    });
    var legend = document.getElementById("standings-legend");
    if (legend) { legend.hidden = !body.querySelector("tr.playing"); }
    var rounds = {};
    doc.standings.forEach(function (ln) {
      ln.rounds.forEach(function (r) { if (r.game_id) { rounds[r.game_id + " " + ln.entrant] = r; } });
    });
    Array.prototype.forEach.call(document.querySelectorAll("tr.table-row[data-game]"), function (row) {
      var a = rounds[row.dataset.game + " " + row.dataset.a], b = rounds[row.dataset.game + " " + row.dataset.b];
      if (!a || !b || a.playing) { return; }
      if (row.cells.length < 5) {  // was playing or not stored: one cell for MP and VP
        var first = row.cells[2];
        var vp = document.createElement("td");
        first.removeAttribute("colspan");
        first.className = "num";
        vp.className = "num";
        row.insertBefore(vp, first.nextSibling);
      }
      row.cells[2].textContent = a.mp + "\u2013" + a.mp_against;
      row.cells[3].textContent = number(a.vp) + "\u2013" + number(b.vp);
    });
    var applied = Number(table.dataset.updated || "0") + 1;
    if (chart && applied > 1) {
      chart.src = chart.dataset.live + (chart.dataset.live.indexOf("?") < 0 ? "?" : "&") + "v=" + encodeURIComponent(e.lastEventId);
    }
    table.dataset.updated = String(applied);
  });
  source.addEventListener("timeout", function () { /* the browser reconnects by itself */ });
})();
