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
     results, the record of events, and the player's own cool-off or self-exclusion.
   Its styles are injected here: a stylesheet of its own would be a request besides the page's
   bundle. Needs i18n.js, currency.js and app.js; starts once the translations are in.
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

  // ---- the account page's section --------------------------------------------------------------------
  const panel = $('#limits-panel');
  const PERIODS = [
    { id: 'cool_off:1', kind: 'cool_off', days: 1 }, { id: 'cool_off:7', kind: 'cool_off', days: 7 },
    { id: 'cool_off:30', kind: 'cool_off', days: 30 }, { id: 'self_exclusion:6', kind: 'self_exclusion', months: 6 },
    { id: 'self_exclusion:12', kind: 'self_exclusion', months: 12 }, { id: 'self_exclusion:60', kind: 'self_exclusion', months: 60 },
  ];
  const KINDS = { cool_off: 'limits.kind.cool_off', self_exclusion: 'limits.kind.self_exclusion' };
  const REASONS = { time_limit: 'limits.reason.time_limit', left: 'limits.reason.left', excluded: 'limits.reason.excluded', replaced: 'limits.reason.replaced' };
  const ANSWERS = { continue: 'limits.answer.continue', leave: 'limits.answer.leave' };
  const BREACHES = { excluded: 'limits.breach.excluded', session_time: 'limits.breach.session_time', session_ended: 'limits.breach.session_ended',
    reality_check: 'limits.breach.reality_check', currency: 'limits.breach.currency', stake_per_round: 'limits.breach.stake_per_round',
    loss_per_session: 'limits.breach.loss_per_session', loss_per_day: 'limits.breach.loss_per_day' };
  const MONEY_LIMITS = [['loss_per_session', 'limits.rg.loss_per_session'], ['loss_per_day', 'limits.rg.loss_per_day'], ['stake_per_round', 'limits.rg.stake_per_round']];
  const TALLIES = [['staked', 'limits.rg.staked'], ['returned', 'limits.rg.returned'], ['net', 'limits.rg.net'], ['open', 'limits.rg.open']];
  const words = (map, k) => (map[k] ? t(map[k]) : Bac.humanize(k));
  function periodText(p) {
    if (p.days) return tn('limits.dur.days', p.days);
    return p.months >= 24 && p.months % 12 === 0 ? tn('limits.dur.years', p.months / 12) : tn('limits.dur.months', p.months);
  }
  let ui = null; // the section's parts, built once: a choice in the form outlives a re-read

  function tallyBox(period) {
    return h('div', { class: 'limits-tally', 'data-period': period }, h('h4', null),
      h('div', { class: 'totals-grid' }, TALLIES.map(([k, label]) => h('div', { class: 'total', 'data-tally': k },
        h('span', { class: 'label' }, t(label)), h('b', { class: 'value' }, '—')))));
  }
  function buildPanel() {
    ui = { status: h('p', { class: 'limits-status', id: 'limits-status' }), rules: h('dl', { class: 'limits-rules', id: 'limits-rules' }),
      session: tallyBox('session'), day: tallyBox('day'), events: h('ol', { class: 'limits-events', id: 'limits-events' }), lastSeq: -1 };
    panel.textContent = '';
    setAttr(panel, 'aria-labelledby', 'limits-panel-title');
    Bac.append(panel, [h('h2', { id: 'limits-panel-title' }, t('limits.rg.title')), h('p', { class: 'muted' }, t('limits.rg.intro')), ui.status,
      h('h3', null, t('limits.rg.limits')), ui.rules, h('p', { class: 'muted' }, t('limits.rg.loss_note')),
      h('h3', null, t('limits.rg.results')), h('div', { class: 'limits-tallies' }, ui.session, ui.day),
      h('h3', null, t('limits.rg.events')), ui.events, buildExclude()]);
    if (window.location.hash === '#limits-panel') requestAnimationFrame(() => panel.scrollIntoView()); // the notice's link
  }
  function renderPanel() {
    if (!ui) buildPanel();
    show(panel, true);
    const l = view.limits || {};
    const none = t('limits.rg.none');
    const x = view.excluded;
    const rows = [
      ['limits.rg.reality_check', l.reality_check_minutes ? t('limits.rg.every', { time: dur(l.reality_check_minutes) }) : none],
      ['limits.rg.session', l.session_minutes ? t('limits.rg.per_session', { time: dur(l.session_minutes) }) : none],
      ...MONEY_LIMITS.map(([k, label]) => [label, l[k] ? money(l[k]) : none]),
      ['limits.rg.exclusion', x ? t('limits.rg.excluded', { what: words(KINDS, x.kind), date: fmtWhen(when(x.until)) }) : t('limits.rg.not_excluded')],
    ];
    ui.rules.textContent = '';
    for (const [k, v] of rows) Bac.append(ui.rules, [h('dt', null, t(k)), h('dd', null, v)]);
    const s = view.session || {};
    let status = t('limits.rg.no_session');
    if (s.id && s.open) status = t('limits.rg.session_open', { date: fmtWhen(when(s.started)), time: dur(played()) });
    else if (s.id) status = t('limits.rg.session_ended', { date: fmtWhen(when(s.ended) || when(s.ends)), reason: words(REASONS, s.end_reason || 'time_limit') });
    setText(ui.status, status);
    renderTally(ui.session, t('limits.rg.this_session'), s.tally || {});
    const day = Number.isNaN(serverNow()) ? view.day : new Date(serverNow()).toISOString().slice(0, 10);
    renderTally(ui.day, t('limits.rg.today', { day }), view.day_tally || {});
    renderEvents();
  }
  function renderTally(el, title, tally) {
    setText(el.querySelector('h4'), title);
    for (const [k] of TALLIES) {
      const b = el.querySelector('[data-tally="' + k + '"]');
      setAttr(b, 'data-minor', String(big(tally[k])));
      setText(b.querySelector('.value'), k === 'net' ? signed(tally[k]) : money(tally[k]));
      if (k === 'net') tone(b, tally[k]);
    }
  }
  function renderEvents() {
    const list = view.events || [];
    const last = list.length ? list[list.length - 1].seq : 0;
    if (last === ui.lastSeq) return;
    ui.lastSeq = last;
    ui.events.textContent = '';
    if (!list.length) ui.events.appendChild(h('li', { class: 'muted' }, t('limits.rg.no_events')));
    for (const e of list.slice().reverse()) {
      ui.events.appendChild(h('li', { 'data-kind': e.kind, 'data-seq': e.seq, title: e.message || null },
        h('time', { datetime: e.at }, fmtWhen(when(e.at))), h('span', null, eventText(e))));
    }
  }
  function byText(by) {
    if (by === 'operator') return t('limits.ev.by_operator');
    if (by === 'table') return t('limits.ev.by_table');
    if (by === view.player) return t('limits.ev.by_you');
    return t('limits.ev.by_admin', { id: by });
  }
  function limitsText(l) {
    const parts = [];
    if (!l) return t('limits.ev.no_limits');
    if (l.reality_check_minutes) parts.push(t('limits.rg.reality_check') + ' ' + t('limits.rg.every', { time: dur(l.reality_check_minutes) }));
    if (l.session_minutes) parts.push(t('limits.rg.session') + ' ' + t('limits.rg.per_session', { time: dur(l.session_minutes) }));
    for (const [k, label] of MONEY_LIMITS) if (l[k]) parts.push(t(label) + ' ' + money(l[k]));
    if (l.excluded) parts.push(t('limits.rg.excluded', { what: words(KINDS, l.excluded.kind), date: fmtWhen(when(l.excluded.until)) }));
    return parts.length ? parts.join(t('limits.ev.sep')) : t('limits.ev.no_limits');
  }
  // A session's result at an event: minutes played, and the net of its settled wagers (added
  // up here, for display only, in BigInt).
  function resultText(e) {
    if (!e.played_minutes && !e.tally) return '';
    const net = e.tally ? big(e.tally.returned) - big(e.tally.settled) : 0n;
    return ' · ' + t('limits.ev.result', { time: dur(e.played_minutes || 0), net: signed(net) });
  }
  function eventText(e) {
    switch (e.kind) {
      case 'limits_set': return t('limits.ev.limits_set', { by: byText(e.by), what: limitsText(e.limits) });
      case 'excluded': return t('limits.ev.excluded', { what: words(KINDS, e.exclusion && e.exclusion.kind), date: fmtWhen(when(e.exclusion && e.exclusion.until)) });
      case 'session_started': return t('limits.ev.session_started', { n: e.session });
      case 'session_ended': return t('limits.ev.session_ended', { n: e.session, reason: words(REASONS, e.reason) }) + resultText(e);
      case 'reality_check': return t('limits.ev.reality_check', { answer: words(ANSWERS, e.reason) }) + resultText(e);
      case 'limit_reached': return t('limits.ev.limit_reached', { what: words(BREACHES, e.breach) });
      default: return Bac.humanize(e.kind);
    }
  }

  // The player's own exclusion: a period, then a confirmation that says it cannot be undone here.
  function buildExclude() {
    const group = (kind, legend, help) => h('fieldset', null, h('legend', null, t(legend)), h('p', { class: 'muted' }, t(help)),
      PERIODS.filter((p) => p.kind === kind).map((p) => h('label', { class: 'limits-choice' },
        h('input', { type: 'radio', name: 'limits-period', value: p.id }), ' ', periodText(p))));
    const x = {
      go: h('button', { type: 'submit', class: 'btn btn-danger', id: 'limits-exclude-go', disabled: true }, t('limits.ex.submit')),
      text: h('p', { id: 'limits-confirm-text' }),
      no: h('button', { type: 'button', class: 'btn', id: 'limits-exclude-no' }, t('limits.ex.no')),
      yes: h('button', { type: 'button', class: 'btn btn-danger', id: 'limits-exclude-yes' }, t('limits.ex.yes')),
      msg: h('p', { id: 'limits-exclude-msg', role: 'status' }),
    };
    x.confirm = h('div', { class: 'limits-confirm', id: 'limits-exclude-confirm', role: 'group', 'aria-labelledby': 'limits-confirm-title', hidden: true },
      h('h4', { id: 'limits-confirm-title' }, t('limits.ex.confirm_title')), x.text, h('p', null, h('b', null, t('limits.ex.final'))),
      h('div', { class: 'limits-actions' }, x.no, x.yes));
    x.form = h('form', { class: 'limits-exclude', id: 'limits-exclude' }, h('h3', null, t('limits.ex.title')), h('p', { class: 'muted' }, t('limits.ex.help')),
      group('cool_off', 'limits.ex.cool_off', 'limits.ex.cool_off_help'), group('self_exclusion', 'limits.ex.self_exclusion', 'limits.ex.self_exclusion_help'),
      h('div', { class: 'limits-actions' }, x.go), x.confirm, x.msg);
    const cancel = () => { show(x.confirm, false); x.go.disabled = !chosen(x); };
    x.form.addEventListener('change', cancel);
    x.no.addEventListener('click', () => { cancel(); x.go.focus(); });
    x.form.addEventListener('submit', (e) => { e.preventDefault(); askExclude(x); });
    x.yes.addEventListener('click', () => exclude(x));
    return x.form;
  }
  function chosen(x) {
    const r = x.form.querySelector('input[name="limits-period"]:checked');
    return r ? PERIODS.find((p) => p.id === r.value) : null;
  }
  // The confirmation: what, for how long, until about when (by the server's clock).
  function askExclude(x) {
    const p = chosen(x);
    if (!p || !view) return;
    const until = new Date(serverNow());
    if (p.days) until.setUTCDate(until.getUTCDate() + p.days); else until.setUTCMonth(until.getUTCMonth() + p.months);
    setText(x.text, t('limits.ex.confirm', { what: t(KINDS[p.kind]), period: periodText(p), date: fmtWhen(until.getTime()) }));
    setText(x.msg, '');
    show(x.confirm, true);
    x.go.disabled = true;
    x.no.focus();
  }
  async function exclude(x) {
    const p = chosen(x);
    if (!p) return;
    x.yes.disabled = x.no.disabled = true;
    try {
      take(await api('POST', '/api/me/exclude', p.days ? { kind: p.kind, days: p.days } : { kind: p.kind, months: p.months }));
      show(x.confirm, false);
      for (const r of x.form.querySelectorAll('input[name="limits-period"]')) r.checked = false;
      setText(x.msg, view.excluded ? t('limits.ex.done', { date: fmtWhen(when(view.excluded.until)) }) : '');
    } catch (err) {
      setText(x.msg, Bac.errorText(err));
    } finally {
      x.yes.disabled = x.no.disabled = false;
      x.go.disabled = !chosen(x);
    }
  }

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
    if (panel && view) renderPanel(); else if (panel) show(panel, false);
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

  // ---- styles ------------------------------------------------------------------------------------------
  const CSS = `
  .limits-clock { font-size: 12px; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 40vw;
    border: 1px solid var(--line-2); border-radius: 99px; padding: 1px 8px; }
  .limits-clock.limits-clock-warn { color: var(--warn); border-color: rgba(240, 180, 60, 0.7); }
  .limits-backdrop { position: fixed; inset: 0; z-index: 70; display: grid; place-items: center; padding: 16px;
    background: rgba(2, 12, 8, 0.74); backdrop-filter: blur(2px); }
  .limits-box { width: 100%; max-width: 420px; padding: 18px 20px; border-radius: 14px; background: #10231b;
    border: 1px solid rgba(224, 187, 98, 0.75); box-shadow: var(--shadow); }
  .limits-box h2 { margin: 0 0 8px; font-size: 20px; color: var(--gold); }
  .limits-box p { margin: 6px 0; }
  .limits-figures { display: grid; grid-template-columns: 1fr auto; gap: 4px 16px; margin: 12px 0; padding: 10px 12px;
    border-radius: 10px; background: var(--panel-2); border: 1px solid var(--line); }
  .limits-figures dt { color: var(--muted); }
  .limits-figures dd { margin: 0; text-align: right; font-weight: 700; }
  .limits-net.pos { color: var(--ok); }
  .limits-net.neg { color: #ff9a90; }
  .limits-actions { display: flex; flex-wrap: wrap; gap: 10px; margin-top: 10px; }
  .limits-box .limits-actions { justify-content: flex-end; }
  .limits-error { color: var(--err); }
  .limits-notice { max-width: 980px; margin: 12px auto 0; padding: 12px 14px; border-radius: 12px; color: #ffe2a6;
    background: rgba(240, 180, 60, 0.14); border: 1px solid rgba(240, 180, 60, 0.7); }
  .limits-notice h2 { margin: 0 0 4px; font-size: 17px; color: var(--warn); }
  .limits-notice h2:focus { outline: none; }
  .limits-notice p { margin: 4px 0; }
  [data-limits-off] { opacity: 0.45; filter: grayscale(0.7); }
  section.betting[data-limits-off] { position: relative; opacity: 1; filter: none; }
  section.betting[data-limits-off] > * { opacity: 0.4; filter: grayscale(0.7); }
  section.betting[data-limits-off]::after { content: attr(data-limits-why); position: absolute; left: 50%; top: 50%; z-index: 2;
    transform: translate(-50%, -50%); width: max-content; max-width: 90%; text-align: center; padding: 8px 14px; border-radius: 10px;
    font-weight: 700; color: #ffe2a6; background: #10231b; border: 1px solid rgba(240, 180, 60, 0.7); box-shadow: var(--shadow); }
  #limits-panel h3 { margin: 14px 0 6px; font-size: 14px; }
  #limits-panel h4 { margin: 0 0 6px; font-size: 12px; color: var(--muted); font-weight: 600; }
  .limits-status { margin: 6px 0; font-weight: 600; }
  .limits-rules { display: grid; grid-template-columns: max-content 1fr; gap: 4px 18px; margin: 0; }
  .limits-rules dt { color: var(--muted); }
  .limits-rules dd { margin: 0; }
  .limits-tallies { display: grid; gap: 10px; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); }
  .limits-tally .total .value { font-size: 16px; }
  .limits-events { list-style: none; margin: 0; padding: 0; max-height: 280px; overflow: auto; font-size: 13px; }
  .limits-events li { display: flex; gap: 12px; padding: 5px 0; border-bottom: 1px solid var(--line); }
  .limits-events time { color: var(--muted); white-space: nowrap; }
  .limits-exclude fieldset { margin: 8px 0; padding: 6px 12px 10px; border: 1px solid var(--line); border-radius: 10px; }
  .limits-exclude legend { padding: 0 4px; font-weight: 600; }
  .limits-exclude fieldset p { margin: 0 0 6px; font-size: 13px; }
  .limits-choice { display: inline-flex; align-items: center; gap: 4px; margin-right: 18px; min-height: 30px; }
  .limits-confirm { margin-top: 10px; padding: 10px 12px; border-radius: 10px; border: 1px solid rgba(255, 107, 95, 0.6); background: rgba(229, 72, 63, 0.12); }
  .limits-confirm p { margin: 4px 0; }
  @media (max-width: 600px) {
    .limits-clock { position: fixed; left: 8px; bottom: calc(8px + env(safe-area-inset-bottom)); z-index: 30; max-width: 70vw;
      font-size: 11px; padding: 2px 8px; background: rgba(2, 17, 11, 0.9); pointer-events: none; }
    .limits-notice { margin: 8px 8px 0; }
    .limits-rules { grid-template-columns: 1fr; gap: 0; }
    .limits-rules dd { margin-bottom: 6px; }
  }
  `;

  window.BacLimits = { refresh, view: () => view };
  if (!Bac.token()) return;
  document.head.appendChild(h('style', { id: 'limits-style' }, CSS));
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
