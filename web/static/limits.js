/* limits.js: responsible gaming on the player's pages (table, lobby, tournaments, account).
   For a signed-in player it reads GET /api/me/limits on load, every 20 s, and at once when an
   API call is refused for the player's sake (limit_reached, excluded, reality_check,
   session_ended: app.js dispatches 'bac:refused' for every refusal). It shows
   - a session clock (#limits-clock; in the top bar, on a phone at the bottom left): time
     played, and time left under a session time limit;
   - the reality check (#limits-check, a modal dialog) when the server says one is due
     (session.check_now) or check_due has passed; every time is counted from the server's
     `now`, never the browser's clock. Betting is paused while it is open (body.limits-paused);
   - a notice (#limits-notice) once the session has ended or the player is excluded: wagers
     already placed still settle, and betting stays off (body.limits-ended);
   - on the account page, in #limits-panel: the limits in force, this session's and today's
     results, the record of events, and the player's own cool-off or self-exclusion
     (limits-account.js, which this file hands each standing it reads).
   Its styles are limits.css. Needs i18n.js, currency.js and app.js (and limits-account.js on
   the account page); starts once the translations are in.
   BacLimits.refresh() reads the limits again at once. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, toggle, t, tn } = Bac;
  const POLL_MS = 20000;
  const DUE_RETRY_MS = 3000; // a check or an end passed here but not yet on the server: ask again this soon
  const REFUSALS = new Set(['limit_reached', 'excluded', 'reality_check', 'session_ended']);
  // The controls a pause or an ended session turns off: the table's bets, chips and actions,
  // a Dragon session's bets, a tournament's register and rebuy.
  const BETTING = ['section.betting', '#dragon-panel', '#t-register', '#t-rebuy'];
  const page = document.body.classList;

  let view = null; // the last LimitsView
  let readAt = 0; // performance.now() when it arrived
  let off = false; // not a player's page (staff, or a server that keeps no limits)

  // ---- times: all from the server's clock ---------------------------------------------------
  function serverNow() { return view ? Date.parse(view.now) + (performance.now() - readAt) : NaN; }
  function when(iso) {
    const ms = Date.parse(iso || '');
    return Number.isNaN(ms) || ms < 946684800000 ? 0 : ms; // before 2000: Go's zero time, none
  }
  function dur(minutes) {
    const m = Math.max(0, Math.floor(minutes));
    if (m < 60) return t('limits.dur.min', { m: Bac.fmtInt(m) });
    return t('limits.dur.h_min', { h: Bac.fmtInt(Math.floor(m / 60)), m: String(m % 60).padStart(2, '0') });
  }
  // Minutes played in the session: to its end, or to the server's now.
  function played() {
    const s = view.session;
    const from = when(s.started);
    return from ? Math.max(0, ((when(s.ended) || serverNow()) - from) / 60000) : 0;
  }
  let dateFmt = null;
  function fmtWhen(ms) {
    if (!dateFmt) dateFmt = new Intl.DateTimeFormat(Bac.lang, { dateStyle: 'medium', timeStyle: 'short' });
    return ms ? dateFmt.format(new Date(ms)) : '';
  }

  // ---- money: the limits' currency (the player's), which may not be the table's --------------
  const big = (v) => BigInt(Math.trunc(Number(v) || 0));
  function money(minor) {
    return window.BacCurrency ? window.BacCurrency.money(big(minor), view.minor_units, view.currency) : Bac.fmtMoney(minor);
  }
  function signed(minor) { return (big(minor) > 0n ? '+' : '') + money(minor); }
  function tone(el, minor) {
    toggle(el, 'pos', big(minor) > 0n);
    toggle(el, 'neg', big(minor) < 0n);
  }

  // What the standing asks of the page: nothing, the clock, a reality check, or a notice that
  // the player cannot play.
  function mode() {
    if (!view) return 'none';
    if (view.excluded) return 'excluded';
    const s = view.session;
    if (!s || !s.id) return 'none';
    if (!s.open) return 'ended';
    return s.check_now ? 'check' : 'open';
  }

  // ---- the session clock ----------------------------------------------------------------------
  const clock = h('span', { class: 'limits-clock', id: 'limits-clock', hidden: true, title: t('limits.clock.title') });
  function renderClock() {
    const s = view && view.session;
    const on = !!(s && s.id && s.open && !view.excluded);
    show(clock, on);
    if (!on) return;
    const m = played();
    const ends = when(s.ends);
    const left = ends ? Math.max(0, Math.ceil((ends - serverNow()) / 60000)) : null;
    setText(clock, t('limits.clock.played', { time: dur(m) }) + (left === null ? '' : ' · ' + t('limits.clock.left', { time: dur(left) })));
    setAttr(clock, 'data-played', String(Math.floor(m)));
    setAttr(clock, 'data-left', left === null ? null : String(left));
    toggle(clock, 'limits-clock-warn', left !== null && left <= 5);
  }

  // ---- the reality check --------------------------------------------------------------------------
  const checkText = h('p', { id: 'limits-check-text' });
  const figNet = h('dd', { class: 'limits-net' });
  const figStaked = h('dd');
  const figOpen = h('dd');
  const openLabel = h('dt', null, t('limits.check.in_play'));
  const checkErr = h('p', { class: 'limits-error', role: 'alert', hidden: true });
  const btnContinue = h('button', { type: 'button', class: 'btn btn-gold', id: 'limits-continue', onclick: () => answer('continue') }, t('limits.check.continue'));
  const btnLeave = h('button', { type: 'button', class: 'btn', id: 'limits-leave', onclick: () => answer('leave') }, t('limits.check.leave'));
  const box = h('div', { class: 'limits-box', id: 'limits-check', role: 'dialog', 'aria-modal': 'true',
    'aria-labelledby': 'limits-check-title', 'aria-describedby': 'limits-check-text limits-check-paused' },
  h('h2', { id: 'limits-check-title' }, t('limits.check.title')), checkText,
  h('dl', { class: 'limits-figures' }, h('dt', null, t('limits.check.net')), figNet, h('dt', null, t('limits.check.staked')), figStaked, openLabel, figOpen),
  h('p', { class: 'muted', id: 'limits-check-paused' }, t('limits.check.paused')), checkErr,
  h('div', { class: 'limits-actions' }, btnContinue, btnLeave));
  const dialog = h('div', { class: 'limits-backdrop', hidden: true }, box);

  function renderCheck() {
    const tally = view.session.tally || {};
    const m = played();
    setText(checkText, t('limits.check.played', { time: dur(m) }));
    setAttr(box, 'data-played', String(Math.floor(m)));
    setAttr(box, 'data-net', String(big(tally.net)));
    setText(figNet, signed(tally.net));
    tone(figNet, tally.net);
    setText(figStaked, money(tally.staked));
    setText(figOpen, money(tally.open));
    show(openLabel, big(tally.open) !== 0n);
    show(figOpen, big(tally.open) !== 0n);
  }
  // The page behind a modal dialog takes neither pointer nor keyboard (inert), and gets both
  // back when it closes, with the focus where it was.
  let inerted = [];
  let returnFocus = null;
  function openCheck() {
    renderCheck();
    if (!dialog.hidden) return;
    returnFocus = document.activeElement;
    show(checkErr, false);
    for (const el of document.body.children) {
      if (el !== dialog && !el.inert) { el.inert = true; inerted.push(el); }
    }
    show(dialog, true);
    btnContinue.focus();
  }
  function closeCheck() {
    if (dialog.hidden) return;
    show(dialog, false);
    for (const el of inerted) el.inert = false;
    inerted = [];
    const back = returnFocus;
    returnFocus = null;
    if (back && back.isConnected && !back.closest('[inert]') && back.focus) back.focus();
  }
  let answering = false;
  async function answer(kind) {
    if (answering || !view) return;
    answering = true;
    btnContinue.disabled = btnLeave.disabled = true;
    show(checkErr, false);
    try {
      take(await api('POST', '/api/me/reality-check', { answer: kind, session: view.session.id }));
      if (kind === 'leave' && !notice.hidden) noticeTitle.focus();
    } catch (e) { // a refusal also reads the standing again ('bac:refused')
      setText(checkErr, Bac.errorText(e));
      show(checkErr, true);
    } finally {
      answering = false;
      btnContinue.disabled = btnLeave.disabled = false;
    }
  }

  // ---- the notice: the session has ended, or the player is excluded ----------------------------
  const noticeTitle = h('h2', { id: 'limits-notice-title', tabindex: '-1' });
  const noticeWhy = h('p', { class: 'limits-notice-why' });
  const noticeAgain = h('p', { class: 'muted' });
  const notice = h('section', { class: 'limits-notice', id: 'limits-notice', role: 'alert', 'aria-labelledby': 'limits-notice-title', hidden: true },
    noticeTitle, noticeWhy, h('p', null, t('limits.notice.settle')), noticeAgain,
    h('div', { class: 'limits-actions' },
      page.contains('page-lobby') ? null : h('a', { class: 'btn btn-sm', href: '/', id: 'limits-notice-lobby' }, t('limits.notice.lobby')),
      page.contains('page-account') ? null : h('a', { class: 'btn btn-sm', href: '/account#limits-panel' }, t('limits.notice.account'))));
  const ENDED = { left: 'limits.notice.left', time_limit: 'limits.notice.time_limit', replaced: 'limits.notice.replaced', excluded: 'limits.notice.excluded' };
  function renderNotice(m) {
    show(notice, m === 'ended' || m === 'excluded');
    if (m === 'excluded') {
      const x = view.excluded;
      setText(noticeTitle, t('limits.notice.excluded_title'));
      setText(noticeWhy, t(x.kind === 'self_exclusion' ? 'limits.notice.self_exclusion' : 'limits.notice.cool_off', { date: fmtWhen(when(x.until)) }));
      setText(noticeAgain, '');
      setAttr(notice, 'data-reason', 'excluded');
    } else if (m === 'ended') {
      const s = view.session;
      const reason = s.end_reason || (when(s.ends) && serverNow() >= when(s.ends) ? 'time_limit' : '');
      setText(noticeTitle, t('limits.notice.title'));
      setText(noticeWhy, t(ENDED[reason] || 'limits.notice.ended', { time: dur((view.limits && view.limits.session_minutes) || 0) }));
      setText(noticeAgain, t('limits.notice.again'));
      setAttr(notice, 'data-reason', reason || 'ended');
    }
    show(noticeAgain, !!noticeAgain.textContent);
  }

  // ---- betting off while paused or ended -----------------------------------------------------------
  let offEls = [];
  function betting(why) {
    if (!why) {
      for (const el of offEls) { el.inert = false; el.removeAttribute('data-limits-off'); el.removeAttribute('data-limits-why'); }
      offEls = [];
      return;
    }
    for (const sel of BETTING) {
      const el = $(sel);
      if (el && !el.inert) { el.inert = true; el.setAttribute('data-limits-off', ''); offEls.push(el); }
    }
    for (const el of offEls) setAttr(el, 'data-limits-why', why);
  }
  // The table's keys (chips, bets, undo, rebet, double) are listened for on the document: a
  // listener on the window, in the capture phase, hears them first and keeps them from it.
  const onTable = !!$('section.betting');
  function guardDialog(e) {
    if (e.key === 'Escape') { // the player answers: Esc does not dismiss
      e.preventDefault();
      e.stopImmediatePropagation();
    } else if (e.key === 'Tab') {
      const f = [...box.querySelectorAll('button:not(:disabled), a[href]')];
      if (!f.length) return;
      const i = f.indexOf(document.activeElement);
      const next = e.shiftKey ? f[i <= 0 ? f.length - 1 : i - 1] : f[i < 0 || i === f.length - 1 ? 0 : i + 1];
      e.preventDefault();
      e.stopImmediatePropagation();
      next.focus();
    } else if (e.key.length === 1 && e.key !== ' ') {
      e.stopImmediatePropagation();
    }
  }
  window.addEventListener('keydown', (e) => {
    if (!dialog.hidden) { guardDialog(e); return; }
    if (!onTable || !page.contains('limits-ended')) return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1 || e.key === ' ') return;
    const tg = e.target;
    if (tg && (tg.tagName === 'INPUT' || tg.tagName === 'TEXTAREA' || tg.tagName === 'SELECT')) return;
    const squeeze = $('#squeeze');
    if (squeeze && !squeeze.hidden) return; // a squeeze of a wager placed before still plays
    e.stopImmediatePropagation();
  }, true);

  // ---- the account page's section (limits-account.js) ---------------------------------------------
  const panel = $('#limits-panel');
  const account = panel && Bac.createLimitsPanel({ panel, take, serverNow, when, dur, played, fmtWhen, money, signed, tone, big });

  // ---- reading the standing -------------------------------------------------------------------------
  function render() {
    const m = mode();
    toggle(document.body, 'limits-paused', m === 'check');
    toggle(document.body, 'limits-ended', m === 'ended' || m === 'excluded');
    setAttr(document.body, 'data-limits', m);
    betting(m === 'check' ? t('limits.paused') : m === 'ended' ? t('limits.stopped') : m === 'excluded' ? t('limits.stopped_excluded') : '');
    renderClock();
    renderNotice(m);
    if (m === 'check') openCheck(); else closeCheck();
    if (account && view) account.render(view); else if (panel) show(panel, false);
  }
  function take(v) {
    view = v;
    readAt = performance.now();
    render();
  }
  function stop() {
    off = true;
    view = null;
    render();
    show(clock, false);
  }
  let reading = false;
  let again = false; // a reason to read came while a read was under way: read once more after it
  let asked = 0;
  async function refresh() {
    if (off || !Bac.token()) return;
    if (reading) { again = true; return; }
    reading = true;
    asked = performance.now();
    try {
      do {
        again = false;
        try {
          take(await api('GET', '/api/me/limits'));
        } catch (e) {
          // staff (403), signed out (401), a server that keeps no limits (404): nothing to show
          if ((e.status === 401 || e.status === 403 || e.status === 404) && !REFUSALS.has(e.code)) { stop(); return; }
        }
      } while (again);
    } finally {
      reading = false;
    }
  }
  // Every second: the clock, and a read when a check or the session's end falls due by the
  // server's time (again every few seconds until the server agrees), or every 20 s.
  function tick() {
    if (off) return;
    const since = performance.now() - Math.max(readAt, asked);
    let due = false;
    if (view) {
      renderClock();
      if (!dialog.hidden) renderCheck();
      const s = view.session || {};
      const now = serverNow();
      due = !!s.open && (!s.check_now && when(s.check_due) && now >= when(s.check_due) || when(s.ends) && now >= when(s.ends));
    }
    if (since >= (due ? DUE_RETRY_MS : POLL_MS) && (due || document.visibilityState === 'visible')) refresh();
  }

  window.BacLimits = { refresh, view: () => view };
  if (!Bac.token()) return;
  // The clock sits in the top bar; on a phone, where the bar is full, at the bottom left (out of
  // the bar, whose backdrop filter would hold a fixed child inside it).
  const phone = window.matchMedia('(max-width: 600px)');
  const placeClock = () => {
    const bar = $('.topbar');
    if (bar && !phone.matches) bar.insertBefore(clock, $('#who', bar)); else document.body.appendChild(clock);
  };
  placeClock();
  phone.addEventListener('change', placeClock);
  document.body.insertBefore(notice, $('main'));
  document.body.appendChild(dialog);
  window.addEventListener('bac:refused', (e) => { if (e.detail && REFUSALS.has(e.detail.code)) refresh(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
  setInterval(tick, 1000);
  refresh();
})(window.Bac));
