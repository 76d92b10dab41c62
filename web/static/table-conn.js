/* table-conn.js: the player's table while its stream is down. The stream reconnects by itself
   (backoff, since= the last seq); the page says so in an overlay (#conn-overlay) that takes the
   keyboard, stops betting and the countdown (S.offline), and when the stream is back has table.js
   re-read the snapshot before anyone may bet again: what the page shows is then the table's
   state, not a guess. Needs app.js. */
'use strict';
(function (Bac) {
  const { setText, show, t } = Bac;

  // ctx: {S, el: {overlay, overlayTitle, overlayText, retry}, invalidate(), resync(): read the
  //       snapshot again now (backInSync once it is in), retry(): reconnect now}
  Bac.createConnection = function (ctx) {
    const { S, el, invalidate } = ctx;
    let overlayTimer = 0;
    let retryAt = 0;
    let tries = 0;
    let focusBefore = null; // where the keyboard was when the overlay took it
    function goOffline(info) {
      if (!S.offline) {
        S.offline = true;
        document.body.classList.add('offline');
        focusBefore = document.activeElement;
        invalidate();
      }
      S.syncing = false;
      tries = (info && info.fails) || tries + 1;
      retryAt = (info && info.at) || 0;
      setText(el.overlayTitle, t('conn.lost'));
      show(el.overlay, true);
      el.retry.hidden = false;
      if (!el.overlay.contains(document.activeElement)) el.retry.focus({ preventScroll: true });
      paintOverlay();
      clearInterval(overlayTimer);
      overlayTimer = setInterval(paintOverlay, 250);
    }
    function paintOverlay() {
      const left = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
      setText(el.overlayText, S.syncing ? t('conn.updating') : left > 0 ? t('conn.retry_in', { n: left, tries }) : t('conn.trying', { tries }));
    }
    function backOnline() {
      S.syncing = true;
      clearInterval(overlayTimer);
      setText(el.overlayTitle, t('conn.back'));
      el.retry.hidden = true;
      paintOverlay();
      ctx.resync();
    }
    function backInSync() {
      S.syncing = false;
      if (!S.offline) return;
      S.offline = false;
      document.body.classList.remove('offline');
      show(el.overlay, false);
      if (focusBefore && focusBefore.isConnected && focusBefore !== document.body) focusBefore.focus({ preventScroll: true });
      focusBefore = null;
      invalidate();
    }
    el.retry.addEventListener('click', ctx.retry);

    return { goOffline, backOnline, backInSync };
  };
})(window.Bac);
