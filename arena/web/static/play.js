// The play page (docs/web.md): a person against an arena player. The server judges every move;
// the page sends clicks and redraws from the state it pushes, so a reload or a second tab shows
// the same game, named by the URL's hash (#game=ID). What the page shows is mirrored into data-*
// attributes of the board for the tests, with the time from a click to the answer drawn.
(function () {
  'use strict';
  const $ = function (id) { return document.getElementById(id); };
  const page = { id: null, board: null, state: null, events: null, clickAt: null,
    clickPly: -1, players: {} };

  const say = web.say, post = web.post;

  // ---- a new game ---------------------------------------------------------------------------
  function loadOpponents() {
    return web.json('/api/opponents', 'GET').then(function (d) {
      const sel = $('opponent');
      d.players.forEach(function (p) {
        page.players[p.name] = p;
        sel.add(new Option(p.name + ' (' + p.kind + ')', p.name));
      });
      if (page.players.bot) sel.value = 'bot';
      showSeconds();
    });
  }
  function showSeconds() {
    const p = page.players[$('opponent').value];
    $('seconds-row').hidden = !(p && p.takes_time);
  }
  function number(id) { return $(id).value === '' ? null : Number($(id).value); }
  function newGame() {
    const body = { opponent: $('opponent').value, colour: $('colour').value };
    const p = page.players[body.opponent];
    if (p && p.takes_time) body.seconds = number('seconds');
    if (document.querySelector('input[name=board]:checked').value === 'chosen') {
      body.board = [number('rows'), number('cols'), number('no-x'), number('no-y')];
    } else {
      body.seed = number('seed');
    }
    say('');
    post('/api/games', body).then(function (state) {
      location.hash = 'game=' + state.id;
      follow(state.id);
    }).catch(say);
  }

  // ---- following a game ---------------------------------------------------------------------
  function follow(id) {
    if (page.events) page.events.close();
    page.id = id;
    page.board = null;
    $('game').hidden = false;
    page.events = web.events('/api/games/' + id + '/events', render);
    page.events.onerror = function () {  // else it reconnects by itself, for the news
      if (page.state && settled(page.state)) page.events.close();
    };
  }
  // Nothing more to come: the game is over and its loss analysis (a JobState value, or null
  // when none was asked for) is not under way.
  function settled(s) {
    return s.over && s.analysis_state !== 'queued' && s.analysis_state !== 'running';
  }
  function render(s) {
    const el = $('play-board');
    if (!page.board || page.state === null || page.state.id !== s.id) {
      page.board = C4Board.build(el, s.M, s.N, s.no_x, s.no_y, { cell: 44 });
      C4Board.input(page.board, { drop: drop, hover: preview });
      $('title').textContent = 'You (' + (s.human_first ? 'first, red' : 'second, yellow') +
        ') against ' + s.opponent + ' on ' + s.M + 'x' + s.N + ', forbidden cell (' + s.no_x +
        ',' + s.no_y + ')' + (s.seed >= 0 ? ', seed ' + s.seed : '');
    }
    page.state = s;
    C4Board.setWin(page.board, s.over ? [].concat.apply([], s.win_line || []) : []);
    C4Board.paint(page.board, s.moves, s.moves.length, s.over);
    if (page.clickAt !== null && (s.moves.length >= page.clickPly + 2 || s.over)) {
      el.dataset.clickToDrawMs = (performance.now() - page.clickAt).toFixed(1);
      page.clickAt = null;
    }
    Object.assign(el.dataset, { game: s.id, plies: s.moves.length, result: s.result || '',
      turn: s.over ? 'over' : s.your_turn ? 'you' : 'opponent' });
    el.classList.toggle('playable', !s.over && s.your_turn);
    $('status').textContent = s.error ? s.error : s.over ? 'The game is over.'
      : s.your_turn ? 'Your move: click a column.' : s.opponent + ' is thinking...';
    renderEnd(s);
  }
  function renderEnd(s) {
    $('end').hidden = !s.over;
    if (!s.over) return;
    const job = s.analysis_state;
    if (page.events && settled(s)) page.events.close();
    const verdict = s.verdict || 'Stopped';
    $('result').textContent = s.error || verdict + ': ' + s.reason + ' (course code ' +
      s.code + ', ' + s.moves.length + ' moves).';
    $('result').dataset.result = s.result || '';
    $('review-link').hidden = !s.review_url;  // the engine's review of the recorded game
    if (s.review_url) $('review-link').href = s.review_url;
    $('analyse').hidden = !s.analysable;  // lost on the board, as the server says
    // the analysis board opens at the last position with a move to choose
    $('analyse-board').href = s.board_url;
    const st = $('analysis-status');
    st.textContent = job === 'running' ? 'analysing (a few seconds to a minute)...'
      : job && job !== 'ready' ? s.analysis : '';
    if (job === 'ready') {
      C4Board.el(st, 'a', { href: s.analysis_url, id: 'analysis-link' },
        'the analysed game on the replay page');
    }
  }

  // ---- clicks -------------------------------------------------------------------------------
  function preview(y) {
    const s = page.state;
    C4Board.preview(page.board, !s.over && s.your_turn ? y : null, s.human_first ? 1 : 2);
  }
  function drop(y) {
    const s = page.state;
    if (s.over) return;
    C4Board.preview(page.board, null);
    page.clickAt = performance.now();
    page.clickPly = s.moves.length;
    say('');
    post('/api/games/' + s.id + '/move', { column: y, ply: s.moves.length })
      .catch(function (err) { page.clickAt = null; say(err.message); });
  }
  function analyse() {
    post('/api/games/' + page.id + '/analyse').then(function () { follow(page.id); }).catch(say);
  }

  $('opponent').addEventListener('change', showSeconds);
  ['start', 'again'].forEach(function (id) { $(id).addEventListener('click', newGame); });
  $('analyse').addEventListener('click', analyse);
  loadOpponents().then(function () {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.has('game')) follow(hash.get('game'));
    document.body.dataset.ready = '1';
  });
}());
