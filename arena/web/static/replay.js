// The replay page (docs/viewer.md): a filtered, paged list of games and a move-by-move replay of
// one, from arena/web/replay_data.py's compact payload (a row a game, every fact derived in it).
// Tests read its data-* attributes and drive it by the URL hash: a game, a step and a script of
// real key presses and clicks (#game=3&step=7&do=key:ArrowRight*2,click:btn-end).
(function () {
  'use strict';
  const t0 = performance.now();
  const DATA = JSON.parse(document.getElementById('data').textContent);
  const F = Object.fromEntries(DATA.fields.map(function (name, i) { return [name, i]; }));
  const GAMES = DATA.games;
  const PAGE = 100;
  const CODES = DATA.codes;
  const $ = function (id) { return document.getElementById(id); };
  const el = C4Board.el, cellText = C4Board.cellText;
  // line: the replay shows the proven winning line of the loss analysis instead of the game's end
  const state = { order: [], page: 0, game: -1, step: 0, line: false };

  // ---- one game, decoded on demand ------------------------------------------------------
  function decode(s) {
    const out = [];
    for (let i = 0; i < s.length; i += 2) out.push([parseInt(s[i], 36), parseInt(s[i + 1], 36)]);
    return out;
  }
  function analysis(g) { return g[F.analysis] >= 0 ? DATA.analyses[g[F.analysis]] : null; }
  // The moves the replay steps through: the game's, or in line mode the game's up to the point
  // where the loser was proven lost, then the proof's line.
  function moves(g) {
    const mv = decode(g[F.moves]), a = analysis(g);
    return state.line && a ? mv.slice(0, a.lost_after).concat(decode(a.line)) : mv;
  }
  function sideName(g, side) { return DATA.names[g[side === 'a' ? F.a : F.b]]; }
  function other(side) { return side === 'a' ? 'b' : 'a'; }
  // 'a' or 'b': who moved first; mover(g, ply) is the side that played ply (0-based).
  function firstSide(g) { return g[F.first] ? 'b' : 'a'; }
  function mover(g, ply) { return ply % 2 ? other(firstSide(g)) : firstSide(g); }
  function plies(g) { return g[F.moves].length / 2; }
  function fault(g) { return g[F.fault] >= 0 ? DATA.faults[g[F.fault]] : null; }

  // ---- filters ----------------------------------------------------------------------------
  // Everything in the list is seen from one focus player: its opponent, colour and result.
  // The empty focus ("every game, as A") sees each game from its side A (a round robin).
  function focusSide(g, focus) {
    if (focus === '' || DATA.names[g[F.a]] === focus) return 'a';
    if (DATA.names[g[F.b]] === focus) return 'b';
    return null;
  }
  function outcome(g, side) { return DATA.outcomes[g[side === 'a' ? F.outcome_a : F.outcome_b]]; }
  // The seat's word (the encoder's, records.result.Seat) of the side in a game.
  function seat(g, side) { return DATA.seats[firstSide(g) === side ? 0 : 1]; }
  function matches(g, f) {
    const side = focusSide(g, f.player);
    if (side === null) return false;
    if (f.opp && sideName(g, other(side)) !== f.opp) return false;
    if (f.colour && seat(g, side) !== f.colour) return false;
    if (!f.result) return true;
    const flt = fault(g);
    if (f.result === 'fault') return flt !== null;
    if (f.result === 'own') return flt !== null && flt.side === side;
    if (f.result === 'their') return flt !== null && flt.side === other(side);
    return outcome(g, side) === f.result;
  }
  function filters() {
    return { player: $('f-player').value, opp: $('f-opp').value, result: $('f-result').value,
      colour: $('f-colour').value, sort: $('f-sort').value };
  }
  function applyFilters() {
    const f = filters();
    const order = [];
    for (let i = 0; i < GAMES.length; i++) if (matches(GAMES[i], f)) order.push(i);
    if (f.sort) {
      const sign = f.sort === 'short' ? 1 : -1;
      order.sort(function (i, j) { return sign * (plies(GAMES[i]) - plies(GAMES[j])) || i - j; });
    }
    state.order = order;
    state.page = 0;
    renderList();
  }
  function fillSelect(sel, values, anyLabel) {
    sel.textContent = '';
    if (anyLabel !== null) sel.add(new Option(anyLabel, ''));
    values.forEach(function (v) { sel.add(new Option(v, v)); });
  }
  function fillOpponents() {
    const focus = $('f-player').value, seen = new Set();
    GAMES.forEach(function (g) {
      const side = focusSide(g, focus);
      if (side !== null) seen.add(sideName(g, other(side)));
    });
    fillSelect($('f-opp'), Array.from(seen).sort(), 'any');
  }
  function setupFilters() {
    // Default focus: the player in most games (the bot under test in a gauntlet).
    const count = {};
    GAMES.forEach(function (g) {
      count[g[F.a]] = (count[g[F.a]] || 0) + 1;
      if (g[F.b] !== g[F.a]) count[g[F.b]] = (count[g[F.b]] || 0) + 1;
    });
    const byCount = DATA.names.map(function (n, i) { return [n, count[i] || 0]; })
      .sort(function (x, y) { return y[1] - x[1]; });
    fillSelect($('f-player'), byCount.map(function (x) { return x[0]; }), null);
    $('f-player').add(new Option('(every game, as A)', ''));
    fillOpponents();
    $('f-player').addEventListener('change', function () { fillOpponents(); applyFilters(); });
    ['f-opp', 'f-result', 'f-colour', 'f-sort'].forEach(function (id) {
      $(id).addEventListener('change', applyFilters);
    });
  }

  // ---- the list -----------------------------------------------------------------------------
  function renderList() {
    const focus = $('f-player').value, order = state.order;
    const pages = Math.max(1, Math.ceil(order.length / PAGE));
    state.page = Math.min(Math.max(state.page, 0), pages - 1);
    const from = state.page * PAGE, to = Math.min(order.length, from + PAGE);
    const rows = $('rows');
    rows.textContent = '';
    const counts = {};  // by outcome word, shown in the encoder's order (win, draw, loss)
    order.forEach(function (i) {
      const o = outcome(GAMES[i], focusSide(GAMES[i], focus));
      counts[o] = (counts[o] || 0) + 1;
    });
    for (let k = from; k < to; k++) {
      const i = order[k], g = GAMES[i], side = focusSide(g, focus);
      const tr = el(rows, 'tr', { 'data-game': i, class: i === state.game ? 'current' : '' });
      const o = outcome(g, side), flt = fault(g);
      [i, (focus ? '' : sideName(g, 'a') + ' vs ') + sideName(g, other(side)), seat(g, side),
        flt ? o + ' (' + flt.kind + ')' : o, plies(g), g[F.code], g[F.M] + 'x' + g[F.N],
        DATA.reasons[g[F.reason]]].forEach(function (text, k) {  // the result's cell coloured
        el(tr, 'td', k === 3 ? { class: flt ? 'fault' : o } : {}, text);
      });
    }
    $('summary').textContent = order.length + ' of ' + GAMES.length + ' games; ' +
      (focus || 'A') + ': ' + DATA.outcome_words.map(function (o) {
        return o + ' ' + (counts[o] || 0); }).join(', ');
    $('summary').dataset.count = order.length;
    $('page-info').textContent = order.length ? (from + 1) + '-' + to + ' of ' + order.length
      : 'no games';
  }

  // ---- the replay ---------------------------------------------------------------------------
  // Each game's board (board.js), chart and move list are built once; a step only repaints.
  function buildBoard(g) {
    state.board = C4Board.build($('board'), g[F.M], g[F.N], g[F.no_x], g[F.no_y]);
    C4Board.setWin(state.board, g[F.win]);
  }
  function paintBoard(g, mv, step) {
    const shown = C4Board.paint(state.board, mv, step, !state.line && step === mv.length);
    Object.assign($('board').dataset, { game: state.game, step: step, plies: mv.length,
      last: shown.last || '', win: shown.win.join(' '), line: state.line ? '1' : '' });
  }
  function buildChart(g) {
    const times = g[F.times], chart = $('chart');
    chart.textContent = '';
    const n = Math.max(times.length, 1), W = Math.max(300, Math.min(900, n * 8)), H = 120;
    const limitMs = (g[F.time_limit] || 0) * 1000;
    const top = Math.max(limitMs, 1, ...times);
    chart.setAttribute('width', W + 50);
    chart.setAttribute('height', H + 20);
    const bw = W / n;
    state.bars = times.map(function (t, i) {
      const h = Math.max(1, H * t / top);
      const bar = el(chart, 'rect', { x: 45 + i * bw, y: H - h + 5, width: Math.max(1, bw - 1),
        height: h, 'data-ply': i + 1, 'data-cls': 'bar' + C4Board.stone(i) });
      el(bar, 'title', {}, 'ply ' + (i + 1) + ': ' + t + ' ms');
      return bar;
    });
    if (limitMs) {
      const y = H - H * limitMs / top + 5;
      el(chart, 'line', { class: 'limit', x1: 45, x2: 45 + W, y1: y, y2: y });
    }
    el(chart, 'text', { class: 'axis', x: 0, y: 14 }, top + ' ms');
    el(chart, 'text', { class: 'axis', x: 0, y: H + 5 }, '0');
  }
  // With an analysis: the decisive mistake is marked, the moves after which the loser was
  // proven lost are red, and in line mode the proof's moves are in italics.
  function buildMoves(g, mv) {
    const ol = $('moves'), times = g[F.times], a = analysis(g);
    const d = a && a.decisive;
    ol.textContent = '';
    state.items = mv.map(function (m, i) {
      const inLine = state.line && a && i >= a.lost_after;
      const cls = inLine ? 'line' : d && i === d.index ? 'mistake'
        : a && i >= a.lost_after ? 'lost' : '';
      const li = el(ol, 'li', { 'data-ply': i + 1, 'data-cls': cls }, sideName(g, mover(g, i)) +
        ' ' + cellText(m) + ' ' + (inLine ? 'proof' : i < times.length ? times[i] + ' ms' : ''));
      if (cls === 'mistake') li.title = 'the decisive mistake';
      return li;
    });
  }
  function renderAnalysis(g) {
    const a = analysis(g), box = $('analysis');
    box.hidden = !a;
    if (!a) return;
    $('moves-box').open = true;  // the marks are in the move list
    const d = a.decisive;
    const won = a.kind + (a.win_in ? ' in ' + a.win_in + (a.win_in === 1 ? ' ply' : ' plies') : '');
    let text;
    if (d) {
      const mv = decode(g[F.moves])[d.index];
      // proven values, else the plies within which the move allows no forced four
      const held = d.alternatives.filter(function (alt) { return alt[2] !== 'unsettled' || alt[3]; });
      const others = held.map(function (alt) {
        return cellText(alt) + ' ' +
          (alt[2] !== 'unsettled' ? alt[2] : 'no four within ' + alt[3] + ' plies');
      });
      const unsettled = d.alternatives.length - held.length;
      if (unsettled) others.push(unsettled + ' unsettled');
      text = a.loser + "'s decisive mistake: move " + (d.index + 1) + ' at ' + cellText(mv) +
        (d.proven ? '' : d.avoidable
          ? ', avoidable: another move was proven clear of a four for as long'
          : ', unsettled: no other move proven to hold') +
        '. Other moves: ' + (others.join(', ') || 'none') + '. ';
    } else {
      text = a.loser + ' was lost before its first move. ';
    }
    text += 'Proven lost after move ' + a.lost_after + ': ' + won + ' (' + a.seconds +
      ' s a position).';
    $('analysis-text').textContent = text;
    Object.assign(box.dataset, { decisive: d ? d.index + 1 : '', lostAfter: a.lost_after,
      kind: a.kind });
    $('btn-line').textContent = state.line ? 'the game' : 'proven line';
  }
  function toggleLine() {
    const g = GAMES[state.game], a = g && analysis(g);
    if (!a) return;
    state.line = !state.line;
    buildMoves(g, moves(g));
    renderAnalysis(g);
    showGame(state.game, state.line ? a.lost_after : Infinity);
  }
  // The current ply (1-based; 0 before the first move) is marked in the chart and move list.
  function markCurrent(step) {
    state.bars.concat(state.items).forEach(function (e) {
      const cur = Number(e.dataset.ply) === step ? ' cur' : '';
      e.setAttribute('class', (e.dataset.cls + cur).trim());
    });
  }
  function renderFault(g) {
    const box = $('fault'), flt = fault(g);
    box.textContent = '';
    box.hidden = !flt;
    box.dataset.code = g[F.code];
    if (!flt) return;
    el(box, 'div', { id: 'fault-message' }, 'Fault by ' + sideName(g, flt.side) + ' (' +
      flt.side.toUpperCase() + '): ' + flt.kind + (flt.detail ? ': ' + flt.detail : '') +
      '. Course code ' + g[F.code] + ': ' + (CODES[g[F.code]] || 'unknown') + '.');
    box.append('stderr tail of ' + sideName(g, flt.side) + ':');
    el(box, 'pre', { id: 'fault-stderr' }, flt.stderr || '(no stderr)');
  }
  function buildHeader(g, i) {
    $('game-title').textContent = 'Game ' + i + ': ' + DATA.names[g[F.a]] + ' (A) vs ' +
      DATA.names[g[F.b]] + ' (B), ' + g[F.M] + 'x' + g[F.N] + ', forbidden (' + g[F.no_x] +
      ',' + g[F.no_y] + '), code ' + g[F.code] + ' (' + (CODES[g[F.code]] || '?') + '), ' +
      (DATA.reasons[g[F.reason]] || '');
    const legend = $('legend');
    legend.textContent = '';
    ['#d62828', '#f4c20d'].forEach(function (colour, ply) {  // the first player's, the second's
      el(legend, 'span', { class: 'swatch', style: 'background: ' + colour });
      legend.append(sideName(g, mover(g, ply)) + ' (' + DATA.seats[ply] + ') ');
    });
    // served by `arena serve`: the game's review, named by its key
    $('review-link').hidden = location.protocol === 'file:';
    // (a link to follow, set as an attribute: the page itself fetches nothing)
    $('review-link').setAttribute('href', '/review?' + keyQuery(g));
    for (const tr of $('rows').rows) tr.className = Number(tr.dataset.game) === i ? 'current' : '';
  }
  // The game's key as a query string: how the server's pages name a finished game.
  function keyQuery(g) {
    return new URLSearchParams({ batch: DATA.batches[g[F.batch]], a: DATA.names[g[F.a]],
      b: DATA.names[g[F.b]], seed: g[F.seed], round: g[F.round], leg: g[F.leg] }).toString();
  }
  function showGame(i, step) {
    if (i < 0 || i >= GAMES.length) return;
    const changed = i !== state.game;
    if (changed) state.line = false;
    state.game = i;
    const g = GAMES[i], mv = moves(g);
    state.step = Math.min(Math.max(step, 0), mv.length);
    if (changed) {
      buildHeader(g, i);
      renderFault(g);
      renderAnalysis(g);
      buildBoard(g);
      buildChart(g);
      buildMoves(g, mv);
    }
    paintBoard(g, mv, state.step);
    markCurrent(state.step);
    const a = analysis(g), proof = state.line && a && state.step > a.lost_after;
    const t = proof ? undefined : g[F.times][state.step - 1];
    $('step-info').textContent = (state.line ? 'proven line: ' : '') + 'move ' + state.step +
      ' / ' + mv.length +
      (state.step > 0 ? ' by ' + sideName(g, mover(g, state.step - 1)) + ' at ' +
        cellText(mv[state.step - 1]) + (t !== undefined ? ', ' + t + ' ms' : '') : '');
    // served by `arena serve`: the whole game on its analysis board, at this step (the
    // server finds the game by its key). A proven line's steps open its game at the mistake.
    $('btn-analyse').hidden = location.protocol === 'file:';
    const at = proof ? a.lost_after : state.step;
    $('btn-analyse').setAttribute('href', '/analyse/game?' + keyQuery(g) + '&ply=' + at);
    history.replaceState(null, '', '#game=' + i + '&step=' + state.step);
  }
  function step(delta) { showGame(state.game, state.step + delta); }  // clamped to the game
  function nextGame(delta) {
    const k = state.order.indexOf(state.game) + delta;
    if (k < 0 || k >= state.order.length) return;
    state.page = Math.floor(k / PAGE);
    renderList();
    showGame(state.order[k], Infinity);
  }

  // ---- wiring -------------------------------------------------------------------------------
  function setupEvents() {
    const keys = { ArrowRight: function () { step(1); }, ArrowLeft: function () { step(-1); },
      Home: function () { step(-Infinity); }, End: function () { step(Infinity); },
      ArrowDown: function () { nextGame(1); }, ArrowUp: function () { nextGame(-1); },
      l: toggleLine };
    const buttons = { 'btn-start': 'Home', 'btn-end': 'End', 'btn-prev': 'ArrowLeft',
      'btn-next': 'ArrowRight', 'btn-line': 'l' };  // each button does its key's action
    for (const id in buttons) $(id).addEventListener('click', keys[buttons[id]]);
    $('page-prev').addEventListener('click', function () { state.page--; renderList(); });
    $('page-next').addEventListener('click', function () { state.page++; renderList(); });
    $('rows').addEventListener('click', function (e) {
      const tr = e.target.closest('tr');
      if (tr) showGame(Number(tr.dataset.game), Infinity);
    });
    ['moves', 'chart'].forEach(function (id) {  // a move or its bar: the step after it
      $(id).addEventListener('click', function (e) {
        const at = e.target.closest('[data-ply]');
        if (at) showGame(state.game, Number(at.dataset.ply));
      });
    });
    document.addEventListener('keydown', function (e) {
      if (e.target.tagName === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) return;
      if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
    });
  }
  // Scripted actions from the hash, e.g. do=key:ArrowRight*3,click:btn-end,set:f-result=loss
  function runScript(script) {
    script.split(',').filter(Boolean).forEach(function (action) {
      const m = /^(\w+):([^*]+)(?:\*(\d+))?$/.exec(action);
      if (!m) return;
      for (let n = Number(m[3] || 1); n > 0; n--) {
        if (m[1] === 'key') {
          document.dispatchEvent(new KeyboardEvent('keydown', { key: m[2], bubbles: true }));
        } else if (m[1] === 'click') {
          $(m[2]).click();
        } else if (m[1] === 'set') {
          const kv = m[2].split('=');
          $(kv[0]).value = kv[1];
          $(kv[0]).dispatchEvent(new Event('change'));
        }
      }
    });
  }
  function start() {
    setupFilters();
    setupEvents();
    const hash = new URLSearchParams(location.hash.slice(1));
    ['player', 'opp', 'result', 'colour', 'sort'].forEach(function (k) {
      if (hash.has(k)) {
        $('f-' + k).value = hash.get(k);
        if (k === 'player') fillOpponents();
      }
    });
    applyFilters();
    // served by `arena serve`: this log's decisive mistakes as puzzles
    $('puzzles-link').hidden = location.protocol === 'file:';
    $('puzzles-link').setAttribute('href', '/puzzles?log=' + encodeURIComponent(
      new URLSearchParams(location.search).get('log') || 'games.jsonl'));
    const game = hash.has('game') ? Number(hash.get('game')) : state.order[0];
    if (game !== undefined) showGame(game, hash.has('step') ? Number(hash.get('step')) : Infinity);
    // From navigation start (HTML parsed, data decoded, list and board drawn) and script only.
    document.body.dataset.renderMs = performance.now().toFixed(1);
    document.body.dataset.scriptMs = (performance.now() - t0).toFixed(1);
    if (hash.has('do')) {
      const t1 = performance.now();
      runScript(hash.get('do'));
      document.body.dataset.actionMs = (performance.now() - t1).toFixed(1);
    }
    document.body.dataset.ready = '1';
  }
  start();
}());
