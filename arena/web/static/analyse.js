// The analysis board (docs/web.md, "Analysis board"): a tree of moves, a cursor on it, and the
// page's own engine on the server analysing the position at the cursor. Each engine line carries
// its request's number, so a late line of an older position is never drawn. What the page shows
// is mirrored into data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const CELL = 44, STATS = 58;  // a cell's pixels; the band under the board for the numbers
  const page = { M: 9, N: 9, noX: 8, noY: 4, setup: null, root: null, cursor: null, ids: 0,
    board: null, stats: [], session: null, analysing: false, tag: 0, sentAt: {}, last: null,
    hover: null, lineHover: null, playouts: 0 };
  const say = web.say, post = web.post, el = C4Board.el, cellText = C4Board.cellText;

  // ---- the tree of moves --------------------------------------------------------------------
  // A node is a piece dropped: {id, x, y, piece (1 red, 2 yellow), parent, children}; the
  // root is the set-up (page.setup: {"x,y": piece}, or null: the empty board). A node's first
  // child continues its line; the others are branches.
  function node(parent, x, y, piece) {
    const n = { id: page.ids++, x: x, y: y, piece: piece, parent: parent, children: [] };
    if (parent) parent.children.push(n);
    return n;
  }
  function newTree(setup) {
    page.setup = setup;
    page.root = page.cursor = node(null, -1, -1, 0);
  }
  function path(n) {
    const out = [];
    for (; n && n.parent; n = n.parent) out.unshift(n);
    return out;
  }
  function lineEnd(n) { while (n.children.length) n = n.children[0]; return n; }
  function owners() {
    const o = Object.assign({}, page.setup || {});
    path(page.cursor).forEach(function (n) { o[n.x + ',' + n.y] = n.piece; });
    return o;
  }
  function toMove() {
    let d = 0;
    const o = owners();
    for (const k in o) d += o[k] === 1 ? 1 : -1;
    return d === 0 ? 1 : 2;  // any other count is refused by the server, which says why
  }
  // A game: no set-up and the pieces alternating from red's (a move list, as the URL has it).
  function isGame(n) {
    return !page.setup && path(n).every(function (p, i) { return p.piece === C4Board.stone(i); });
  }
  function boardList() { return [page.M, page.N, page.noX, page.noY]; }
  function movesTo(n) { return path(n).map(function (p) { return [p.x, p.y]; }); }
  function rows() {
    const o = owners(), out = [];
    for (let x = 0; x < page.M; x++) {
      let row = '';
      for (let y = 0; y < page.N; y++) row += ['.', 'X', 'O'][o[x + ',' + y] || 0];
      out.push(row);
    }
    return out;
  }
  function position() {
    return isGame(page.cursor) ? { moves: movesTo(page.cursor) } : { cells: rows() };
  }
  // The page's URL: the line through the cursor to its end and the cursor, or the set-up.
  function url() {
    const q = ['board=' + boardList().join(',')];
    const end = lineEnd(page.cursor), depth = path(page.cursor).length;
    if (isGame(end)) {
      const line = movesTo(end);
      if (line.length) q.push('moves=' + web.movesText(line));
      if (depth < line.length) q.push('ply=' + depth);
    } else {
      q.push('cells=' + rows().join('/'));
    }
    if (Number($('seconds').value) > 0) q.push('seconds=' + Number($('seconds').value));
    if (page.playouts) q.push('playouts=' + page.playouts);
    return '/analyse?' + q.join('&');
  }

  // ---- drawing ------------------------------------------------------------------------------
  function build() {
    const root = $('analysis-board');
    page.board = C4Board.build(root, page.M, page.N, page.noX, page.noY,
      { cell: CELL, below: STATS, fit: true });  // scales on a narrow screen
    const top = CELL * (page.M + 0.5) + 8;
    page.stats = [];
    for (let y = 0; y < page.N; y++) {
      const cx = CELL * (y + 1), g = el(root, 'g', { 'data-column': y });
      page.stats.push({
        g: g, value: el(g, 'text', { class: 'stat', x: cx, y: top + 10 }),
        bar: el(g, 'rect', { class: 'bar', x: cx - CELL * 0.3, y: top + 44, width: CELL * 0.6,
          height: 0 }),
        proof: el(g, 'text', { class: 'stat', x: cx, y: top + 56 }),
        top: top + 44,
      });
    }
    C4Board.input(page.board, { drop: drop, hover: hover,
      leave: function () { hover(page.board.chosen); } });
  }
  function proofText(p) {
    return p ? p.result + (p.plies ? ' ' + p.plies : '') : '';
  }
  function percent(p) { return Math.round(p * 100) + '%'; }
  function draw() {
    const last = page.cursor.parent ? page.cursor.x + ',' + page.cursor.y : null;
    C4Board.fill(page.board, owners(), last, false);
    const line = page.last, board = $('analysis-board'), moves = line ? line.moves : [];
    const byColumn = Object.fromEntries(moves.map(function (m) { return [m.move[1], m]; }));
    const most = Math.max(1, ...moves.map(function (m) { return m.visits; }));
    page.stats.forEach(function (st, y) {
      const m = byColumn[y], best = line && line.best && line.best[1] === y;
      st.value.textContent = m && m.value !== null ? percent(m.value) : '';
      const h = m ? 30 * m.visits / most : 0;
      st.bar.setAttribute('y', st.top - h);
      st.bar.setAttribute('height', h);
      st.bar.setAttribute('class', best ? 'bar best' : 'bar');
      st.proof.textContent = m ? proofText(m.proof) : '';
      st.proof.setAttribute('class', 'stat ' + (m && m.proof ? m.proof.result : ''));
      Object.assign(st.g.dataset, { visits: m ? m.visits : '',
        value: m && m.value !== null ? m.value : '', proof: m && m.proof ? m.proof.result : '',
        plies: m && m.proof && m.proof.plies ? m.proof.plies : '' });
      const proven = m && m.proof && m.proof.result !== 'draw';
      if (m && (proven || best)) {
        C4Board.mark(page.board, [m.move], proven ? 'mark-' + m.proof.result : 'mark-best');
      }
    });
    Object.assign(board.dataset, { plies: Object.keys(owners()).length, toMove: toMove(),
      tag: line ? line.tag : '', best: line && line.best ? line.best.join(',') : '',
      playouts: line ? line.playouts : '', done: line && line.done ? line.reason : '' });
    $('to-move').textContent = (toMove() === 1 ? 'Red (the first player)'
      : 'Yellow (the second player)') + ' to move' + (isGame(page.cursor) ? ', after ' +
      path(page.cursor).length + ' moves' : ', a position set up by hand');
    drawEval();
    drawEngine();
    drawLines();
    drawGhosts();
  }
  // The bar: red's win chance (the first player's) from the server's value of the position.
  function drawEval() {
    const ev = page.last && page.last.eval, bar = $('eval-bar');
    const known = ev && ev.first !== null;
    bar.classList.toggle('none', !known);
    $('eval-fill').style.height = known ? percent(ev.first) : '50%';
    bar.dataset.first = known ? ev.first : '';
    if (known) bar.setAttribute('aria-valuenow', Math.round(ev.first * 100));
    else bar.removeAttribute('aria-valuenow');
    $('eval-text').textContent = !known ? '' : ev.proof ? 'proven: a ' + ev.proof +
      ' for red (the first player)' : 'red (the first player) ' + percent(ev.first) +
      ', yellow ' + percent(1 - ev.first);
  }
  function drawEngine() {
    const line = page.last;
    if (!line) {
      $('engine').textContent = !page.analysing ? '' : page.session ? 'analysing...'
        : 'connecting to the server...';
      return;
    }
    const proof = line.proof ? ', proven ' + proofText(line.proof) + ' for the side to move'
      : '';
    $('engine').textContent = (line.best ? 'best ' + cellText(line.best) : 'no move yet') +
      proof + '; ' + line.playouts.toLocaleString('en') + ' play-outs, ' +
      line.pps.toLocaleString('en') + ' a second, depth ' + line.depth + ', ' +
      line.seconds.toFixed(1) + ' s' + (line.reused ? ', ' + line.reused.toLocaleString('en') +
      ' kept from before' : '') + (line.done ? ' (done: ' + line.reason + ')' : '');
  }
  // The top lines, best first, as the server ranks them (a proven win first, then by
  // visits), each column with its own line.
  function drawLines() {
    const ol = $('lines');
    ol.textContent = '';
    (page.last ? page.last.lines : []).forEach(function (i) {
      const m = page.last.moves[i], move = m.move.join(',');
      const li = el(ol, 'li', { 'data-move': move, class: page.lineHover === move ? 'hovered' : '',
        'data-pv': m.pv.map(function (p) { return p.join(','); }).join(' ') },
        cellText(m.move) + ' ' + (m.proof ? proofText(m.proof) : m.value !== null
          ? percent(m.value) : '') + ', ' + m.visits + ' visits: ' + m.pv.map(cellText).join(' '));
      li.onmouseenter = li.onmouseleave = function (e) {
        page.lineHover = e.type === 'mouseenter' ? move : null;
        li.className = page.lineHover ? 'hovered' : '';
        drawGhosts();
      };
    });
  }
  // The line of the hovered column (or top line) as numbered ghost stones: that move's own
  // line in the engine's latest update, else the move alone.
  function drawGhosts() {
    const x = page.hover === null ? null : C4Board.landing(page.board, page.hover);
    const key = page.lineHover !== null ? page.lineHover : x !== null ? x + ',' + page.hover : null;
    const m = key && page.last && page.last.moves.find(function (m) {
      return m.move.join(',') === key; });
    const pv = m && m.pv.length ? m.pv
      : page.lineHover === null && x !== null ? [[x, page.hover]] : [];
    C4Board.ghosts(page.board, pv, toMove());
    $('pv').textContent = pv.length ? 'line: ' + pv.map(cellText).join(' ') : '';
  }

  // ---- the move list ------------------------------------------------------------------------
  function moveButton(parent, n) {
    const depth = path(n).length, off = n.piece !== C4Board.stone(depth - 1) || page.setup;
    const b = el(parent, 'button', { type: 'button', role: 'listitem', 'data-node': n.id,
      'data-ply': depth, 'data-move': n.x + ',' + n.y,
      class: 'p' + n.piece + (n === page.cursor ? ' current' : ''), 'aria-label': 'move ' +
        depth + ', ' + (n.piece === 1 ? 'red' : 'yellow') + ' at row ' + n.x + ', column ' + n.y },
      depth + ' (' + n.x + ',' + n.y + ')' + (off ? ' by hand' : ''));
    if (n === page.cursor) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', function () { goTo(n); });
  }
  function renderLine(container, from) {
    for (let n = from; n.children.length; n = n.children[0]) {
      moveButton(container, n.children[0]);
      n.children.slice(1).forEach(function (branch) {
        const v = el(container, 'span', { class: 'variation' }, '(');
        moveButton(v, branch);
        renderLine(v, branch);
        v.append(')');
      });
    }
  }
  function drawMoves() {
    const box = $('move-list');
    box.textContent = '';
    if (page.setup) box.append('(set up by hand) ');
    renderLine(box, page.root);
    if (!page.root.children.length) box.append('no moves yet');
    const current = box.querySelector('.current');
    if (current) {  // the list scrolls to the cursor; the page itself stays where it is
      const top = current.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 20) {
        box.scrollTop = Math.max(0, top - box.clientHeight / 2);
      }
    }
    box.dataset.moves = box.querySelectorAll('button').length;
    box.dataset.variations = box.querySelectorAll('.variation').length;
    $('back').disabled = !page.cursor.parent;
    $('forward').disabled = !page.cursor.children.length;
  }
  function goTo(n) {  // none: the cursor stays
    if (!n || n === page.cursor) return;
    page.cursor = n;
    changed();
  }

  // ---- the engine ---------------------------------------------------------------------------
  function changed() {
    page.last = null;
    say('');
    history.replaceState(null, '', url());
    drawMoves();
    draw();
    if (page.analysing) request();
  }
  function request() {
    page.tag += 1;
    $('analysis-board').dataset.refused = '';
    if (!page.session) { drawEngine(); return; }  // sent when the session's id comes
    const body = Object.assign({ board: boardList(), tag: page.tag }, position());
    if (Number($('seconds').value) > 0) body.seconds = Number($('seconds').value);
    if (page.playouts) body.playouts = page.playouts;
    page.sentAt[page.tag] = performance.now();
    const tag = page.tag;
    post('/api/analysis/' + page.session, body).catch(function (e) {
      if (tag !== page.tag) return;
      say(e.message);
      $('analysis-board').dataset.refused = e.message;
      // the engine would go on with the last position, which the board does not show
      if (page.session) post('/api/analysis/' + page.session + '/stop').catch(function () {});
    });
  }
  function onEvent(ev) {
    const board = $('analysis-board');
    if (ev.kind === 'session') {
      page.session = ev.id;
      board.dataset.session = ev.id;
      $('waiting').textContent = '';
      if (page.analysing) request();
    } else if (ev.kind === 'waiting' || ev.kind === 'released' || ev.kind === 'ready') {
      $('waiting').textContent = ev.kind === 'ready' ? '' : ev.message;
      board.dataset.waiting = ev.kind === 'waiting' ? '1' : '';
      board.dataset.released = ev.kind === 'released' ? '1' : '';
    } else if (ev.kind === 'error') {
      if (ev.tag === page.tag) say(ev.message);
    } else if (ev.kind === 'update' && ev.tag === page.tag) {
      if (page.sentAt[ev.tag] !== undefined) {
        board.dataset.firstUpdateMs = (performance.now() - page.sentAt[ev.tag]).toFixed(1);
        delete page.sentAt[ev.tag];
      }
      board.dataset.updates = Number(board.dataset.updates || 0) + 1;
      page.last = ev;
      draw();
    }
  }
  function connect() {  // the stream reconnects by itself: a new session
    web.events('/api/analysis/events', onEvent).onerror = function () {
      page.session = null;
      $('analysis-board').dataset.session = '';
      $('waiting').textContent = 'the connection to the server is lost; reconnecting...';
      drawEngine();
    };
  }
  function start() {
    page.analysing = true;
    request();
    draw();
  }
  function stop() {
    page.analysing = false;  // the final line, "stopped", is drawn as it comes
    if (page.session) post('/api/analysis/' + page.session + '/stop').catch(say);
    drawEngine();
  }

  // ---- input --------------------------------------------------------------------------------
  function drop(y) {
    const x = C4Board.landing(page.board, y);
    if (x === null) { say('column ' + y + ' is full'); return; }
    const piece = Number(document.querySelector('input[name=drop]:checked').value) || toMove();
    const same = page.cursor.children.find(function (n) {
      return n.x === x && n.y === y && n.piece === piece; });
    page.cursor = same || node(page.cursor, x, y, piece);  // off the line: a new branch
    changed();
  }
  function hover(y) {
    if (y !== page.hover) { page.hover = y; drawGhosts(); }
  }
  // The keys off the board step through the moves (the board's own choose a column).
  function pageKey(e) {
    const t = e.target;
    if (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName) || t === $('analysis-board')) return;
    const c = page.cursor;
    const to = { ArrowLeft: c.parent, ArrowRight: c.children[0], Home: page.root,
      ArrowUp: page.root, End: lineEnd(c), ArrowDown: lineEnd(c) }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    goTo(to);
  }
  const FORM = ['rows', 'cols', 'no-x', 'no-y'];  // the new board's size and forbidden cell
  // A position as the server answers it (/api/analysis/position and /paste): the board, the
  // moves and the cursor (ply), or a set-up's cells (X red, O yellow); its note said.
  function setBoard(p) {
    [page.M, page.N, page.noX, page.noY] = p.board;
    FORM.forEach(function (id, i) { $(id).value = p.board[i]; });
    const setup = p.cells ? {} : null;
    (p.cells || []).forEach(function (row, x) {
      Array.from(row).forEach(function (c, y) {
        if (c !== '.') setup[x + ',' + y] = c === 'X' ? 1 : 2;
      });
    });
    newTree(setup);
    let n = page.root;
    p.moves.forEach(function (m, i) { n = node(n, m[0], m[1], C4Board.stone(i)); });
    for (let i = 0; i < p.ply; i++) page.cursor = page.cursor.children[0];
    build();
    changed();
    if (p.note) say(p.note);
  }
  function newBoard() {
    web.json('/api/analysis/position?board=' + FORM.map(function (id) {
      return Number($(id).value); }).join(','), 'GET').then(setBoard).catch(say);
  }
  function openPaste() {
    post('/api/analysis/paste', { text: $('paste').value, board: boardList() })
      .then(setBoard).catch(say);
  }
  // The page's URL, read by the server; a position in it is analysed at once.
  function fromUrl() {
    const q = new URLSearchParams(location.search);
    return web.json('/api/analysis/position' + location.search, 'GET').then(function (p) {
      if (p.seconds) $('seconds').value = p.seconds;
      if (p.playouts) page.playouts = p.playouts;
      page.analysing = q.has('board') || q.has('moves') || q.has('cells');
      setBoard(p);
    }).catch(function (e) {
      setBoard({ board: [9, 9, 8, 4], moves: [], ply: 0 });
      say(e.message);
    });
  }

  document.addEventListener('keydown', pageKey);
  const clicks = {
    back: function () { goTo(page.cursor.parent); },
    forward: function () { goTo(page.cursor.children[0]); },
    undo: function () {
      const n = page.cursor;
      if (!n.parent) return;
      n.parent.children.splice(n.parent.children.indexOf(n), 1);
      goTo(n.parent);
    },
    clear: function () { newTree(null); changed(); },
    'new-board': newBoard, start: start, stop: stop, 'open-paste': openPaste };
  for (const id in clicks) $(id).addEventListener('click', clicks[id]);
  $('seconds').addEventListener('change', function () {  // a new budget: asked again at once
    history.replaceState(null, '', url());
    if (page.analysing) request();
  });
  connect();
  fromUrl().then(function () { document.body.dataset.ready = '1'; });
}());
