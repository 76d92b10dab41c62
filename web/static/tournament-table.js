/* tournament-table.js: what a tournament table's page adds (table.html includes it after
   table.js). At a table that plays a tournament's session (GET /api/tables/{id} says
   "tournament"), a panel above the coup shows the tournament, the round, table and session,
   the hands left, the player's chips and rank and the table's standings, following the
   tournament with its long poll (GET /api/tournaments/{id}?after=SEQ). The wallet in the
   top bar shows the player's chips at this table, as the table's own messages do. At any
   other table it does nothing. Every visible string goes through t() (keys tournament.*).
   Needs app.js and table.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, t } = Bac;
  // The wallet's unit at a chip table; the page's player record carries it, and a money
  // unit there means table.js read the account again and showed money.
  const CHIPS = t('tournament.wallet.unit');
  const tableId = Bac.pathId('table');
  if (!tableId) return;
  let session = null;
  let panel = null;
  let chipsNow = null;
  let seated = false;

  function ensurePanel() {
    if (panel) return panel;
    panel = h('section', { class: 'panel t-panel', id: 't-panel', 'aria-label': t('tournament.panel.aria') },
      h('h2', null, h('a', { id: 't-panel-name', href: '/tournament/' + encodeURIComponent(session.tournament) }, t('tournament.panel.aria')),
        h('span', { class: 'spacer' }), h('span', { class: 'badge badge-gold', id: 't-panel-where' })),
      h('div', { class: 't-me' },
        h('span', null, t('tournament.panel.hands_left') + ' ', h('b', { id: 't-hands-left' }, '–')),
        h('span', null, t('tournament.panel.chips') + ' ', h('b', { id: 't-chips' }, '–')),
        h('span', null, t('tournament.me.rank') + ' ', h('b', { id: 't-rank' }, '–'), h('span', { id: 't-of' })),
        h('span', { class: 'muted', id: 't-status' })),
      h('table', { class: 't-list', id: 't-standings' }, h('tbody')));
    const main = $('.col-main') || document.body;
    main.insertBefore(panel, main.firstChild);
    return panel;
  }

  // The wallet shows chips here: the player's chip wallet, which the table's answers and
  // balance messages keep up to date afterwards.
  function showChips(available) {
    const T = window.BacTable;
    chipsNow = available;
    if (T && T.S) {
      T.S.balance = available;
      if (T.S.me) T.S.me.currency = CHIPS;
    }
    const label = $('#wallet .label');
    if (label) setText(label, t('tournament.wallet.label'));
    Bac.renderBalance($('#balance'), available, CHIPS, T && T.S ? T.S.me : null);
  }

  // A live session's hands left, or the time a timed one ends.
  function handsLeft(tv) {
    if (tv.hands_left) return Bac.fmtInt(tv.hands_left);
    if (!tv.ends_at) return '–';
    const d = new Date(tv.ends_at);
    return Number.isNaN(d.getTime()) ? '–' : t('tournament.panel.until', { time: d.toLocaleTimeString(Bac.lang) });
  }

  function render(v, force) {
    ensurePanel();
    setText($('#t-panel-name'), v.name);
    setText($('#t-panel-where'), t('tournament.panel.where', { round: session.round, table: session.table, session: session.session }));
    const tv = (v.tables || []).find((t) => t.table_id === tableId);
    const live = tv && tv.live && v.state.round === session.round;
    setText($('#t-hands-left'), live ? handsLeft(tv) : '0');
    setText($('#t-status'), live ? '' : t('tournament.panel.over'));
    const me = v.me && v.me.registered ? v.me : null;
    setText($('#t-chips'), me ? Bac.fmtInt(me.chips) : '–');
    setText($('#t-rank'), me && me.rank ? me.rank : '–');
    setText($('#t-of'), v.state.leaderboard ? t('tournament.me.of', { n: v.state.leaderboard.length }) : '');
    seated = !!(me && live && session.players.includes(me.player));
    if (seated && (force || chipsNow !== me.available)) showChips(me.available);
    const body = $('#t-standings tbody');
    body.textContent = '';
    for (const s of (v.state.leaderboard || []).filter((x) => session.players.includes(x.player))) {
      body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.chips, class: me && s.player === me.player ? 'me' : null },
        h('td', { class: 'num' }, s.rank),
        h('td', null, h('span', { class: 'player', 'data-player': s.player }, s.player), v.bots.includes(s.player) ? h('span', { class: 'badge badge-bot', title: t('tournament.bot_title') }, t('tournament.bot')) : null),
        h('td', { class: 'num' }, Bac.fmtInt(s.chips)),
        h('td', { class: 'muted' }, s.eliminated ? t('tournament.status.eliminated') : s.advances ? t('tournament.status.advances') : '')));
    }
  }

  async function follow() {
    let after = null;
    for (;;) {
      try {
        const v = await api('GET', '/api/tournaments/' + encodeURIComponent(session.tournament) + (after === null ? '' : '?after=' + after));
        render(v);
        after = v.seq;
      } catch (e) {
        if (e.status === 404) return;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  async function start() {
    let tv = null;
    for (let i = 0; i < 5 && !tv; i++) {
      try { tv = (await api('GET', '/api/tables/' + encodeURIComponent(tableId))).table; } catch (e) { await new Promise((r) => setTimeout(r, 1000)); }
    }
    if (!tv || !tv.tournament) return;
    session = tv.tournament;
    document.head.appendChild(h('link', { rel: 'stylesheet', href: '/static/tournament.css' }));
    ensurePanel();
    follow();
    // table.js shows the money wallet when it (re)reads the account (at load, and when the
    // page comes back into view): the chips are shown again, fresh.
    setInterval(async () => {
      const T = window.BacTable;
      if (!seated || !T || !T.S || !T.S.me || T.S.me.currency === CHIPS) return;
      try { render(await api('GET', '/api/tournaments/' + encodeURIComponent(session.tournament)), true); } catch (e) { /* next time */ }
    }, 1000);
  }
  start();
})(window.Bac));
