// The puzzle page (docs/web.md, "Puzzles"): a suite's positions, or the folder's own games'
// mistakes, with their kept results. The server judges each column clicked (right, wrong or
// unsettled) and answers the engine's defence or the refutation, drawn as ghost stones. What
// the page shows is mirrored into data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const page = { source: '', puzzles: [], index: -1, board: null };  // the rest: openPuzzle's

  // The puzzle's progress (#status) and its state (the board's data-state): "play", "checking",
  // or at its end "solved" or "failed", #status styled so. A refusal goes to web.say.
  function status(text, state) {
    $('status').textContent = text;
    $('status').className = state === 'solved' || state === 'failed' ? state : '';
    $('puzzle-board').dataset.state = state;
  }
  const warn = web.say, stone = C4Board.stone, cellText = C4Board.cellText, el = C4Board.el;
  function puzzle() { return page.puzzles[page.index]; }
  function moves() { return puzzle().moves.concat(page.played); }
  function colour(piece) { return piece === 1 ? 'red' : 'yellow'; }

  // ---- the list -----------------------------------------------------------------------------
  function drawList() {
    const rows = $('rows');
    rows.textContent = '';
    page.puzzles.forEach(function (p, i) {
      const tr = el(rows, 'tr', { 'data-id': p.id, 'data-result': p.result || '',
        class: i === page.index ? 'current' : '' });
      el(tr, 'td', {}, i + 1);
      const open = el(el(tr, 'td', {}), 'button', { type: 'button', 'aria-label': 'puzzle ' +
        (i + 1) + ', ' + p.id + ', ' + p.goal + (p.result ? ', ' + p.result : '') }, p.id);
      open.addEventListener('click', function () { openPuzzle(i); });
      [p.level, p.theme || '', p.goal].forEach(function (text) { el(tr, 'td', {}, text); });
      el(tr, 'td', { class: p.result || '' },
        p.result ? p.result + (p.tries > 1 ? ' (' + p.tries + ' tries)' : '') : '');
    });
  }

  // ---- the board ----------------------------------------------------------------------------
  function build() {
    const p = puzzle(), root = $('puzzle-board');
    page.board = C4Board.build(root, p.board[0], p.board[1], p.board[2], p.board[3],
      { cell: 44, fit: true });  // scales on a narrow screen
    C4Board.input(page.board, { drop: drop, hover: preview });
  }
  function draw() {
    const all = moves(), b = page.board, p = puzzle();
    C4Board.setWin(b, [].concat.apply([], page.four));
    C4Board.paint(b, all, all.length, page.four.length > 0 && !page.refutation.length);
    C4Board.mark(b, page.right, 'right');
    // the refutation as numbered ghost stones, the opponent's first; its four joined
    C4Board.ghosts(b, page.refutation, stone(all.length), page.four);
    Object.assign($('puzzle-board').dataset, { plies: all.length, toMove: stone(all.length),
      puzzle: p.id });
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
    Object.assign(page, { index: i, played: [], over: false, busy: false, four: [],
      refutation: [], right: [] });
    const p = puzzle(), piece = stone(p.moves.length);
    build();
    draw();
    drawList();
    $('task').textContent = 'Puzzle ' + (i + 1) + ' of ' + page.puzzles.length + ': ' +
      colour(piece) + ' (the ' + p.to_move + ' player) to move' + (p.goal === 'win'
        ? ' and win: any winning move counts, and the engine defends until your four is on ' +
          'the board'
        : ': hold, find a move that does not lose');
    status('your move', 'play');
    warn('');
    $('line').textContent = '';
    Object.assign($('puzzle-board').dataset, { verdict: '', defence: '' });
    history.replaceState(null, '', location.pathname + location.search + '#id=' + p.id);
  }
  function finish(result) {
    page.over = true;
    const p = puzzle();
    p.result = result;
    p.tries = (p.tries || 0) + 1;
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
    status('column ' + y + ': the exact search is checking it...', 'checking');
    web.post('/api/puzzles/move', { board: p.board, moves: moves(), goal: p.goal, column: y,
      puzzle: { id: p.id, source: page.source, start: p.moves.length } })
      .then(answer).catch(function (e) {
        page.busy = false;
        status('your move', 'play');
        warn(e.message);
      });
  }
  function answer(step) {
    page.busy = false;
    const board = $('puzzle-board'), m = step.move;
    board.dataset.verdict = step.verdict;
    if (step.verdict === 'unsettled') {
      status('Column ' + m[1] + ': the exact search could not settle it within its budget (' +
        step.nodes.toLocaleString('en') + ' nodes), so it is neither right nor wrong. Try ' +
        'another column.', 'play');
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
      board.dataset.defence = step.defence.join(',');
      draw();
      status('Right: ' + cellText(m) + ' is proven to win. The engine defends with ' +
        cellText(step.defence) + ', the reply that holds out longest; your move.', 'play');
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
        shipped.append(i ? ', ' : '');
        el(shipped, 'a', { href: '/puzzles?suite=' + encodeURIComponent(name) }, name);
      });
      shipped.append(d.shipped.length ? '; ' : '');
      el(shipped, 'a', { href: '/puzzles?log=games.jsonl' }, "this folder's mistakes");
      const hash = new URLSearchParams(location.hash.slice(1));
      let i = page.puzzles.findIndex(function (p) { return p.id === hash.get('id'); });
      if (i < 0) i = page.puzzles.findIndex(function (p) { return !p.result; });
      drawList();
      if (page.puzzles.length) openPuzzle(Math.max(i, 0));
      else $('status').textContent = 'no puzzles here';
    }).catch(function (e) {
      warn(e.message);
      $('puzzle-board').dataset.state = 'refused';
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
