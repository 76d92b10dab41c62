/* launch.js: the page an operator's launch URL opens (/launch?code=…). It trades the
   one-time code for the player's token (POST /api/launch), keeps the token where every page
   looks for it (localStorage "baccarat.token") and the operator's language ("baccarat.lang"),
   and goes to the table the launch named, or the lobby. The code is taken out of the address
   first, so it is neither bookmarked nor sent again. Its words are in the browser's language
   (i18n.js) until the launch says the player's. */
'use strict';
(function (global) {
  const status = document.getElementById('launch-status');
  const url = new URL(global.location.href);
  const code = url.searchParams.get('code') || '';
  global.history.replaceState(null, '', url.pathname);
  const I = global.BacI18n;
  // fail says what went wrong in the page's language, and what to do.
  function fail(key) {
    I.ready.then(() => {
      status.textContent = I.t(key) + ' ' + I.t('launch.again');
      status.className = 'alert';
    });
  }
  if (!code) {
    fail('launch.no_code');
    return;
  }
  fetch('/api/launch', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) })
    .then((resp) => resp.json().then((body) => ({ ok: resp.ok, body })))
    .then(({ ok, body }) => {
      if (!ok) {
        fail(body && I.has('err.' + body.code) ? 'err.' + body.code : 'launch.bad_link');
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
    .catch(() => fail('launch.unreachable'));
})(window);
