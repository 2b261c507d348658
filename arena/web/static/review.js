// The game review page: one finished game, named by its key in the query string. The page asks
// the server to review it (a job queued for an engine), shows the job's progress, then draws
// the first player's win chance over the moves (inline SVG), the marked moves in colour on the
// graph and in a list, and the loss analysis's decisive move. Hovering the graph or the list
// shows that position on the board; a click opens it on the analysis board. The graph mirrors
// what it shows into data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const SVGNS = 'http://www.w3.org/2000/svg';
  const MARKS = { // symbol and colour of each mark (docs/web.md, "Game review")
    inaccuracy: ['?!', '#d9a400'], mistake: ['?', '#e67e22'], blunder: ['??', '#d62828'],
    'walked into a proven loss': ['✗', '#111'], 'gave away a proven win': ['✗', '#7b2cbf'] };
  const W = 640, H = 220, LEFT = 40, RIGHT = 12, TOP = 12, BOTTOM = 24;
  const page = { game: null, review: null, board: null };

  function svg(parent, tag, attrs) {
    const el = document.createElementNS(SVGNS, tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    parent.appendChild(el);
    return el;
  }
  function say(text) { $('message').textContent = text || ''; }
  function request(method) { return web.json('/api/review' + location.search, method); }

  // ---- the position at a ply ----------------------------------------------------------------
  // The analysis board with the whole game, its cursor on the position after `ply` moves.
  function open(ply) { location.href = '/analyse/game' + location.search + '&ply=' + ply; }
  function show(ply) {
    const g = page.game, n = g.moves.length;
    C4Board.paint(page.board, g.moves, ply, ply === n);
    const p = page.review && page.review.positions[ply];
    let text = ply === 0 ? 'the empty board' : 'after move ' + ply + ' (' +
      g.moves[ply - 1].join(',') + ')';
    if (p) {
      text += ': ' + g.names[0] + "'s win chance " + Math.round(p.chance * 100) + '%' +
        (p.proof ? ' (proven ' + p.proof + ' for the side to move)' : '') +
        (p.best ? ', the engine plays (' + p.best.join(',') + ')' : '');
    }
    $('step-info').textContent = text;
    const cursor = $('graph').querySelector('.cursor');
    if (cursor) {
      const x = xOf(ply);
      cursor.setAttribute('x1', x);
      cursor.setAttribute('x2', x);
    }
  }

  // ---- the graph ----------------------------------------------------------------------------
  function xOf(ply) { return LEFT + ply * (W - LEFT - RIGHT) / Math.max(1, page.game.moves.length); }
  function yOf(chance) { return TOP + (1 - chance) * (H - TOP - BOTTOM); }
  function plyAt(clientX) {
    const r = $('graph').getBoundingClientRect(), n = page.game.moves.length;
    const ply = Math.round((clientX - r.left - LEFT) / ((W - LEFT - RIGHT) / Math.max(1, n)));
    return Math.max(0, Math.min(n, ply));
  }
  function drawGraph() {
    const el = $('graph'), rv = page.review, pos = rv.positions;
    el.textContent = '';
    el.setAttribute('width', W);
    el.setAttribute('height', H);
    el.dataset.plies = pos.length - 1;
    svg(el, 'rect', { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM,
      fill: '#f3f3f3', stroke: '#bbb' });
    [[1, '100%'], [0.5, '50%'], [0, '0%']].forEach(function (t) {
      svg(el, 'line', { x1: LEFT, x2: W - RIGHT, y1: yOf(t[0]), y2: yOf(t[0]), stroke: '#bbb',
        'stroke-dasharray': t[0] === 0.5 ? '4 3' : '' });
      svg(el, 'text', { x: LEFT - 4, y: yOf(t[0]) + 4, 'text-anchor': 'end',
        'font-size': 10, fill: '#555' }).textContent = t[1];
    });
    for (let i = 0; i < pos.length; i += Math.max(1, Math.ceil(pos.length / 12))) {
      svg(el, 'text', { x: xOf(i), y: H - 8, 'text-anchor': 'middle', 'font-size': 10,
        fill: '#555' }).textContent = i;
    }
    const points = pos.map(function (p, i) { return xOf(i) + ',' + yOf(p.chance); });
    svg(el, 'path', { d: 'M' + xOf(0) + ',' + yOf(0) + 'L' + points.join('L') + 'L' +
      xOf(pos.length - 1) + ',' + yOf(0) + 'Z', fill: '#f3b3b3', opacity: 0.6 });
    svg(el, 'polyline', { class: 'chance', points: points.join(' '), fill: 'none',
      stroke: '#b42318', 'stroke-width': 2 });
    if (rv.decisive !== null) {
      const x = xOf(rv.decisive + 1);
      svg(el, 'line', { class: 'decisive', x1: x, x2: x, y1: TOP, y2: H - BOTTOM,
        stroke: '#243b55', 'stroke-width': 2, 'stroke-dasharray': '6 3' });
    }
    rv.marks.forEach(function (m) {
      const c = svg(el, 'circle', { class: 'mark', cx: xOf(m.index + 1),
        cy: yOf(pos[m.index + 1].chance), r: 5, fill: MARKS[m.mark][1], stroke: '#fff',
        'data-mark': m.mark, 'data-index': m.index });
      svg(c, 'title', {}).textContent = 'move ' + (m.index + 1) + ': ' + m.mark;
    });
    svg(el, 'line', { class: 'cursor', x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM,
      stroke: '#0bd', 'stroke-width': 1 });
    el.style.cursor = 'pointer';
    el.addEventListener('mousemove', function (e) { show(plyAt(e.clientX)); });
    el.addEventListener('click', function (e) { open(plyAt(e.clientX)); });
    $('graph-hint').textContent = 'Before each move, from ' + page.game.names[0] +
      "'s side (first, red), the engine at " + budgetText(rv.budget) + ' a position' +
      (rv.decisive !== null ? '; the dashed line: the decisive move of the loss analysis' : '') +
      '. A click opens that position on the analysis board.';
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
      return { index: m.index, mark: m.mark, text: m.mark + ' (' + (-m.fall).toFixed(2) + ')' };
    });
    if (rv.decisive !== null) {
      items.push({ index: rv.decisive, mark: 'decisive', text: 'the decisive move of the ' +
        'loss analysis' });
    }
    items.sort(function (p, q) { return p.index - q.index; });
    items.forEach(function (it) {
      const li = document.createElement('li'), sym = document.createElement('b');
      const look = MARKS[it.mark] || ['!', '#243b55'];
      sym.textContent = look[0] + ' ';
      sym.style.color = look[1];
      li.appendChild(sym);
      const best = rv.positions[it.index].best;
      li.appendChild(document.createTextNode('move ' + (it.index + 1) + ' (' +
        g.moves[it.index].join(',') + ') by ' + g.names[it.index % 2] + ': ' + it.text +
        (best ? '; the engine plays (' + best.join(',') + ')' : '')));
      li.dataset.mark = it.mark;
      li.dataset.index = it.index;
      li.title = 'opens the position before this move on the analysis board';
      li.addEventListener('mouseenter', function () { show(it.index + 1); });
      li.addEventListener('click', function () { open(it.index); });
      ul.appendChild(li);
    });
    if (!items.length) ul.appendChild(document.createElement('li')).textContent = 'none';
  }

  // ---- the job ------------------------------------------------------------------------------
  function render(d) {
    if (!page.game) {
      page.game = d.game;
      const b = d.game.board;
      $('title').textContent = d.game.names[0] + ' (first, red) vs ' + d.game.names[1] +
        ' (second, yellow), ' + b[0] + 'x' + b[1] + ', forbidden (' + b[2] + ',' + b[3] +
        '): ' + d.game.result + ', ' + d.game.reason;
      page.board = C4Board.build($('board'), b[0], b[1], b[2], b[3], { cell: 36 });
      C4Board.setWin(page.board, [].concat.apply([], d.game.win_line));
      show(d.game.moves.length);
    }
    const bar = $('progress');
    bar.max = Math.max(1, d.total);
    bar.value = d.state === 'ready' ? bar.max : d.done;
    $('progress-text').textContent = {
      queued: 'waiting for an engine (every core is busy)...',
      running: 'reviewing: ' + d.done + ' of ' + d.total + ' positions',
      ready: 'reviewed', failed: 'the review failed: ' + d.message }[d.state] || d.state;
    document.body.dataset.state = d.state;
    if (d.state === 'ready') {
      page.review = d.review;
      $('progress-box').hidden = true;
      $('result-box').hidden = false;
      drawGraph();
      drawList();
      show(d.game.moves.length);
    }
  }
  // The job's state twice a second until it is ready or failed; a failed poll is retried.
  function poll() {
    web.poll('/api/review' + location.search, 500, function (d) {
      say('');
      render(d);
      return d.state === 'ready' || d.state === 'failed';
    }, function (e, pause) {
      say(e.message + ' (asking again in ' + Math.round(pause / 1000) + ' s)');
    });
  }
  request('POST').then(function (d) {
    render(d);
    if (d.state !== 'ready' && d.state !== 'failed') poll();
  }).catch(function (e) {
    say(e.message);
    document.body.dataset.state = 'refused';
  });
}());
