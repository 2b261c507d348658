// What the web app's pages share (the replay page, one file, has none of it): the message
// line, JSON requests whose refusal throws the server's one line, polls and event streams.
(function () {
  'use strict';
  const web = window.web = {
    // The page's one-line message (#message): a note, or a refusal (an Error: its message);
    // none clears it.
    say: function (text) {
      document.getElementById('message').textContent = text instanceof Error ? text.message
        : text || '';
    },
    // `method` on `url`, with `body` sent as JSON unless it is undefined; the parsed answer.
    json: function (url, method, body) {
      const init = body === undefined ? { method: method } : { method: method,
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
      return fetch(url, init).then(function (r) {
        return r.text().then(function (text) {
          if (!r.ok) throw new Error(text.trim() || r.statusText);
          return text ? JSON.parse(text) : {};
        });
      });
    },
    post: function (url, body) { return web.json(url, 'POST', body || {}); },
    // GET `url` every `ms` and hand each answer to `each`, until it returns true; a failed
    // request is retried with a growing pause (up to 8 s), and `failed` is told each time.
    poll: function (url, ms, each, failed) {
      let pause = ms;
      function again() {
        web.json(url, 'GET').then(function (d) {
          pause = ms;
          if (!each(d)) setTimeout(again, ms);
        }).catch(function (e) {
          if (failed) failed(e, pause);
          setTimeout(again, pause);
          pause = Math.min(8000, pause * 2);
        });
      }
      again();
    },
    // The server's events at `url`, each parsed and handed to `each`; the EventSource (which
    // reconnects by itself), for a page to close or to hear of a lost connection.
    events: function (url, each) {
      const source = new EventSource(url);
      source.onmessage = function (e) { each(JSON.parse(e.data)); };
      return source;
    },
    // A move list as the analysis board's URL writes it (x.y,x.y,...: docs/web.md); the
    // server reads it back (records/move.py), so no page parses a move.
    movesText: function (moves) {
      return moves.map(function (m) { return m[0] + '.' + m[1]; }).join(',');
    },
  };
})();
