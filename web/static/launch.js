/* launch.js: the page an operator's launch URL opens (/launch?code=…). It trades the
   one-time code for the player's token (POST /api/launch), keeps the token where every page
   looks for it (localStorage "baccarat.token") and the operator's language ("baccarat.lang"),
   and goes to the table the launch named, or the lobby. The code is taken out of the address
   first, so it is neither bookmarked nor sent again. */
'use strict';
(function (global) {
  const status = document.getElementById('launch-status');
  const url = new URL(global.location.href);
  const code = url.searchParams.get('code') || '';
  global.history.replaceState(null, '', url.pathname);
  function fail(msg) {
    status.textContent = msg + ' Launch the game again from the casino.';
    status.className = 'alert';
  }
  if (!code) {
    fail('This launch link has no code.');
    return;
  }
  fetch('/api/launch', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) })
    .then((resp) => resp.json().then((body) => ({ ok: resp.ok, body })))
    .then(({ ok, body }) => {
      if (!ok) {
        fail((body && body.message) || 'This launch link does not work.');
        return;
      }
      let stored = true;
      try {
        localStorage.setItem('baccarat.token', body.token);
        if (body.language) localStorage.setItem('baccarat.lang', body.language);
      } catch (e) { stored = false; }
      const to = body.table ? '/table/' + encodeURIComponent(body.table) : '/';
      // Without storage (private mode) the next page takes the token from its address.
      global.location.replace(stored ? to : to + '?token=' + encodeURIComponent(body.token));
    })
    .catch(() => fail('The server could not be reached.'));
})(window);
