// The watch page: a batch's score, Elo, SPRT and table, and its games in progress move by
// move. The server pushes the whole state whenever it changes (Server-Sent Events) and the
// page redraws from it; a small board per game in progress, and a large one for the game
// followed (a click on a small one). Finished games open on the replay page.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const page = { events: null, minis: {}, followed: null, big: null, bigKey: null };
  const el = C4Board.el;

  function pct(x) { return x === null ? '-' : (100 * x).toFixed(1) + '%'; }
  function llr(p) {  // the SPRT's log-likelihood ratio; null in JSON when infinite
    return p.llr === null ? (p.llr_sign > 0 ? '+inf' : '-inf') : p.llr.toFixed(2);
  }
  function elo(s) {
    if (s.elo === null) return s.elo_sign ? (s.elo_sign > 0 ? '+inf' : '-inf') : '-';
    const ci = s.elo_low === null ? '' : ' [' + Math.round(s.elo_low) + ', ' +
      Math.round(s.elo_high) + ']';
    return (s.elo > 0 ? '+' : '') + Math.round(s.elo) + ci;
  }
  function wdl(s) { return s.wins + '-' + s.draws + '-' + s.losses; }

  function renderScore(d) {
    const t = d.total, score = $('score');
    score.textContent = t.games ? (d.a.join(', ') || 'A') + ': ' + wdl(t) + ' in ' + t.games +
      ' games, score ' + pct(t.score) + ', Elo ' + elo(t) + ' (95%)' : 'no finished game yet';
    Object.assign(score.dataset, { wins: t.wins, draws: t.draws, losses: t.losses,
      games: t.games, score: t.score === null ? '' : t.score });
    const p = d.sprt;
    $('sprt').textContent = 'elo0 ' + p.elo0 + ', elo1 ' + p.elo1 + ': LLR ' + llr(p) +
      ' in [' + p.lower.toFixed(2) + ', ' + p.upper.toFixed(2) + '] over ' + p.pairs +
      ' game pairs: ' + p.verdict;
    $('sprt').dataset.llr = p.llr === null ? p.llr_sign * Infinity : p.llr;
    const at = p.llr === null ? (p.llr_sign > 0 ? 1 : 0)
      : Math.min(1, Math.max(0, (p.llr - p.lower) / (p.upper - p.lower)));
    $('llr-mark').style.left = (at * 100).toFixed(1) + '%';
  }
  function renderTable(d) {
    const body = $('table').tBodies[0];
    body.textContent = '';
    d.table.forEach(function (r) {
      const tr = body.insertRow();
      [r.a, r.b, r.total.games, wdl(r.total), wdl(r.first), wdl(r.second), pct(r.total.score),
        elo(r.total), llr(r.sprt)].forEach(function (v) {
        tr.insertCell().textContent = v;
      });
    });
  }
  function renderRecent(d) {
    const ol = $('recent');
    ol.textContent = '';
    d.recent.forEach(function (g) {
      const k = g.key;
      el(el(ol, 'li', {}), 'a', { href: '/replay/game?' + new URLSearchParams(k) }, k.a + ' vs ' +
        k.b + ', round ' + k.round + ' leg ' + k.leg + ': code ' + g.code + ', ' + g.reason +
        ', ' + g.plies + ' plies');
    });
  }
  function renderLive(d) {
    const box = $('live'), seen = {};
    let followed;
    $('live-count').textContent = '(' + d.live.length + ')';
    $('live-count').dataset.count = d.live.length;
    d.live.forEach(function (g) {
      const key = g.worker + ':' + Object.values(g.key).join('/');  // its worker and its key
      seen[key] = true;
      if (key === page.followed) followed = g;
      let m = page.minis[key];
      if (!m) {
        const div = el(box, 'div', { class: 'mini' });
        el(div, 'div', {}, g.key.a + ' vs ' + g.key.b + ' r' + g.key.round + ' leg ' + g.key.leg);
        m = { div: div, board: C4Board.build(el(div, 'svg', {}), g.board[0], g.board[1],
          g.board[2], g.board[3], { cell: 14, labels: false }) };
        div.addEventListener('click', function () { page.followed = key; render(page.last); });
        page.minis[key] = m;
      }
      C4Board.paint(m.board, g.moves, g.moves.length, false);
      m.div.dataset.plies = g.moves.length;
      m.div.classList.toggle('followed', key === page.followed);
    });
    for (const key in page.minis) {
      if (!seen[key]) { page.minis[key].div.remove(); delete page.minis[key]; }
    }
    renderFollowed(followed);
  }
  function renderFollowed(g) {
    const big = $('followed');
    if (!g) {
      $('followed-title').textContent = page.followed ? 'The followed game has ended.' : '';
      return;
    }
    if (page.bigKey !== page.followed) {
      page.big = C4Board.build(big, g.board[0], g.board[1], g.board[2], g.board[3], { cell: 34 });
      page.bigKey = page.followed;
    }
    C4Board.paint(page.big, g.moves, g.moves.length, false);
    $('followed-title').textContent = g.key.a + ' vs ' + g.key.b + ' (' + g.first +
      ' first, red): ' + g.moves.length + ' moves';
    big.dataset.plies = g.moves.length;
  }
  function renderBatches(d) {
    const sel = $('batch'), names = d.batches.join('\n');
    if (sel.dataset.names !== names) {
      sel.textContent = '';
      d.batches.forEach(function (b) { sel.add(new Option(b, b)); });
      sel.dataset.names = names;
    }
    sel.value = d.batch;
  }
  function render(d) {
    page.last = d;
    renderBatches(d);
    renderScore(d);
    renderTable(d);
    renderRecent(d);
    renderLive(d);
    const body = document.body.dataset;
    Object.assign(body, { batch: d.batch, updates: Number(body.updates || 0) + 1,
      maxLive: Math.max(Number(body.maxLive || 0), d.live.length) });
  }
  function connect(batch) {
    if (page.events) page.events.close();
    page.events = web.events('/api/watch/events' + (batch ? '?batch=' +
      encodeURIComponent(batch) : ''), render);
  }
  $('batch').addEventListener('change', function () { connect($('batch').value); });
  connect(new URLSearchParams(location.search).get('batch'));
  document.body.dataset.ready = '1';
}());
