// The board of every page (the replay page and the web app's): M rows x N columns at their real
// size, course coordinates (row 0 on top), the forbidden cell crossed out, the last move ringed,
// the winning four joined by a line. A board is built once per game; a position only repaints
// classes, each cell mirroring its content into data-s (0 empty, 1 first, 2 second) for tests.
var C4Board = (function () {
  'use strict';
  const SVGNS = 'http://www.w3.org/2000/svg';
  // An element with `attrs` and `text`, appended to `parent` in its namespace (an svg in
  // SVG's): how every page builds its boards, graphs and lists.
  function el(parent, tag, attrs, text) {
    const e = document.createElementNS(tag === 'svg' ? SVGNS : parent.namespaceURI, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  // The stone of ply `i` (0-based): 1, the first player's (red), then 2, the second's (yellow).
  function stone(i) { return i % 2 + 1; }
  function key(m) { return m[0] + ',' + m[1]; }
  // A cell or a move ([x, y]) as the pages write it: (row,column).
  function cellText(m) { return '(' + key(m) + ')'; }
  // opts: {cell: pixels a cell (40), labels: row and column numbers (true), below: pixels of
  // a band under the cells for a page's figures (0), fit: scaled to its box by a viewBox}
  function build(root, M, N, noX, noY, opts) {
    opts = opts || {};
    const CELL = opts.cell || 40, labels = opts.labels !== false;
    const b = { el: root, M: M, N: N, cell: CELL, cells: {}, winline: null };
    const w = CELL * (N + 1), h = CELL * (M + 1) + (opts.below || 0);
    root.textContent = '';
    root.classList.add('c4');
    root.setAttribute('width', w);
    root.setAttribute('height', h);
    if (opts.fit) root.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
    el(root, 'rect', { class: 'frame', x: CELL / 2, y: CELL / 2, width: CELL * N,
      height: CELL * M, rx: CELL / 5 });
    for (let y = 0; labels && y < N; y++) {
      el(root, 'text', { class: 'label', x: CELL * (y + 1), y: CELL / 2 - 6 }, y);
    }
    for (let x = 0; x < M; x++) {
      if (labels) el(root, 'text', { class: 'label', x: CELL / 4, y: CELL * (x + 1) + 4 }, x);
      for (let y = 0; y < N; y++) {
        const c = centre(b, x, y);
        if (x === noX && y === noY) {
          el(root, 'rect', { class: 'forbidden', 'data-x': x, 'data-y': y,
            'data-forbidden': 1, x: c[0] - CELL * 0.4, y: c[1] - CELL * 0.4,
            width: CELL * 0.8, height: CELL * 0.8 });
          const d = CELL * 0.25;
          el(root, 'path', { class: 'cross', d: 'M' + (c[0] - d) + ' ' + (c[1] - d) + 'l' +
            2 * d + ' ' + 2 * d + 'm0 ' + (-2 * d) + 'l' + (-2 * d) + ' ' + 2 * d });
        } else {
          b.cells[x + ',' + y] = el(root, 'circle', { 'data-x': x, 'data-y': y,
            cx: c[0], cy: c[1], r: CELL * 0.4 });
        }
      }
    }
    return b;
  }
  function centre(b, x, y) { return [b.cell * (y + 1), b.cell * (x + 1)]; }
  // A line in `parent` through `cells` ([[x, y], ...] in a row), from end to end.
  function join(b, parent, cells, cls) {
    const ends = cells.slice().sort(function (p, q) { return p[0] - q[0] || p[1] - q[1]; });
    const a = centre(b, ends[0][0], ends[0][1]);
    const e = centre(b, ends[ends.length - 1][0], ends[ends.length - 1][1]);
    return el(parent, 'line', { class: cls, x1: a[0], y1: a[1], x2: e[0], y2: e[1] });
  }
  // The winning four (flat [x0, y0, x1, y1, ...]): a line from end to end, shown by paint.
  function setWin(b, flat) {
    if (b.winline) b.winline.remove();
    const cells = [];
    for (let i = 0; flat && i < flat.length; i += 2) cells.push([flat[i], flat[i + 1]]);
    b.win = cells.map(key);
    b.winline = cells.length ? join(b, b.el, cells, 'winline-off') : null;
  }
  // The position after `step` of `moves` ([x, y] pairs, the first player's first); with
  // `showWin` the winning four set by setWin is drawn. Returns the last move's key and the
  // winning cells' keys ("x,y").
  function paint(b, moves, step, showWin) {
    const owner = {};
    for (let i = 0; i < step; i++) owner[key(moves[i])] = stone(i);
    return fill(b, owner, step > 0 ? key(moves[step - 1]) : null, showWin);
  }
  // A position as its cells' stones ({"x,y": 1 or 2}, a set-up's too), `last` ("x,y") ringed.
  function fill(b, owner, last, showWin) {
    const win = showWin && b.win || [];
    for (const k in b.cells) {
      const s = owner[k] || 0;
      let cls = s ? 'p' + s : 'hole';
      if (k === last) cls += ' last';
      if (win.includes(k)) cls += ' win';
      b.cells[k].setAttribute('class', cls);
      b.cells[k].setAttribute('data-s', s);
    }
    if (b.winline) b.winline.setAttribute('class', showWin ? 'winline' : 'winline-off');
    return { last: last, win: win };
  }
  // The cell a piece dropped in column y lands on now (the forbidden cell skipped), or null
  // when the column is full: for drawing a preview only; the server judges every move.
  function landing(b, y) {
    for (let x = b.M - 1; x >= 0; x--) {
      const c = b.cells[x + ',' + y];
      if (c && c.getAttribute('data-s') === '0') return x;
    }
    return null;
  }
  // The column under a pointer at clientX, on a board drawn at any scale (a page may fit it
  // to a narrow screen by its viewBox), or null off the columns.
  function column(b, clientX) {
    const r = b.el.getBoundingClientRect(), scale = r.width / (b.cell * (b.N + 1));
    const y = Math.round((clientX - r.left) / (scale || 1) / b.cell) - 1;
    return y >= 0 && y < b.N ? y : null;
  }
  // A board a person plays on: a click drops in the column under the pointer (on.drop(y)), the
  // pointer over the board shows its column (on.hover(y), null off the columns; on leaving the
  // board, on.leave(), else on.hover(null)). A focusable board (tabindex) also takes keys: left
  // and right choose a column (the middle one first; b.chosen, mirrored into data-column),
  // framed while the board has the focus and shown by on.hover; Enter or Space drops there;
  // it fills its box (board.css) up to its own size. Adds the layer of ghost stones (see ghosts).
  function input(b, on) {
    const root = b.el;
    b.chosen = null;
    b.ghosts = el(root, 'g', {});
    root.onclick = function (e) {
      const y = column(b, e.clientX);
      if (y !== null) on.drop(y);
    };
    root.onmousemove = function (e) { on.hover(column(b, e.clientX)); };
    root.onmouseleave = on.leave || function () { on.hover(null); };
    if (!root.hasAttribute('tabindex')) return;
    root.style.maxWidth = root.getAttribute('width') + 'px';
    const mark = el(root, 'rect', { class: 'chosen', x: 0, y: b.cell / 2, width: b.cell,
      height: b.cell * b.M, rx: 6, visibility: 'hidden' });
    function frame() {
      const shown = b.chosen !== null && document.activeElement === root;
      mark.setAttribute('visibility', shown ? 'visible' : 'hidden');
      if (b.chosen !== null) mark.setAttribute('x', b.cell * (b.chosen + 0.5));
    }
    root.onfocus = root.onblur = frame;
    root.onkeydown = function (e) {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
      if (step) {
        b.chosen = b.chosen === null ? Math.floor(b.N / 2)
          : Math.max(0, Math.min(b.N - 1, b.chosen + step));
        root.dataset.column = b.chosen;
        on.hover(b.chosen);
        frame();
      } else if ((e.key === 'Enter' || e.key === ' ') && b.chosen !== null) {
        on.drop(b.chosen);
      } else {
        return;
      }
      e.preventDefault();
    };
  }
  // The cells of `moves` ([[x, y], ...]) marked by the class `cls` until the next paint.
  function mark(b, moves, cls) {
    moves.forEach(function (m) {
      if (b.cells[key(m)]) b.cells[key(m)].classList.add(cls);
    });
  }
  // `piece` (1 or 2) drawn faintly where a drop in column y lands; none for y null or a full
  // column. The last preview is cleared.
  function preview(b, y, piece) {
    b.el.querySelectorAll('.preview1, .preview2').forEach(function (c) {
      c.classList.remove('preview1', 'preview2');
    });
    const x = y === null ? null : landing(b, y);
    if (x !== null) b.cells[x + ',' + y].classList.add('preview' + piece);
  }
  // Moves not played (an engine's line, a refutation) as numbered ghost stones, the first
  // one `piece`'s, mirrored into data-ghosts ("x,y x,y ..."); with `four` ([[x, y], ...]),
  // the four the line ends in is joined by a line.
  function ghosts(b, moves, piece, four) {
    b.ghosts.textContent = '';
    moves.forEach(function (m, i) {
      const c = centre(b, m[0], m[1]);
      el(b.ghosts, 'circle', { class: 'ghost' + piece, cx: c[0], cy: c[1], r: b.cell * 0.4 });
      el(b.ghosts, 'text', { class: 'ghost-n', x: c[0], y: c[1] + 5 }, i + 1);
      piece = 3 - piece;
    });
    if (moves.length && four && four.length) join(b, b.ghosts, four, 'winline');
    b.el.dataset.ghosts = moves.map(key).join(' ');
  }
  return { el: el, stone: stone, cellText: cellText, build: build, setWin: setWin, paint: paint,
    fill: fill, mark: mark, landing: landing, input: input, preview: preview, ghosts: ghosts };
}());
