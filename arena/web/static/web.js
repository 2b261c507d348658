// What the web app's pages share: a request answered in JSON whose refusal (a 4xx or 5xx)
// throws the server's one-line reason, so that a page shows it as it is; and the analysis
// board's URL of a position (/analyse?board=M,N,no_x,no_y&moves=x.y,...: docs/web.md).
(function () {
  'use strict';
  const web = window.web = {
    // `method` on `url`, with `body` sent as JSON unless it is undefined; the parsed answer.
    json: function (url, method, body) {
      const init = { method: method };
      if (body !== undefined) {
        init.headers = { 'Content-Type': 'application/json' };
        init.body = JSON.stringify(body);
      }
      return fetch(url, init).then(function (r) {
        return r.text().then(function (text) {
          if (!r.ok) throw new Error(text.trim() || r.statusText);
          return text ? JSON.parse(text) : {};
        });
      });
    },
    post: function (url, body) { return web.json(url, 'POST', body || {}); },
    // The analysis board at the position after `moves` ([x, y] each) on `board` ([M, N,
    // no_x, no_y]); without `moves`, the board set up by hand (no moves in the URL).
    analyseUrl: function (board, moves) {
      return '/analyse?board=' + board.join(',') + (moves ? '&moves=' + moves.map(function (m) {
        return m[0] + '.' + m[1]; }).join(',') : '');
    },
    // The last ply the analysis board takes of a game of `plies` moves: a game that ended on
    // the board (a four, a full board) is over after its last move, so the position before it.
    lastAnalysable: function (plies, ended) { return ended ? Math.max(0, plies - 1) : plies; },
  };
})();
