/* tournament-table.js: what a tournament table's page adds (table.html includes it after
   table.js). At a table that plays a tournament's session (GET /api/tables/{id} says
   "tournament"), a panel above the coup shows the tournament, the round, table and session,
   the hands left, the player's chips and rank and the table's standings, following the
   tournament with its long poll (GET /api/tournaments/{id}?after=SEQ). The wallet in the
   top bar shows the player's chips at this table, as the table's own messages do. At any
   other table it does nothing. Needs app.js and table.js. */
'use strict';
(function (Bac) {
  const { api, h, $, setText } = Bac;
  const tableId = Bac.pathId('table');
  if (!tableId) return;
  let session = null;
  let panel = null;
  let chipsNow = null;
  let seated = false;

  function ensurePanel() {
    if (panel) return panel;
    panel = h('section', { class: 'panel t-panel', id: 't-panel', 'aria-label': 'Tournament' },
      h('h2', null, h('a', { id: 't-panel-name', href: '/tournament/' + encodeURIComponent(session.tournament) }, 'Tournament'),
        h('span', { class: 'spacer' }), h('span', { class: 'badge badge-gold', id: 't-panel-where' })),
      h('div', { class: 't-me' },
        h('span', null, 'Hands left ', h('b', { id: 't-hands-left' }, '–')),
        h('span', null, 'Your chips ', h('b', { id: 't-chips' }, '–')),
        h('span', null, 'Rank ', h('b', { id: 't-rank' }, '–'), h('span', { id: 't-of' })),
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
      if (T.S.me) T.S.me.currency = 'chips';
    }
    const label = $('#wallet .label');
    if (label) setText(label, 'Chips');
    Bac.renderBalance($('#balance'), available, 'chips', T && T.S ? T.S.me : null);
  }

  function render(v, force) {
    ensurePanel();
    setText($('#t-panel-name'), v.name);
    setText($('#t-panel-where'), 'Round ' + session.round + ' · table ' + session.table + ' · session ' + session.session);
    const tv = (v.tables || []).find((t) => t.table_id === tableId);
    const live = tv && tv.live && v.state.round === session.round;
    setText($('#t-hands-left'), live ? (tv.hands_left || (tv.ends_at ? 'until ' + new Date(tv.ends_at).toLocaleTimeString() : '–')) : '0');
    setText($('#t-status'), live ? '' : 'This session is over: the tournament page shows what comes next.');
    const me = v.me && v.me.registered ? v.me : null;
    setText($('#t-chips'), me ? Bac.fmtInt(me.chips) : '–');
    setText($('#t-rank'), me && me.rank ? me.rank : '–');
    setText($('#t-of'), v.state.leaderboard ? ' of ' + v.state.leaderboard.length : '');
    seated = !!(me && live && session.players.includes(me.player));
    if (seated && (force || chipsNow !== me.available)) showChips(me.available);
    const body = $('#t-standings tbody');
    body.textContent = '';
    for (const s of (v.state.leaderboard || []).filter((x) => session.players.includes(x.player))) {
      body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.chips, class: me && s.player === me.player ? 'me' : null },
        h('td', { class: 'num' }, s.rank), h('td', null, s.player, v.bots.includes(s.player) ? h('span', { class: 'badge badge-bot' }, 'bot') : null),
        h('td', { class: 'num' }, Bac.fmtInt(s.chips)), h('td', { class: 'muted' }, s.eliminated ? 'eliminated' : s.advances ? 'advances' : '')));
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
      if (!seated || !T || !T.S || !T.S.me || T.S.me.currency === 'chips') return;
      try { render(await api('GET', '/api/tournaments/' + encodeURIComponent(session.tournament)), true); } catch (e) { /* next time */ }
    }, 1000);
  }
  start();
})(window.Bac);
