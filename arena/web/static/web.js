// What the web app's pages share: a POST of a JSON body whose refusal (a 4xx or 5xx) throws
// the server's one-line reason, so that a page shows it as it is.
(function () {
  'use strict';
  window.web = {
    post: function (url, body) {
      return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body || {}) }).then(function (r) {
        return r.text().then(function (text) {
          if (!r.ok) throw new Error(text.trim() || r.statusText);
          return text ? JSON.parse(text) : {};
        });
      });
    },
  };
})();
