// The board as every page draws it: the replay page (arena/web/replay.py, also `arena view`)
// and the web app's play, watch, review and analysis pages. M rows x N columns at their real
// size, course coordinates (row 0 on top), the forbidden cell crossed out, the last move ringed
// and the winning four ringed and joined by a line. A board is built once per game; a position
// only repaints classes, and each cell mirrors its content into data-s (0 empty, 1 first
// player, 2 second) for tests.
var C4Board = (function () {
  'use strict';
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svg(parent, tag, attrs) {
    const el = document.createElementNS(SVGNS, tag);
    for (const k in attrs) el.setAttribute(k, attrs[k]);
    parent.appendChild(el);
    return el;
  }
  // opts: {cell: pixels a cell (40), labels: row and column numbers (true)}
  function build(el, M, N, noX, noY, opts) {
    opts = opts || {};
    const CELL = opts.cell || 40, labels = opts.labels !== false;
    const b = { el: el, M: M, N: N, cell: CELL, cells: {}, winline: null };
    el.textContent = '';
    el.classList.add('c4');
    el.setAttribute('width', CELL * (N + 1));
    el.setAttribute('height', CELL * (M + 1));
    svg(el, 'rect', { class: 'frame', x: CELL / 2, y: CELL / 2, width: CELL * N,
      height: CELL * M, rx: CELL / 5 });
    for (let y = 0; labels && y < N; y++) {
      svg(el, 'text', { class: 'label', x: CELL * (y + 1), y: CELL / 2 - 6 }).textContent = y;
    }
    for (let x = 0; x < M; x++) {
      if (labels) {
        svg(el, 'text', { class: 'label', x: CELL / 4, y: CELL * (x + 1) + 4 }).textContent = x;
      }
      for (let y = 0; y < N; y++) {
        const c = centre(b, x, y);
        if (x === noX && y === noY) {
          svg(el, 'rect', { class: 'forbidden', 'data-x': x, 'data-y': y,
            'data-forbidden': 1, x: c[0] - CELL * 0.4, y: c[1] - CELL * 0.4,
            width: CELL * 0.8, height: CELL * 0.8 });
          const d = CELL * 0.25;
          svg(el, 'path', { class: 'cross', d: 'M' + (c[0] - d) + ' ' + (c[1] - d) + 'l' +
            2 * d + ' ' + 2 * d + 'm0 ' + (-2 * d) + 'l' + (-2 * d) + ' ' + 2 * d });
        } else {
          b.cells[x + ',' + y] = svg(el, 'circle', { 'data-x': x, 'data-y': y,
            cx: c[0], cy: c[1], r: CELL * 0.4 });
        }
      }
    }
    return b;
  }
  function centre(b, x, y) { return [b.cell * (y + 1), b.cell * (x + 1)]; }
  // The winning four (flat [x0, y0, x1, y1, ...]): a line from end to end, shown by paint.
  function setWin(b, flat) {
    if (b.winline) b.winline.remove();
    b.winline = null;
    b.win = flat || [];
    if (!b.win.length) return;
    const cells = [];
    for (let i = 0; i < b.win.length; i += 2) cells.push([b.win[i], b.win[i + 1]]);
    cells.sort(function (p, q) { return p[0] - q[0] || p[1] - q[1]; });
    const a = centre(b, cells[0][0], cells[0][1]);
    const e = centre(b, cells[cells.length - 1][0], cells[cells.length - 1][1]);
    b.winline = svg(b.el, 'line', { class: 'winline-off', x1: a[0], y1: a[1], x2: e[0],
      y2: e[1] });
  }
  // The position after `step` of `moves` ([x, y] pairs, the first player's first); with
  // `showWin` the winning four set by setWin is drawn. Returns the last move's key and the
  // winning cells' keys ("x,y").
  function paint(b, moves, step, showWin) {
    const owner = {};
    for (let i = 0; i < step; i++) owner[moves[i][0] + ',' + moves[i][1]] = i % 2 + 1;
    const last = step > 0 ? moves[step - 1][0] + ',' + moves[step - 1][1] : null;
    const win = new Set(), flat = b.win || [];
    showWin = showWin && flat.length > 0;
    if (showWin) for (let i = 0; i < flat.length; i += 2) win.add(flat[i] + ',' + flat[i + 1]);
    for (const key in b.cells) {
      const s = owner[key] || 0;
      let cls = s ? 'p' + s : 'hole';
      if (key === last) cls += ' last';
      if (win.has(key)) cls += ' win';
      b.cells[key].setAttribute('class', cls);
      b.cells[key].setAttribute('data-s', s);
    }
    if (b.winline) b.winline.setAttribute('class', showWin ? 'winline' : 'winline-off');
    return { last: last, win: Array.from(win) };
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
  // A key pressed on a focused board: left and right choose a column (the middle one first),
  // Enter or Space drops in the chosen one. {column, drop}, or null for another key.
  function keyed(b, key, chosen) {
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      const step = key === 'ArrowLeft' ? -1 : 1;
      return { column: chosen === null ? Math.floor(b.N / 2)
        : Math.max(0, Math.min(b.N - 1, chosen + step)), drop: false };
    }
    if ((key === 'Enter' || key === ' ') && chosen !== null) return { column: chosen, drop: true };
    return null;
  }
  return { build: build, setWin: setWin, paint: paint, landing: landing, column: column,
    keyed: keyed };
}());
