// The puzzle page: a suite's positions (or the positions where the folder's own games went
// wrong) as puzzles, listed with their kept results. The page judges nothing: each column
// clicked is posted to the server (/api/puzzles/move), which proves it right, wrong or
// unsettled by exact search and answers with the engine's defence after a right move, or
// the refutation (the opponent's proven line) after a wrong one, drawn as numbered ghost
// stones; the server also keeps each finished attempt. What the page shows is mirrored into
// data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const page = { source: '', puzzles: [], index: -1, played: [], board: null, busy: false,
    over: false, four: [], refutation: [], right: [] };

  // The puzzle's progress (#status), `cls` "solved" or "failed" at its end; a refusal goes to
  // the message line (web.say).
  function status(text, cls) {
    $('status').textContent = text || '';
    $('status').className = cls || '';
  }
  const warn = web.say, stone = C4Board.stone, cellText = C4Board.cellText;
  function puzzle() { return page.puzzles[page.index]; }
  function moves() { return puzzle().moves.concat(page.played); }
  function colour(piece) { return piece === 1 ? 'red' : 'yellow'; }
  function setState(state) { $('puzzle-board').dataset.state = state; }

  // ---- the list -----------------------------------------------------------------------------
  function drawList() {
    const rows = $('rows');
    rows.textContent = '';
    page.puzzles.forEach(function (p, i) {
      const tr = document.createElement('tr');
      tr.dataset.id = p.id;
      tr.dataset.result = p.result || '';
      if (i === page.index) tr.className = 'current';
      const open = document.createElement('button');
      open.type = 'button';
      open.textContent = p.id;
      open.setAttribute('aria-label', 'puzzle ' + (i + 1) + ', ' + p.id + ', ' + p.goal +
        (p.result ? ', ' + p.result : ''));
      open.addEventListener('click', function () { openPuzzle(i); });
      const cells = [String(i + 1), open, p.level, p.theme || '', p.goal,
        p.result ? p.result + (p.tries > 1 ? ' (' + p.tries + ' tries)' : '') : ''];
      cells.forEach(function (c, k) {
        const td = document.createElement('td');
        if (typeof c === 'string') td.textContent = c; else td.appendChild(c);
        if (k === 5 && p.result) td.className = p.result;
        tr.appendChild(td);
      });
      rows.appendChild(tr);
    });
  }

  // ---- the board ----------------------------------------------------------------------------
  function build() {
    const p = puzzle(), el = $('puzzle-board');
    page.board = C4Board.build(el, p.board[0], p.board[1], p.board[2], p.board[3],
      { cell: 44, fit: true });  // scales on a narrow screen
    el.style.maxWidth = el.getAttribute('width') + 'px';
    C4Board.input(page.board, { drop: drop, hover: preview });
  }
  function draw() {
    const all = moves(), b = page.board, el = $('puzzle-board');
    C4Board.setWin(b, [].concat.apply([], page.four));
    C4Board.paint(b, all, all.length, page.four.length > 0 && !page.refutation.length);
    C4Board.mark(b, page.right, 'right');
    // the refutation as numbered ghost stones, the opponent's first; its four joined
    C4Board.ghosts(b, page.refutation, stone(all.length), page.four);
    el.dataset.plies = all.length;
    el.dataset.toMove = stone(all.length);
    el.dataset.puzzle = puzzle().id;
    const p = puzzle();
    $('analyse-link').hidden = false;
    $('analyse-link').setAttribute('href', '/analyse?board=' + p.board.join(',') +
      (all.length ? '&moves=' + web.movesText(all) : ''));
  }
  function preview(y) {
    C4Board.preview(page.board, page.busy || page.over ? null : y, stone(moves().length));
  }

  // ---- a puzzle -----------------------------------------------------------------------------
  function openPuzzle(i) {
    if (i < 0 || i >= page.puzzles.length) return;
    page.index = i;
    page.played = [];
    page.over = page.busy = false;
    page.four = []; page.refutation = []; page.right = [];
    const p = puzzle(), piece = stone(p.moves.length);
    build();
    draw();
    drawList();
    $('task').textContent = 'Puzzle ' + (i + 1) + ' of ' + page.puzzles.length + ': ' +
      colour(piece) + ' (the ' + p.to_move + ' player) to move' + (p.goal === 'win'
        ? ' and win: any winning move counts, and the engine defends until your four is on ' +
          'the board'
        : ': hold, find a move that does not lose');
    status('your move');
    warn('');
    $('line').textContent = '';
    $('puzzle-board').dataset.verdict = '';
    $('puzzle-board').dataset.defence = '';
    setState('play');
    history.replaceState(null, '', location.pathname + location.search + '#id=' + p.id);
  }
  function finish(result) {
    page.over = true;
    const p = puzzle();
    p.result = result;
    p.tries = (p.tries || 0) + 1;
    setState(result);
    drawList();
  }
  function drop(y) {
    if (page.busy || page.over || page.index < 0) return;
    const x = C4Board.landing(page.board, y);
    if (x === null) { warn('column ' + y + ' is full'); return; }
    const p = puzzle();
    page.busy = true;
    preview(null);
    warn('');
    setState('checking');
    status('column ' + y + ': the exact search is checking it...');
    web.post('/api/puzzles/move', { board: p.board, moves: moves(), goal: p.goal, column: y,
      puzzle: { id: p.id, source: page.source, start: p.moves.length } })
      .then(answer).catch(function (e) {
        page.busy = false;
        setState('play');
        status('your move');
        warn(e.message);
      });
  }
  function answer(step) {
    page.busy = false;
    const el = $('puzzle-board'), m = step.move;
    el.dataset.verdict = step.verdict;
    if (step.verdict === 'unsettled') {
      setState('play');
      status('Column ' + m[1] + ': the exact search could not settle it within its budget (' +
        step.nodes.toLocaleString('en') + ' nodes), so it is neither right nor wrong. Try ' +
        'another column.');
      return;
    }
    page.played.push(m);
    page.four = step.four;
    if (step.verdict === 'right' && step.solved) {
      draw();
      status('Solved: ' + cellText(m) + (step.four.length ? ' makes four.' : ' holds (proven ' +
        (step.result === 'win' ? 'a win' : 'a draw') + ').'), 'solved');
      finish('solved');
    } else if (step.verdict === 'right') {
      page.played.push(step.defence);
      el.dataset.defence = step.defence.join(',');
      draw();
      status('Right: ' + cellText(m) + ' is proven to win. The engine defends with ' +
        cellText(step.defence) + ', the reply that holds out longest; your move.');
      setState('play');
    } else {
      page.refutation = step.refutation;
      page.right = step.right;  // the columns proven right, as the server judged them
      draw();
      const how = step.result === 'draw' ? ' only draws (proven): a win was there.'
        : ' loses (proven): the refutation, numbered, ' + (step.complete
          ? 'ends in ' + colour(stone(moves().length)) + "'s four."
          : 'as far as the budget reached.');
      status('Wrong: ' + cellText(m) + how, 'failed');
      $('line').textContent = (step.refutation.length ? 'The refutation: ' +
        step.refutation.map(cellText).join(' ') + '. ' : '') + (page.right.length
        ? 'Right was: ' + page.right.map(cellText).join(' ') + ' (ringed green).' : '');
      finish('failed');
    }
  }

  // ---- the puzzles --------------------------------------------------------------------------
  function load() {
    return web.json('/api/puzzles' + location.search, 'GET').then(function (d) {
      page.source = d.source;
      page.puzzles = d.puzzles;
      $('source').textContent = d.source + ': ' + d.puzzles.length + ' puzzle' +
        (d.puzzles.length === 1 ? '' : 's') + '; each attempt is kept in ' + d.kept +
        ' beside the log.';
      $('note').textContent = d.note || '';
      const shipped = $('shipped');
      shipped.textContent = d.shipped.length ? 'Shipped suites: ' : '';
      d.shipped.forEach(function (name, i) {
        const a = document.createElement('a');
        a.href = '/puzzles?suite=' + encodeURIComponent(name);
        a.textContent = name;
        shipped.appendChild(document.createTextNode(i ? ', ' : ''));
        shipped.appendChild(a);
      });
      const mine = document.createElement('a');
      mine.href = '/puzzles?log=games.jsonl';
      mine.textContent = "this folder's mistakes";
      shipped.appendChild(document.createTextNode(d.shipped.length ? '; ' : ''));
      shipped.appendChild(mine);
      const hash = new URLSearchParams(location.hash.slice(1));
      let i = page.puzzles.findIndex(function (p) { return p.id === hash.get('id'); });
      if (i < 0) i = page.puzzles.findIndex(function (p) { return !p.result; });
      drawList();
      if (page.puzzles.length) openPuzzle(Math.max(i, 0));
      else status('no puzzles here');
    }).catch(function (e) {
      warn(e.message);
      setState('refused');
    });
  }

  $('retry').addEventListener('click', function () { openPuzzle(page.index); });
  $('next').addEventListener('click', function () {
    if (page.puzzles.length) openPuzzle((page.index + 1) % page.puzzles.length);
  });
  $('open-suite').addEventListener('click', function () {
    location.href = '/puzzles?suite=' + encodeURIComponent($('suite-name').value.trim());
  });
  load().then(function () { document.body.dataset.ready = '1'; });
}());
