// The game review page (docs/web.md, "Game review"): one finished game named by its key in the
// query, at a budget (`&seconds=S`; none: the server's). It queues the review, shows its progress,
// then graphs the first player's win chance and lists the marked moves, each a link to the
// analysis board before the move; data-* attributes mirror what it shows for the tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const MARKS = { // symbol and colour of each mark (docs/web.md, "Game review")
    inaccuracy: ['?!', '#d9a400'], mistake: ['?', '#e67e22'], blunder: ['??', '#d62828'],
    'walked into a proven loss': ['✗', '#111'], 'gave away a proven win': ['✗', '#7b2cbf'],
    decisive: ['◆', '#1d4ed8'] };
  let DECISIVE = 'decisive: the loss analysis proves the game lost from here';
  const W = 640, H = 220, LEFT = 40, RIGHT = 12, TOP = 12, BOTTOM = 24;
  const page = { game: null, review: null, board: null, budgets: null };
  const el = C4Board.el, say = web.say, xy = C4Board.cellText;
  function query(seconds) { // the page's query, its budget replaced (null: the server's)
    const q = new URLSearchParams(location.search);
    q.delete('seconds');
    if (seconds !== undefined && seconds !== null) q.set('seconds', seconds);
    return q.toString();
  }
  const API = '/api/review?' + query(new URLSearchParams(location.search).get('seconds'));

  // ---- the position at a ply ----------------------------------------------------------------
  // The analysis board with the whole game, its cursor on the position after `ply` moves (the
  // position before move index `ply`).
  function boardUrl(ply) { return '/analyse/game?' + query(null) + '&ply=' + ply; }
  function show(ply) {
    const g = page.game, n = g.moves.length;
    C4Board.paint(page.board, g.moves, ply, ply === n);
    const p = page.review && page.review.positions[ply];
    let text = ply === 0 ? 'the empty board' : 'after move ' + ply + ' ' + xy(g.moves[ply - 1]);
    if (ply < n) text += '; next, move ' + (ply + 1) + ' ' + xy(g.moves[ply]) + ' by ' +
      g.names[ply % 2];
    // rings: the move played next (dashed), the engine's move there (green): a mark's
    // recommendation, from its check, where the move is marked
    const m = page.review && page.review.marks.find(function (k) { return k.index === ply; });
    const best = m && m.best ? m.best : p && p.best;
    C4Board.mark(page.board, ply < n ? [g.moves[ply]] : [], 'ring-next');
    C4Board.mark(page.board, best ? [best] : [], 'ring-best');
    if (p) {
      text += '. ' + g.names[0] + "'s win chance " + Math.round(p.chance * 100) + '%' +
        (p.proof ? ' (proven ' + p.proof + ' for the side to move)' : '') +
        (best ? '; the engine plays ' + xy(best) +
          (m ? ' (at ' + budgetText(page.review.check) + ')' : '') : '');
    }
    $('step-info').textContent = text;
    $('board').dataset.ply = ply;
    const cursor = $('graph').querySelector('.cursor');
    if (cursor) ['x1', 'x2'].forEach(function (k) { cursor.setAttribute(k, xOf(ply)); });
  }

  // ---- the graph ----------------------------------------------------------------------------
  function xOf(ply) { return LEFT + ply * (W - LEFT - RIGHT) / Math.max(1, page.game.moves.length); }
  function yOf(chance) { return TOP + (1 - chance) * (H - TOP - BOTTOM); }
  function plyAt(clientX) { // the graph is scaled to its box (a phone's width)
    const r = $('graph').getBoundingClientRect(), n = page.game.moves.length;
    const ply = Math.round(((clientX - r.left) * W / (r.width || W) - LEFT) / (xOf(1) - LEFT));
    return Math.max(0, Math.min(n, ply));
  }
  // A mark on the graph (its sign drawn inside): a link to the position before move `index`.
  function link(parent, index, mark, title) {
    const decisive = mark === 'decisive', a = el(parent, 'a', { href: boardUrl(index),
      class: decisive ? 'mark decisive' : 'mark', 'data-mark': mark, 'data-index': index,
      'aria-label': 'move ' + (index + 1) + ': ' + (decisive ? DECISIVE : mark) });
    a.addEventListener('click', function (e) { e.stopPropagation(); });
    a.addEventListener('mouseenter', function () { show(index); });
    el(a, 'title', {}, 'move ' + (index + 1) + ' ' + xy(page.game.moves[index]) + title);
    return a;
  }
  function drawGraph() {
    const graph = $('graph'), rv = page.review, pos = rv.positions, g = page.game;
    graph.textContent = '';
    graph.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    graph.dataset.plies = pos.length - 1;
    el(graph, 'rect', { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM,
      fill: '#f3f3f3', stroke: '#bbb' });
    [[1, '100%'], [0.5, '50%'], [0, '0%']].forEach(function (t) {
      el(graph, 'line', { x1: LEFT, x2: W - RIGHT, y1: yOf(t[0]), y2: yOf(t[0]), stroke: '#bbb',
        'stroke-dasharray': t[0] === 0.5 ? '4 3' : '' });
      el(graph, 'text', { x: LEFT - 4, y: yOf(t[0]) + 4, 'text-anchor': 'end',
        'font-size': 10, fill: '#555' }, t[1]);
    });
    for (let i = 0; i < pos.length; i += Math.max(1, Math.ceil(pos.length / 12))) {
      el(graph, 'text', { x: xOf(i), y: H - 8, 'text-anchor': 'middle', 'font-size': 10,
        fill: '#555' }, i);
    }
    const points = pos.map(function (p, i) { return xOf(i) + ',' + yOf(p.chance); });
    el(graph, 'path', { d: 'M' + xOf(0) + ',' + yOf(0) + 'L' + points.join('L') + 'L' +
      xOf(pos.length - 1) + ',' + yOf(0) + 'Z', fill: '#f3b3b3', opacity: 0.6 });
    el(graph, 'polyline', { class: 'chance', points: points.join(' '), fill: 'none',
      stroke: '#b42318', 'stroke-width': 2 });
    if (rv.decisive !== null) { // a dashed line before the decisive move, its sign on top
      const x = xOf(rv.decisive), colour = MARKS.decisive[1];
      el(graph, 'line', { x1: x, x2: x, y1: TOP, y2: H - BOTTOM, stroke: colour,
        'stroke-width': 2, 'stroke-dasharray': '6 3' });
      el(link(graph, rv.decisive, 'decisive', ', ' + DECISIVE), 'path', {
        d: 'M' + x + ',' + (TOP - 8) + 'l8,8l-8,8l-8,-8z', fill: colour, stroke: '#fff' });
    }
    rv.marks.forEach(function (m) { // at the position before the move: where the fall starts
      el(link(graph, m.index, m.mark, ': ' + m.mark + (m.why ? ' (' + m.why + ')' : '')),
        'circle', { cx: xOf(m.index), cy: yOf(pos[m.index].chance), r: 6,
          fill: MARKS[m.mark][1], stroke: '#fff' });
    });
    el(graph, 'line', { class: 'cursor', x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM,
      stroke: '#0bd', 'stroke-width': 1, 'pointer-events': 'none' });
    graph.addEventListener('mousemove', function (e) { show(plyAt(e.clientX)); });
    graph.addEventListener('click', function (e) { location.href = boardUrl(plyAt(e.clientX)); });
    $('graph-hint').textContent = 'Before each move, from ' + g.names[0] +
      "'s side (first, red), the engine at " + budgetText(rv.budget) + ' a position. ' +
      checkText(rv) + ' A ' +
      "mark's dot sits at the position before the marked move, and it and the list open " +
      'that position on the analysis board (the move played is next in its list); a click ' +
      'elsewhere opens the position under the pointer.' +
      (rv.hidden.length ? ' Not marked by the first pass at this budget: ' +
        rv.hidden.join(', ') + " (two reviews at it differ by up to " + rv.noise.toFixed(2) +
        " in a move's fall, 9 moves in 10; choose a larger budget to see them; the check may " +
        'still call a mark of the first pass one).' : '');
  }
  // What the check did: its budget, the marks it kept, its cost.
  function checkText(rv) {
    if (!rv.candidates.length) return 'No move of the first pass needed a deeper look.';
    return 'Each mark of that first pass was looked at again at ' + budgetText(rv.check) +
      ' a position, each one that look marks once more at ' + budgetText(rv.confirm) +
      ', and shown only where both looks mark it, by the milder mark: ' + rv.marks.length +
      ' of ' + rv.candidates.length + ' kept (the looks took ' +
      rv.check_elapsed.toFixed(0) + ' s)' +
      (rv.unchecked ? '; ' + rv.unchecked + ' not looked at, the smallest falls, once the ' +
        "review had spent its seconds, and not shown." : '.');
  }
  function budgetText(b) {
    return [b.seconds ? b.seconds + ' s' : '', b.playouts ? b.playouts + ' play-outs' : '']
      .filter(Boolean).join(' and ');
  }

  // ---- the list -----------------------------------------------------------------------------
  function drawList() {
    const ul = $('marks'), rv = page.review, g = page.game;
    ul.textContent = '';
    const items = rv.marks.map(function (m) {
      return { index: m.index, mark: m.mark, text: m.mark + (m.why ? ': ' + m.why : '') };
    });
    if (rv.decisive !== null) items.push({ index: rv.decisive, mark: 'decisive', text: DECISIVE });
    items.sort(function (p, q) { return p.index - q.index; });
    items.forEach(function (it) {
      const li = el(ul, 'li', { 'data-mark': it.mark, 'data-index': it.index });
      const a = el(li, 'a', { href: boardUrl(it.index),
        title: 'opens the position before this move on the analysis board' });
      el(a, 'b', { style: 'color: ' + MARKS[it.mark][1] }, MARKS[it.mark][0] + ' ');
      a.append('move ' + (it.index + 1) + ' ' + xy(g.moves[it.index]) + ' by ' +
        g.names[it.index % 2] + ': ' + it.text);
      li.addEventListener('mouseenter', function () { show(it.index); });
      a.addEventListener('focus', function () { show(it.index); });
    });
    if (!items.length) el(ul, 'li', {}, 'none');
  }

  // ---- the budget ---------------------------------------------------------------------------
  function drawBudgets(b) {
    if (page.budgets) return;
    page.budgets = b;
    const select = $('budget'), chosen = new URLSearchParams(location.search).get('seconds');
    select.add(new Option(budgetText(b.default) + " a position (the server's)", '', false,
      chosen === null || (Number(chosen) === b.default.seconds && !b.default.playouts)));
    b.seconds.forEach(function (s) {  // the server's own budget is offered once
      if (s === b.default.seconds && !b.default.playouts) return;
      select.add(new Option(s + ' s a position', s, false, s === Number(chosen)));
    });
    select.addEventListener('change', function () {
      location.search = '?' + query(select.value || null);
    });
  }

  // ---- the job ------------------------------------------------------------------------------
  function render(d) {
    if (!page.game) {
      page.game = d.game;
      const b = d.game.board;
      $('title').textContent = d.game.names[0] + ' (first, red) vs ' + d.game.names[1] +
        ' (second, yellow), ' + b[0] + 'x' + b[1] + ', forbidden (' + b[2] + ',' + b[3] +
        '): ' + d.game.result + ', ' + d.game.reason;
      page.board = C4Board.build($('board'), b[0], b[1], b[2], b[3],
        { cell: 36, fit: true }); // so that it scales to a phone's width
      C4Board.setWin(page.board, [].concat.apply([], d.game.win_line));
      show(d.game.moves.length);
    }
    drawBudgets(d.budgets);
    const bar = $('progress');
    bar.max = Math.max(1, d.total);
    bar.value = d.state === 'ready' ? bar.max : d.done;
    $('progress-text').textContent = {
      queued: (d.message || 'waiting for an engine') + '...',
      running: 'reviewing: ' + d.done + ' of ' + d.total + ' positions' +
        (d.message ? '; ' + d.message : ''),
      ready: 'reviewed', failed: 'the review failed: ' + d.message }[d.state] || d.state;
    document.body.dataset.state = d.state;
    if (d.state === 'ready') {
      page.review = d.review;
      if (d.review.analysis_seconds !== null) {
        DECISIVE = 'decisive: the loss analysis (' + d.review.analysis_seconds +
          ' s a position) proves the game lost from here';
      }
      $('progress-box').hidden = true;
      $('result-box').hidden = false;
      drawGraph();
      drawList();
      show(d.game.moves.length);
    }
  }
  // The job's state drawn; true once it is ready or failed.
  function done(d) {
    say('');
    render(d);
    return d.state === 'ready' || d.state === 'failed';
  }
  // Ask for the review, then its state twice a second until it is done; a refusal (a bad key,
  // an unknown game) is the end, a lost connection or a failed poll is asked again.
  function start() {
    web.json(API, 'POST').then(function (d) {
      if (done(d)) return;
      web.poll(API, 500, done, function (e, pause) {
        say(e.message + ' (asking again in ' + Math.round(pause / 1000) + ' s)');
      });
    }).catch(function (e) {
      if (e instanceof TypeError) {
        say(e.message + ' (asking again in 2 s)');
        setTimeout(start, 2000);
        return;
      }
      say(e.message);
      document.body.dataset.state = 'refused';
    });
  }
  start();
}());
