/* tournament.js: the tournament pages. /tournaments lists every tournament (polled every
   3 s); /tournament/{id} shows one: the player's place and the register, unregister and
   rebuy buttons, the live leaderboard, each table with a link to the table that plays its
   session, advancement and prizes, the schedule and rules, and every session's chip account.
   It follows the tournament with GET /api/tournaments/{id}?after=SEQ, a long poll that
   answers when the tournament moves. Bots carry a "bot" badge wherever they are named.
   Needs app.js. */
'use strict';
(function (Bac) {
  const { api, h, $, setText, setAttr, show, fmtMoney, toast, toastError, clock } = Bac;
  const PHASES = { scheduled: 'Scheduled', registering: 'Registration open', registration_closed: 'Registration closed',
    running: 'Running', finished: 'Finished', cancelled: 'Cancelled' };
  const NEXT = { open_registration: 'Registration opens', close_registration: 'Registration closes', start: 'Starts',
    start_session: 'Next session', end_session: 'Session ends' };
  const id = Bac.pathId('tournament');
  let me = null;
  let view = null;
  let lastChips = {};

  // Chips are whole; money is in the tournament currency's own minor units (minor_units).
  const chips = (n) => Bac.fmtInt(n);
  let units = 2;
  const money = (n, cur) => (window.BacCurrency ? window.BacCurrency.format(n, units) : fmtMoney(n)) + (cur && cur !== 'XXX' ? ' ' + cur : '');
  const when = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? '' : d.toLocaleString(); };
  function playerEl(p, bots) {
    return [h('span', { class: 'player', 'data-player': p }, p), (bots || []).includes(p) ? h('span', { class: 'badge badge-bot', title: 'A house bot' }, 'bot') : null];
  }
  function gameName(g) { return { 'mbs-tournament': 'Baccarat Tournament (MBS)', 'rws-no-commission': 'Non-Commission Baccarat Tournament (RWS)', 'mbs-dragon': 'Dragon Baccarat Tournament (MBS)' }[g] || g; }

  // ---- /tournaments ------------------------------------------------------------------------
  async function index() {
    show($('#t-index'), true);
    try {
      const list = await api('GET', '/api/tournaments');
      show($('#t-index-status'), false);
      renderIndex(Array.isArray(list) ? list : []);
    } catch (e) {
      setText($('#t-index-status'), 'Cannot load the tournaments: retrying… (' + e.message + ')');
      show($('#t-index-status'), true);
    }
    setTimeout(index, 3000);
  }
  function renderIndex(list) {
    const box = $('#t-cards');
    box.textContent = '';
    if (!list.length) box.appendChild(h('p', { class: 'muted' }, 'No tournaments yet.'));
    for (const t of list) box.appendChild(card(t));
  }
  function card(t) {
    const c = t.config;
    units = t.minor_units;
    const st = t.state;
    return h('article', { class: 'panel t-card', 'data-tournament': t.id },
      h('a', { class: 'stretched', href: '/tournament/' + encodeURIComponent(t.id), 'aria-label': 'Open ' + t.name }),
      h('div', { class: 't-title' }, h('b', null, t.name), h('span', { class: 'badge', 'data-phase': t.phase }, PHASES[t.phase] || t.phase)),
      t.name.indexOf(gameName(t.game)) === 0 ? null : h('div', { class: 'muted' }, gameName(t.game)),
      h('div', null, (st.entrants || []).length + ' of ' + c.max_entrants + ' entrants · entry ' + money(c.entry_fee, c.currency) +
        ' · pool ' + money(st.pool.total, c.currency)),
      h('div', { class: 'muted' }, t.phase === 'registering' || t.phase === 'scheduled' ? 'Starts ' + when(c.start) : 'Round ' + st.round + ' of ' + c.rounds.length));
  }

  // ---- /tournament/{id} --------------------------------------------------------------------
  async function follow() {
    show($('#t-detail'), true);
    let after = null;
    for (;;) {
      try {
        const q = after === null ? '' : '?after=' + after;
        const v = await api('GET', '/api/tournaments/' + encodeURIComponent(id) + q);
        clock.syncHeader(api.lastDate);
        show($('#t-status'), false);
        render(v);
        after = v.seq;
      } catch (e) {
        setText($('#t-status'), e.status === 404 ? 'There is no tournament "' + id + '".' : 'Connection lost: retrying… (' + e.message + ')');
        show($('#t-status'), true);
        if (e.status === 404) return;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }
  async function refresh() {
    try { render(await api('GET', '/api/tournaments/' + encodeURIComponent(id))); } catch (e) { /* the poll carries on */ }
  }

  function render(v) {
    view = v;
    units = v.minor_units;
    document.title = v.name + ' · Baccarat';
    setText($('#t-name'), v.name);
    setText($('#t-sub'), gameName(v.game) + (v.config.dragon ? ' · Dragon bets on each session' : ''));
    setText($('#t-phase'), PHASES[v.phase] || v.phase);
    setAttr($('#t-phase'), 'data-phase', v.phase);
    setText($('#t-round'), v.state.round ? 'Round ' + v.state.round + ' of ' + v.config.rounds.length : '');
    renderMe(v);
    renderLeaderboard(v);
    renderTables(v);
    renderResults(v);
    renderRounds(v);
    renderSchedule(v);
    renderSessions(v);
    tick();
  }

  function renderMe(v) {
    const m = v.me;
    const box = $('#t-me');
    box.textContent = '';
    const signedIn = !!(me && me.role === 'player');
    show($('#t-register'), signedIn && v.phase === 'registering' && !(m && m.registered));
    show($('#t-unregister'), signedIn && (v.phase === 'registering' || v.phase === 'registration_closed') && !!(m && m.registered));
    show($('#t-rebuy'), signedIn && !!(m && m.can_rebuy));
    if (m) Bac.renderBalance($('#balance'), m.balance, v.config.currency === 'XXX' ? '' : v.config.currency, me);
    if (!signedIn) {
      box.appendChild(h('span', { class: 'muted' }, 'Open your sign-in link to register.'));
      return;
    }
    if (!m || !m.registered) {
      box.appendChild(h('span', { class: 'muted' }, v.phase === 'registering' ? 'Entry ' + money(v.config.entry_fee, v.config.currency) +
        ' from your balance; ' + chips(v.config.starting_chips) + ' chips to play.' : 'You are not in this tournament.'));
      return;
    }
    box.appendChild(h('span', { id: 't-me-registered' }, 'You are in (entry ' + m.entry + ').'));
    box.appendChild(h('span', null, 'Chips ', h('b', { id: 't-me-chips' }, chips(m.chips))));
    if (m.rank) box.appendChild(h('span', null, 'Rank ', h('b', { id: 't-me-rank' }, m.rank), ' of ' + v.state.leaderboard.length));
    if (m.eliminated) box.appendChild(h('span', { class: 'badge badge-warn' }, 'Eliminated'));
    else if (m.advances) box.appendChild(h('span', { class: 'badge badge-gold' }, 'In an advancing place'));
    if (m.busted && !m.eliminated) box.appendChild(h('span', { class: 'badge badge-warn' }, m.can_rebuy ? 'Busted: rebuy to play on' : 'Busted'));
    if (m.table_id) box.appendChild(h('a', { class: 'btn btn-gold', id: 't-my-table', href: '/table/' + encodeURIComponent(m.table_id) }, 'Play at your table →'));
    if (m.result) box.appendChild(h('span', { id: 't-me-result' }, 'Final place ' + m.result.rank + (m.result.prize ? ', prize ' + money(m.result.prize, v.config.currency) : '')));
  }

  function renderLeaderboard(v) {
    const body = $('#t-leaderboard tbody');
    body.textContent = '';
    const mine = me && me.id;
    const rows = v.state.leaderboard || [];
    if (!rows.length) {
      for (const e of v.state.entrants || []) {
        body.appendChild(h('tr', { 'data-player': e.player, class: e.player === mine ? 'me' : null },
          h('td', { class: 'num' }, e.entry), h('td', null, playerEl(e.player, v.bots)), h('td', { class: 'num' }, chips(v.config.starting_chips)), h('td'), h('td', { class: 'muted' }, 'registered')));
      }
      return;
    }
    const seen = {};
    for (const s of rows) {
      const moved = lastChips[s.player] !== undefined && lastChips[s.player] !== s.chips;
      seen[s.player] = s.chips;
      const status = s.eliminated ? 'eliminated' : s.busted ? (s.can_rebuy ? 'busted: may rebuy' : 'busted') : s.advances ? 'advances' : '';
      const cls = [s.player === mine ? 'me' : '', s.eliminated ? 'out' : '', moved ? 'moved' : ''].join(' ').trim() || null;
      body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.chips, 'data-rank': s.rank, class: cls },
        h('td', { class: 'num' }, s.rank), h('td', null, playerEl(s.player, v.bots)), h('td', { class: 'num' }, chips(s.chips)),
        h('td', null, s.table ? 'T' + s.table : ''), h('td', { class: 'muted' }, status)));
    }
    lastChips = seen;
  }

  function renderTables(v) {
    const box = $('#t-tables');
    box.textContent = '';
    if (!v.tables.length) {
      box.appendChild(h('p', { class: 'muted' }, v.phase === 'finished' || v.phase === 'cancelled' ? 'No tables: the tournament is over.' : 'Tables are drawn when the tournament starts.'));
      return;
    }
    for (const t of v.tables) {
      let state = t.finished ? 'finished the round' : t.live ? 'session ' + t.session + ' of ' + t.sessions + ' live' : t.session ? 'between sessions' : 'waiting for its first session';
      if (t.live && t.hands_left) state += ' · ' + t.hands_left + ' hands left';
      if (t.live && t.ends_at) state += ' · ends ' + when(t.ends_at);
      box.appendChild(h('div', { class: 't-table', 'data-table': t.table },
        h('b', null, 'Table ' + t.table),
        h('span', { class: 'grow' }, t.players.map((p, i) => [i ? ', ' : '', playerEl(p, v.bots)])),
        h('span', { class: 'muted' }, state),
        t.table_id && t.live ? h('a', { class: 'btn btn-sm', href: '/table/' + encodeURIComponent(t.table_id), 'data-table-id': t.table_id }, 'Open table') : null));
    }
  }

  function renderResults(v) {
    const rs = v.state.results || [];
    show($('#t-results-panel'), rs.length > 0);
    const body = $('#t-results tbody');
    body.textContent = '';
    for (const r of rs) {
      body.appendChild(h('tr', { 'data-player': r.player, class: me && r.player === me.id ? 'me' : null },
        h('td', { class: 'num' }, r.rank), h('td', null, playerEl(r.player, v.bots)), h('td', { class: 'num' }, chips(r.chips)),
        h('td', { class: 'num' }, r.prize ? money(r.prize, v.config.currency) : '')));
    }
  }

  // Who went on from each round: an entrant who reached round n+1 advanced from round n.
  function renderRounds(v) {
    const box = $('#t-rounds');
    box.textContent = '';
    v.config.rounds.forEach((r, i) => {
      const n = i + 1;
      const sessions = (r.sessions || []).map((s) => s.hands ? s.hands + ' hands' : s.duration).join(' + ');
      const adv = r.advance ? ' · top ' + r.advance + (r.advance_overall ? ' overall' : ' per table') + ' advance' : ' · the final';
      const went = (v.state.entrants || []).filter((e) => (e.reached || 0) > n).map((e) => e.player);
      const done = v.state.round > n || v.phase === 'finished';
      box.appendChild(h('div', { class: 't-round', 'data-round': n },
        h('b', null, (r.name || 'Round ' + n) + ': '), sessions, adv,
        done && r.advance ? h('div', { class: 'muted', 'data-advanced': n }, went.length ? ['Advanced: ', went.map((p, j) => [j ? ', ' : '', playerEl(p, v.bots)])] : 'Nobody advanced.') : null));
    });
  }

  function renderSchedule(v) {
    const c = v.config;
    const dl = $('#t-schedule');
    dl.textContent = '';
    const row = (k, val) => { dl.appendChild(h('dt', null, k)); dl.appendChild(h('dd', null, val)); };
    row('Game', gameName(c.game));
    row('Registration', when(c.registration_opens) + ' – ' + when(c.registration_closes));
    row('Start', when(c.start));
    row('Entry fee', money(c.entry_fee, c.currency) + (c.guarantee ? ' · guarantee ' + money(c.guarantee, c.currency) : ''));
    row('Entrants', (c.min_entrants || 2) + ' to ' + c.max_entrants + ', tables of ' + c.table_size);
    row('Chips', chips(c.starting_chips) + ' each, no cash value');
    row('Per hand', chips(c.stakes.min) + ' to ' + chips(c.stakes.max) + (c.stakes.required ? ' · a wager on every hand (the minimum on Banker if you place none)' : ''));
    if (c.break) row('Break', c.break + ' before each session');
    if (c.rebuy) row('Rebuy', 'up to ' + c.rebuy.max + ' × ' + chips(c.rebuy.chips) + ' chips for ' + money(c.rebuy.price, c.currency) + ' when busted');
    const pool = v.state.pool.total;
    row('Prizes', c.prizes.map((bp, i) => (i + 1) + ': ' + (bp / 100) + '%').join(' · ') + ' of the pool, ' + money(pool, c.currency) +
      ' (tied players share the places they hold)');
    if (v.bots.length) row('Bots', 'House bots fill the entries; they are marked "bot".');
  }

  function renderSessions(v) {
    const body = $('#t-sessions tbody');
    body.textContent = '';
    for (const s of v.state.sessions || []) {
      let start = 0, rebuys = 0, end = 0, net = 0;
      for (const seat of s.seats) { start += seat.start; rebuys += seat.rebuys; end += seat.end; net -= seat.net; }
      body.appendChild(h('tr', { 'data-session': s.round + '-' + s.table + '-' + s.session },
        h('td', null, s.round), h('td', null, s.table), h('td', null, s.session), h('td', { class: 'num' }, s.hands + (s.voided ? ' (+' + s.voided + ' void)' : '')),
        h('td', { class: 'num' }, chips(start)), h('td', { class: 'num' }, chips(rebuys)),
        h('td', { class: 'num' }, s.ended ? chips(end) : '…'), h('td', { class: 'num' }, chips(net)), h('td', { class: 'muted' }, s.ended ? s.reason : 'live')));
    }
  }

  function tick() {
    if (!view || !view.next) { setText($('#t-next'), ''); return; }
    const s = clock.secondsLeft(view.next.at);
    const what = NEXT[view.next.what] || view.next.what;
    setText($('#t-next'), s === null ? '' : ' ' + what + (view.next.table ? ' (table ' + view.next.table + ')' : '') + (s > 0 ? ' in ' + fmtDuration(s) : ' now'));
  }
  function fmtDuration(s) {
    s = Math.ceil(s);
    const m = Math.floor(s / 60);
    return m ? m + ' min ' + String(s % 60).padStart(2, '0') + ' s' : s + ' s';
  }

  function act(path, done) {
    return async () => {
      try {
        render(await api('POST', '/api/tournaments/' + encodeURIComponent(id) + '/' + path));
        toast(done);
      } catch (e) { toastError(e); }
    };
  }

  async function start() {
    me = await Bac.loadMe();
    Bac.renderWho($('#who'), me);
    Bac.renderBalance($('#balance'), me ? me.balance : null, me && me.currency, me);
    if (!id) { index(); return; }
    $('#t-register').addEventListener('click', act('register', 'You are registered.'));
    $('#t-unregister').addEventListener('click', act('unregister', 'Your entry is withdrawn and the fee refunded.'));
    $('#t-rebuy').addEventListener('click', act('rebuy', 'Rebought: your chips are at your table.'));
    setInterval(tick, 500);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
    follow();
  }
  start();
  window.BacTournament = { get view() { return view; } };
})(window.Bac);
