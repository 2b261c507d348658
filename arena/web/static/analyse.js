// The analysis board: a position set up by clicks, opened from a URL
// (/analyse?board=M,N,no_x,no_y&moves=x.y,x.y,...) or pasted, analysed by the page's own
// engine on the server. The page's event stream is its session: the server pushes the
// session's id, then every line the engine writes about the page's current position
// (docs/protocol.md, section 4), tagged with the request's number so that a late line of an
// older position is never drawn. The server judges every position; the page only draws.
// What the page shows is mirrored into data-* attributes for the browser tests.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const SVGNS = 'http://www.w3.org/2000/svg';
  const CELL = 44, STATS = 58;  // a cell's pixels; the band under the board for the numbers
  const page = { M: 9, N: 9, noX: 8, noY: 4, placed: [], board: null, stats: [],
    ghosts: null, session: null, analysing: false, tag: 0, sentAt: {}, last: null, pvs: {},
    hover: null, playouts: 0 };

  function say(text) { $('message').textContent = text || ''; }
  const post = window.web.post;
  function svg(parent, tag, attrs) {
    const el = document.createElementNS(SVGNS, tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    parent.appendChild(el);
    return el;
  }

  // ---- the position -------------------------------------------------------------------------
  // page.placed: the pieces in the order they were dropped, [x, y, piece] (1 red, 2 yellow).
  function owners() {
    const o = {};
    page.placed.forEach(function (p) { o[p[0] + ',' + p[1]] = p[2]; });
    return o;
  }
  function toMove() {
    let d = 0;
    page.placed.forEach(function (p) { d += p[2] === 1 ? 1 : -1; });
    return d === 0 ? 1 : 2;  // any other count is refused by the server, which says why
  }
  // The pieces alternate from red's: a game's move list, which the URL and the engine take.
  function isGame() {
    return page.placed.every(function (p, i) { return p[2] === i % 2 + 1; });
  }
  function landing(y) {
    const o = owners();
    for (let x = page.M - 1; x >= 0; x--) {
      if (x === page.noX && y === page.noY) continue;
      if (!o[x + ',' + y]) return x;
    }
    return null;
  }
  function boardList() { return [page.M, page.N, page.noX, page.noY]; }
  function position() {
    if (isGame()) return { moves: page.placed.map(function (p) { return [p[0], p[1]]; }) };
    const o = owners(), rows = [];
    for (let x = 0; x < page.M; x++) {
      let row = '';
      for (let y = 0; y < page.N; y++) row += ['.', 'X', 'O'][o[x + ',' + y] || 0];
      rows.push(row);
    }
    return { cells: rows };
  }
  function url() { return web.analyseUrl(boardList(), isGame() ? page.placed : null); }

  // ---- drawing ------------------------------------------------------------------------------
  function build() {
    const el = $('analysis-board');
    page.board = C4Board.build(el, page.M, page.N, page.noX, page.noY, { cell: CELL });
    el.setAttribute('height', CELL * (page.M + 1) + STATS);
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
    page.ghosts = svg(el, 'g', {});
  }
  function cellOf(x, y) { return page.board.cells[x + ',' + y]; }
  function proofText(p) {
    return p ? p.result + (p.plies ? ' ' + p.plies : '') : '';
  }
  function draw() {
    const o = owners(), b = page.board, last = page.placed[page.placed.length - 1];
    for (const key in b.cells) {
      const s = o[key] || 0;
      b.cells[key].setAttribute('class', (s ? 'p' + s : 'hole') +
        (last && key === last[0] + ',' + last[1] ? ' last' : ''));
      b.cells[key].setAttribute('data-s', s);
    }
    const line = page.last, el = $('analysis-board');
    const byColumn = {};
    if (line) line.moves.forEach(function (m) { byColumn[m.move[1]] = m; });
    const most = line ? Math.max.apply(null, [1].concat(line.moves.map(function (m) {
      return m.visits; }))) : 1;
    page.stats.forEach(function (st, y) {
      const m = byColumn[y], best = line && line.best && line.best[1] === y;
      st.value.textContent = m && m.value !== null ? Math.round(m.value * 100) + '%' : '';
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
      if (m) {
        const c = cellOf(m.move[0], m.move[1]);
        if (m.proof && m.proof.result !== 'draw') c.classList.add('mark-' + m.proof.result);
        else if (best) c.classList.add('mark-best');
      }
    });
    el.dataset.plies = page.placed.length;
    el.dataset.toMove = toMove();
    el.dataset.tag = line ? line.tag : '';
    el.dataset.best = line && line.best ? line.best.join(',') : '';
    el.dataset.playouts = line ? line.playouts : '';
    el.dataset.done = line && line.done ? line.reason : '';
    $('to-move').textContent = (toMove() === 1 ? 'Red (the first player)'
      : 'Yellow (the second player)') + ' to move' + (isGame() ? ', after ' +
      page.placed.length + ' moves' : ', a position set up by hand');
    drawEngine();
    drawGhosts();
  }
  function drawEngine() {
    const line = page.last;
    if (!line) { $('engine').textContent = page.analysing ? 'analysing...' : ''; return; }
    const proof = line.proof ? ', proven ' + proofText(line.proof) + ' for the side to move'
      : '';
    $('engine').textContent = (line.best ? 'best (' + line.best.join(',') + ')' : 'no move yet') +
      proof + '; ' + line.playouts.toLocaleString('en') + ' play-outs, ' +
      line.pps.toLocaleString('en') + ' a second, depth ' + line.depth + ', ' +
      line.seconds.toFixed(1) + ' s' + (line.reused ? ', ' + line.reused.toLocaleString('en') +
      ' kept from before' : '') + (line.done ? ' (done: ' + line.reason + ')' : '');
  }
  // The line of the hovered column as numbered ghost stones: the engine's principal
  // variation when the column is its best move, else the line it gave while that move was
  // best in this position (the engine writes the best move's line only), else the move alone.
  function drawGhosts() {
    page.ghosts.textContent = '';
    const el = $('analysis-board');
    el.dataset.ghosts = '';
    $('pv').textContent = '';
    if (page.hover === null) return;
    const x = landing(page.hover);
    if (x === null) return;
    const key = x + ',' + page.hover, line = page.last;
    let pv = [[x, page.hover]];
    if (line && line.best && line.best.join(',') === key && line.pv.length) pv = line.pv;
    else if (page.pvs[key]) pv = page.pvs[key];
    let piece = toMove();
    pv.forEach(function (m, i) {
      const c = [CELL * (m[1] + 1), CELL * (m[0] + 1)];
      svg(page.ghosts, 'circle', { class: 'ghost' + piece, cx: c[0], cy: c[1], r: CELL * 0.4 });
      svg(page.ghosts, 'text', { class: 'ghost-n', x: c[0], y: c[1] + 5 }).textContent = i + 1;
      piece = 3 - piece;
    });
    el.dataset.ghosts = pv.map(function (m) { return m.join(','); }).join(' ');
    $('pv').textContent = 'line: ' + pv.map(function (m) { return '(' + m.join(',') + ')'; })
      .join(' ');
  }

  // ---- the engine ---------------------------------------------------------------------------
  function changed() {
    page.last = null;
    page.pvs = {};
    say('');
    history.replaceState(null, '', url());
    draw();
    if (page.analysing) request();
  }
  function request() {
    page.tag += 1;
    if (!page.session) return;  // sent when the session's id comes
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
      post('/api/analysis/' + page.session + '/stop').catch(function () {});
    });
    $('analysis-board').dataset.refused = '';
  }
  function onEvent(e) {
    const ev = JSON.parse(e.data), el = $('analysis-board');
    if (ev.kind === 'session') {
      page.session = ev.id;
      el.dataset.session = ev.id;
      if (page.analysing) request();
    } else if (ev.kind === 'waiting') {
      $('waiting').textContent = ev.message;
      el.dataset.waiting = '1';
    } else if (ev.kind === 'ready') {
      $('waiting').textContent = '';
      el.dataset.waiting = '';
    } else if (ev.kind === 'error') {
      if (ev.tag === page.tag) say(ev.message);
    } else if (ev.kind === 'update' && ev.tag === page.tag) {
      if (page.sentAt[ev.tag] !== undefined) {
        el.dataset.firstUpdateMs = (performance.now() - page.sentAt[ev.tag]).toFixed(1);
        delete page.sentAt[ev.tag];
      }
      el.dataset.updates = Number(el.dataset.updates || 0) + 1;
      page.last = ev;
      if (ev.pv.length) page.pvs[ev.pv[0].join(',')] = ev.pv;
      draw();
    }
  }
  function connect() {
    const events = new EventSource('/api/analysis/events');
    events.onmessage = onEvent;
    events.onerror = function () { page.session = null; };  // it reconnects: a new session
  }
  function start() {
    page.analysing = true;
    request();
    draw();
  }
  function stop() {
    page.analysing = false;  // the final line, "stopped", is drawn as it comes
    if (page.session) post('/api/analysis/' + page.session + '/stop').catch(function (e) { say(e.message); });
  }

  // ---- input --------------------------------------------------------------------------------
  function dropMode() { return Number(document.querySelector('input[name=drop]:checked').value); }
  function click(e) {
    const y = C4Board.column(page.board, e.clientX);
    if (y === null) return;
    const x = landing(y);
    if (x === null) { say('column ' + y + ' is full'); return; }
    page.placed.push([x, y, dropMode() || toMove()]);
    changed();
  }
  function hover(e) {
    const y = C4Board.column(page.board, e.clientX);
    if (y !== page.hover) { page.hover = y; drawGhosts(); }
  }
  function setBoard(list, moves) {
    const M = list[0], N = list[1], x = list[2], y = list[3];
    if (![M, N, x, y].every(Number.isInteger) || M < 9 || M > 12 || N < 9 || N > 12 ||
        x < 0 || x >= M || y < 0 || y >= N) {
      say('a board is M,N,no_x,no_y: 9..12 rows and columns, the forbidden cell on it');
      return false;
    }
    page.M = M; page.N = N; page.noX = x; page.noY = y;
    $('rows').value = M; $('cols').value = N; $('no-x').value = x; $('no-y').value = y;
    page.placed = moves.map(function (m, i) { return [m[0], m[1], i % 2 + 1]; });
    build();
    changed();
    return true;
  }
  function newBoard() {
    setBoard(['rows', 'cols', 'no-x', 'no-y'].map(function (id) { return Number($(id).value); }),
      []);
  }
  function openPaste() {
    post('/api/analysis/paste', { text: $('paste').value, board: boardList() })
      .then(function (p) {
        setBoard(p.board, p.moves);
        if (p.note) say(p.note);
      }).catch(function (e) { say(e.message); });
  }
  function fromUrl() {
    const q = new URLSearchParams(location.search);
    if (q.has('seconds')) $('seconds').value = q.get('seconds');
    if (Number(q.get('playouts')) > 0) page.playouts = Math.floor(Number(q.get('playouts')));
    if (!q.has('board')) { setBoard([9, 9, 8, 4], []); return; }
    const list = q.get('board').split(',').map(Number);
    const moves = (q.get('moves') || '').split(',').filter(Boolean).map(function (m) {
      return m.split('.').map(Number);
    });
    if (moves.some(function (m) { return m.length !== 2 || !m.every(Number.isInteger); })) {
      setBoard(list, []);
      say('moves: x.y pairs separated by commas, e.g. 8.4,7.4');
      return;
    }
    page.analysing = setBoard(list, moves);  // opened at a position: analyse it at once
    draw();
  }

  $('analysis-board').addEventListener('click', click);
  $('analysis-board').addEventListener('mousemove', hover);
  $('analysis-board').addEventListener('mouseleave', function () {
    page.hover = null;
    drawGhosts();
  });
  $('undo').addEventListener('click', function () { page.placed.pop(); changed(); });
  $('clear').addEventListener('click', function () { page.placed = []; changed(); });
  $('new-board').addEventListener('click', newBoard);
  $('start').addEventListener('click', start);
  $('stop').addEventListener('click', stop);
  $('open-paste').addEventListener('click', openPaste);
  fromUrl();
  connect();
  document.body.dataset.ready = '1';
}());
