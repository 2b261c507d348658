// The analysis board: a game or a set-up, its moves as a tree (the line played, and a branch
// wherever a move is played off it), a cursor on it, and the page's own engine on the server
// analysing the position at the cursor. The URL holds what makes the page (the board, the
// moves and the cursor or the set-up, the budget: docs/web.md); the server reads it
// (/api/analysis/position) and judges every position, so the page never parses a move. The
// page's event stream is its session: the server pushes the session's id, then every line the
// engine writes about the page's position (docs/protocol.md, section 4) with the position's
// value, tagged with the request's number so that a late line of an older position is never
// drawn. What the page shows is mirrored into data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const CELL = 44, STATS = 58;  // a cell's pixels; the band under the board for the numbers
  const page = { M: 9, N: 9, noX: 8, noY: 4, setup: null, root: null, cursor: null, ids: 0,
    board: null, stats: [], session: null, analysing: false, tag: 0, sentAt: {}, last: null,
    hover: null, lineHover: null, playouts: 0 };
  const say = web.say, post = web.post, svg = C4Board.svg;

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
  function pieces() { return Object.keys(owners()).length; }
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
    if (isGame(page.cursor)) return { moves: path(page.cursor).map(function (n) { return [n.x, n.y]; }) };
    return { cells: rows() };
  }
  // The page's URL: the line through the cursor to its end and the cursor, or the set-up.
  function url() {
    const q = ['board=' + boardList().join(',')];
    const end = lineEnd(page.cursor), depth = path(page.cursor).length;
    if (isGame(end)) {
      const line = path(end).map(function (n) { return [n.x, n.y]; });
      if (line.length) q.push('moves=' + web.movesText(line));
      if (depth < line.length) q.push('ply=' + depth);
    } else {
      q.push('cells=' + rows().join('/'));
    }
    if ($('seconds').value !== '' && Number($('seconds').value) > 0) {
      q.push('seconds=' + Number($('seconds').value));
    }
    if (page.playouts) q.push('playouts=' + page.playouts);
    return '/analyse?' + q.join('&');
  }

  // ---- drawing ------------------------------------------------------------------------------
  function build() {
    const el = $('analysis-board');
    page.board = C4Board.build(el, page.M, page.N, page.noX, page.noY,
      { cell: CELL, below: STATS, fit: true });  // scales on a narrow screen
    el.style.maxWidth = el.getAttribute('width') + 'px';
    const top = CELL * (page.M + 0.5) + 8;
    page.stats = [];
    for (let y = 0; y < page.N; y++) {
      const cx = CELL * (y + 1), g = svg(el, 'g', { 'data-column': y });
      page.stats.push({
        g: g, value: svg(g, 'text', { class: 'stat', x: cx, y: top + 10 }),
        bar: svg(g, 'rect', { class: 'bar', x: cx - CELL * 0.3, y: top + 44, width: CELL * 0.6,
          height: 0 }),
        proof: svg(g, 'text', { class: 'stat', x: cx, y: top + 56 }),
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
    const line = page.last, el = $('analysis-board');
    const byColumn = {};
    if (line) line.moves.forEach(function (m) { byColumn[m.move[1]] = m; });
    const most = line ? Math.max.apply(null, [1].concat(line.moves.map(function (m) {
      return m.visits; }))) : 1;
    page.stats.forEach(function (st, y) {
      const m = byColumn[y], best = line && line.best && line.best[1] === y;
      st.value.textContent = m && m.value !== null ? percent(m.value) : '';
      const h = m ? 30 * m.visits / most : 0;
      st.bar.setAttribute('y', st.top - h);
      st.bar.setAttribute('height', h);
      st.bar.setAttribute('class', best ? 'bar best' : 'bar');
      st.proof.textContent = m ? proofText(m.proof) : '';
      st.proof.setAttribute('class', 'stat ' + (m && m.proof ? m.proof.result : ''));
      st.g.dataset.visits = m ? m.visits : '';
      st.g.dataset.value = m && m.value !== null ? m.value : '';
      st.g.dataset.proof = m && m.proof ? m.proof.result : '';
      st.g.dataset.plies = m && m.proof && m.proof.plies ? m.proof.plies : '';
      const proven = m && m.proof && m.proof.result !== 'draw';
      if (m && (proven || best)) {
        C4Board.mark(page.board, [m.move], proven ? 'mark-' + m.proof.result : 'mark-best');
      }
    });
    el.dataset.plies = pieces();
    el.dataset.toMove = toMove();
    el.dataset.tag = line ? line.tag : '';
    el.dataset.best = line && line.best ? line.best.join(',') : '';
    el.dataset.playouts = line ? line.playouts : '';
    el.dataset.done = line && line.done ? line.reason : '';
    const depth = path(page.cursor).length;
    $('to-move').textContent = (toMove() === 1 ? 'Red (the first player)'
      : 'Yellow (the second player)') + ' to move' + (isGame(page.cursor) ? ', after ' +
      depth + ' moves' : ', a position set up by hand');
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
    $('engine').textContent = (line.best ? 'best ' + C4Board.cellText(line.best) : 'no move yet') +
      proof + '; ' + line.playouts.toLocaleString('en') + ' play-outs, ' +
      line.pps.toLocaleString('en') + ' a second, depth ' + line.depth + ', ' +
      line.seconds.toFixed(1) + ' s' + (line.reused ? ', ' + line.reused.toLocaleString('en') +
      ' kept from before' : '') + (line.done ? ' (done: ' + line.reason + ')' : '');
  }
  // The top lines, best first, as the server ranks them (a proven win first, then by
  // visits), each column with its own line.
  function topLines() {
    return page.last ? page.last.lines.map(function (i) { return page.last.moves[i]; }) : [];
  }
  function drawLines() {
    const ol = $('lines');
    ol.textContent = '';
    topLines().forEach(function (m) {
      const li = document.createElement('li');
      li.dataset.move = m.move.join(',');
      li.dataset.pv = m.pv.map(function (p) { return p.join(','); }).join(' ');
      li.textContent = C4Board.cellText(m.move) + ' ' + (m.proof ? proofText(m.proof)
        : m.value !== null ? percent(m.value) : '') + ', ' + m.visits + ' visits: ' +
        m.pv.map(C4Board.cellText).join(' ');
      if (page.lineHover === li.dataset.move) li.className = 'hovered';
      li.addEventListener('mouseenter', function () {
        page.lineHover = li.dataset.move; li.className = 'hovered'; drawGhosts();
      });
      li.addEventListener('mouseleave', function () {
        page.lineHover = null; li.className = ''; drawGhosts();
      });
      ol.appendChild(li);
    });
  }
  // The line of the hovered column (or top line) as numbered ghost stones: that move's own
  // line in the engine's latest update, else the move alone.
  function drawGhosts() {
    let pv = [];
    if (page.lineHover !== null) {
      const m = page.last && page.last.moves.find(function (m) {
        return m.move.join(',') === page.lineHover; });
      pv = m ? m.pv : [];
    } else if (page.hover !== null) {
      const x = C4Board.landing(page.board, page.hover);
      const m = x !== null && page.last && page.last.moves.find(function (m) {
        return m.move[0] === x && m.move[1] === page.hover; });
      pv = x === null ? [] : m && m.pv.length ? m.pv : [[x, page.hover]];
    }
    C4Board.ghosts(page.board, pv, toMove());
    $('pv').textContent = pv.length ? 'line: ' + pv.map(C4Board.cellText).join(' ') : '';
  }

  // ---- the move list ------------------------------------------------------------------------
  function moveButton(parent, n) {
    const b = document.createElement('button'), depth = path(n).length;
    b.type = 'button';
    b.setAttribute('role', 'listitem');
    b.dataset.node = n.id;
    b.dataset.ply = depth;
    b.dataset.move = n.x + ',' + n.y;
    const off = n.piece !== C4Board.stone(depth - 1) || page.setup;
    b.textContent = depth + ' (' + n.x + ',' + n.y + ')' + (off ? ' by hand' : '');
    b.className = 'p' + n.piece;
    b.setAttribute('aria-label', 'move ' + depth + ', ' + (n.piece === 1 ? 'red' : 'yellow') +
      ' at row ' + n.x + ', column ' + n.y);
    if (n === page.cursor) {
      b.className += ' current';
      b.setAttribute('aria-current', 'true');
    }
    b.addEventListener('click', function () { goTo(n); });
    parent.appendChild(b);
  }
  function renderLine(container, from) {
    for (let n = from; n.children.length; n = n.children[0]) {
      moveButton(container, n.children[0]);
      n.children.slice(1).forEach(function (branch) {
        const v = document.createElement('span');
        v.className = 'variation';
        v.appendChild(document.createTextNode('('));
        moveButton(v, branch);
        renderLine(v, branch);
        v.appendChild(document.createTextNode(')'));
        container.appendChild(v);
      });
    }
  }
  function drawMoves() {
    const box = $('move-list');
    box.textContent = '';
    if (page.setup) box.appendChild(document.createTextNode('(set up by hand) '));
    renderLine(box, page.root);
    if (!page.root.children.length) box.appendChild(document.createTextNode('no moves yet'));
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
  function goTo(n) {
    if (n === page.cursor) return;
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
    const seconds = Number($('seconds').value);
    if ($('seconds').value !== '' && seconds > 0) body.seconds = seconds;
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
    const el = $('analysis-board');
    if (ev.kind === 'session') {
      page.session = ev.id;
      el.dataset.session = ev.id;
      $('waiting').textContent = '';
      if (page.analysing) request();
    } else if (ev.kind === 'waiting' || ev.kind === 'released') {
      $('waiting').textContent = ev.message;
      el.dataset.waiting = ev.kind === 'waiting' ? '1' : '';
      el.dataset.released = ev.kind === 'released' ? '1' : '';
    } else if (ev.kind === 'ready') {
      $('waiting').textContent = '';
      el.dataset.waiting = '';
      el.dataset.released = '';
    } else if (ev.kind === 'error') {
      if (ev.tag === page.tag) say(ev.message);
    } else if (ev.kind === 'update' && ev.tag === page.tag) {
      if (page.sentAt[ev.tag] !== undefined) {
        el.dataset.firstUpdateMs = (performance.now() - page.sentAt[ev.tag]).toFixed(1);
        delete page.sentAt[ev.tag];
      }
      el.dataset.updates = Number(el.dataset.updates || 0) + 1;
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
    if (page.session) post('/api/analysis/' + page.session + '/stop').catch(function (e) { say(e.message); });
    drawEngine();
  }

  // ---- input --------------------------------------------------------------------------------
  function dropMode() { return Number(document.querySelector('input[name=drop]:checked').value); }
  function drop(y) {
    const x = C4Board.landing(page.board, y);
    if (x === null) { say('column ' + y + ' is full'); return; }
    const piece = dropMode() || toMove();
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
    if (to) goTo(to);
  }
  function setBoard(board, moves, ply, cells) {
    page.M = board[0]; page.N = board[1]; page.noX = board[2]; page.noY = board[3];
    $('rows').value = page.M; $('cols').value = page.N;
    $('no-x').value = page.noX; $('no-y').value = page.noY;
    let setup = null;
    if (cells) {
      setup = {};
      cells.forEach(function (row, x) {
        for (let y = 0; y < row.length; y++) {
          if (row[y] !== '.') setup[x + ',' + y] = row[y] === 'X' ? 1 : 2;
        }
      });
    }
    newTree(setup);
    let n = page.root;
    moves.forEach(function (m, i) { n = node(n, m[0], m[1], C4Board.stone(i)); });
    page.cursor = page.root;
    for (let i = 0; i < ply; i++) page.cursor = page.cursor.children[0];
    build();
    changed();
  }
  function newBoard() {
    const list = ['rows', 'cols', 'no-x', 'no-y'].map(function (id) { return Number($(id).value); });
    web.json('/api/analysis/position?board=' + list.join(','), 'GET').then(function (p) {
      setBoard(p.board, [], 0, null);
    }).catch(function (e) { say(e.message); });
  }
  function openPaste() {
    post('/api/analysis/paste', { text: $('paste').value, board: boardList() })
      .then(function (p) {
        setBoard(p.board, p.moves, p.ply, null);
        if (p.note) say(p.note);
      }).catch(function (e) { say(e.message); });
  }
  // The page's URL, read by the server; a position in it is analysed at once.
  function fromUrl() {
    const q = new URLSearchParams(location.search);
    return web.json('/api/analysis/position' + location.search, 'GET').then(function (p) {
      if (p.seconds) $('seconds').value = p.seconds;
      if (p.playouts) page.playouts = p.playouts;
      page.analysing = q.has('board') || q.has('moves') || q.has('cells');
      setBoard(p.board, p.moves, p.ply, p.cells);
      if (p.note) say(p.note);
    }).catch(function (e) {
      setBoard([9, 9, 8, 4], [], 0, null);
      say(e.message);
    });
  }

  document.addEventListener('keydown', pageKey);
  $('back').addEventListener('click', function () { if (page.cursor.parent) goTo(page.cursor.parent); });
  $('forward').addEventListener('click', function () {
    if (page.cursor.children.length) goTo(page.cursor.children[0]);
  });
  $('undo').addEventListener('click', function () {
    const n = page.cursor;
    if (!n.parent) return;
    n.parent.children.splice(n.parent.children.indexOf(n), 1);
    goTo(n.parent);
  });
  $('clear').addEventListener('click', function () { newTree(null); changed(); });
  $('new-board').addEventListener('click', newBoard);
  $('start').addEventListener('click', start);
  $('stop').addEventListener('click', stop);
  $('seconds').addEventListener('change', function () {  // a new budget: asked again at once
    history.replaceState(null, '', url());
    if (page.analysing) request();
  });
  $('open-paste').addEventListener('click', openPaste);
  connect();
  fromUrl().then(function () { document.body.dataset.ready = '1'; });
}());
