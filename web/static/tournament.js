/* tournament.js: the tournament pages. /tournaments lists every tournament (polled every
   3 s); /tournament/{id} shows one: the player's place and the register, unregister and
   rebuy buttons, the live leaderboard, each table with a link to the table that plays its
   session, advancement and prizes, the schedule and rules, and every session's chip account.
   It follows the tournament with GET /api/tournaments/{id}?after=SEQ, a long poll that
   answers when the tournament moves. Bots carry a "bot" badge wherever they are named. Every
   visible string goes through t() (keys tournament.*); it starts once the translations are in.
   Needs app.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, fmtMoney, toast, toastError, clock, t, tn } = Bac;
  // Keys written out whole, so that the translations test finds every one.
  const PHASES = { scheduled: 'tournament.phase.scheduled', registering: 'tournament.phase.registering',
    registration_closed: 'tournament.phase.registration_closed', running: 'tournament.phase.running',
    finished: 'tournament.phase.finished', cancelled: 'tournament.phase.cancelled' };
  const NEXT = { open_registration: 'tournament.next.open_registration', close_registration: 'tournament.next.close_registration',
    start: 'tournament.next.start', start_session: 'tournament.next.start_session', end_session: 'tournament.next.end_session' };
  const REASONS = { hands: 'tournament.reason.hands', time: 'tournament.reason.time', no_players: 'tournament.reason.no_players',
    ended: 'tournament.reason.ended' };
  const phaseName = (p) => (PHASES[p] ? t(PHASES[p]) : p);
  const id = Bac.pathId('tournament');
  let me = null;
  let view = null;
  let lastChips = {};

  // Chips are whole; money is in the tournament currency's own minor units (minor_units).
  const chips = (n) => Bac.fmtInt(n);
  let units = 2;
  const money = (n, cur) => (window.BacCurrency ? window.BacCurrency.format(n, units) : fmtMoney(n)) + (cur && cur !== 'XXX' ? ' ' + cur : '');
  const when = (iso) => Bac.fmtDate(iso);
  const timeOf = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(Bac.lang); };
  // Players are named by their public handle and shown by name (v.names: web/API.md, "Display
  // names"), never by account id; a handle without a name (a staff view's id) as it is.
  let names = {};
  const myself = () => (me ? (me.public && me.public.handle) || me.id : '');
  function nameOf(p) {
    const n = names[p];
    if (!n) return p;
    return n.name || (n.number ? t('name.player_n', { n: n.number }) : p);
  }
  function playerEl(p, bots) {
    return [h('span', { class: 'player', 'data-player': p }, nameOf(p)),
      (bots || []).includes(p) ? h('span', { class: 'badge badge-bot', title: t('tournament.bot_title') }, t('tournament.bot')) : null];
  }
  // The tournament games' English names: a demo tournament is named after its game, and its
  // card then leaves the game out. The page names a game by its id ('game.<id>').
  const GAMES = { 'mbs-tournament': 'Baccarat Tournament (MBS)', 'rws-no-commission': 'Non-Commission Baccarat Tournament (RWS)',
    'mbs-dragon': 'Dragon Baccarat Tournament (MBS)' };
  function gameName(g) { return Bac.gameName(g, GAMES[g]); }
  // A duration as the configuration writes it (Go's "1h30m0s") in words: "1 h 30 min".
  function fmtSpan(text) {
    const m = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:([\d.]+)s)?$/.exec(String(text || ''));
    if (!m || !text) return String(text || '');
    const parts = [];
    if (m[1]) parts.push(t('tournament.dur.hours', { n: Bac.fmtInt(m[1]) }));
    if (m[2] && m[2] !== '0') parts.push(t('tournament.dur.minutes', { n: Bac.fmtInt(m[2]) }));
    if (m[3] && Number(m[3]) > 0) parts.push(t('tournament.dur.seconds', { n: Bac.fmtDecimal(m[3]) }));
    return parts.join(' ') || t('tournament.dur.seconds', { n: 0 });
  }
  // A prize share in basis points: 3333 → "33.33%".
  function pct(bp) {
    const frac = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
    return Bac.fmtDecimal(String(Math.trunc(bp / 100)) + (frac ? '.' + frac : '')) + '%';
  }

  // ---- /tournaments ------------------------------------------------------------------------
  async function index() {
    show($('#t-index'), true);
    try {
      const list = await api('GET', '/api/tournaments');
      show($('#t-index-status'), false);
      renderIndex(Array.isArray(list) ? list : []);
    } catch (e) {
      setText($('#t-index-status'), t('tournament.cannot_load', { why: e.message }));
      show($('#t-index-status'), true);
    }
    setTimeout(index, 3000);
  }
  function renderIndex(list) {
    const box = $('#t-cards');
    box.textContent = '';
    if (!list.length) box.appendChild(h('p', { class: 'muted' }, t('tournament.none')));
    for (const x of list) box.appendChild(card(x));
  }
  function card(x) {
    const c = x.config;
    units = x.minor_units;
    const st = x.state;
    return h('article', { class: 'panel t-card', 'data-tournament': x.id },
      h('a', { class: 'stretched', href: '/tournament/' + encodeURIComponent(x.id), 'aria-label': t('tournament.open', { name: Bac.tournamentName(x) }) }),
      h('div', { class: 't-title' }, h('b', null, Bac.tournamentName(x)), h('span', { class: 'badge', 'data-phase': x.phase }, phaseName(x.phase))),
      x.name.indexOf(GAMES[x.game] || x.game) === 0 ? null : h('div', { class: 'muted' }, gameName(x.game)),
      h('div', null, t('tournament.card_line', { n: Bac.fmtInt((st.entrants || []).length), max: Bac.fmtInt(c.max_entrants),
        fee: money(c.entry_fee, c.currency), pool: money(st.pool.total, c.currency) })),
      h('div', { class: 'muted' }, x.phase === 'registering' || x.phase === 'scheduled' || x.phase === 'registration_closed' ? t('tournament.starts', { when: when(c.start) })
        : [t('tournament.round_of', { n: st.round, of: c.rounds.length }), ' · ', t('tournament.started', { when: when(c.start) })]));
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
        setText($('#t-status'), e.status === 404 ? t('tournament.missing', { id }) : t('tournament.lost', { why: e.message }));
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
    names = v.names || {};
    units = v.minor_units;
    document.title = Bac.tournamentName(v) + ' · Baccarat';
    setText($('#t-name'), Bac.tournamentName(v));
    setText($('#t-sub'), v.config.dragon ? t('tournament.sub_dragon', { game: gameName(v.game) }) : gameName(v.game));
    setText($('#t-phase'), phaseName(v.phase));
    setAttr($('#t-phase'), 'data-phase', v.phase);
    setText($('#t-round'), v.state.round ? t('tournament.round_of', { n: v.state.round, of: v.config.rounds.length }) : '');
    renderTrouble(v);
    renderMe(v);
    renderMoments(v);
    renderLeaderboard(v);
    renderTables(v);
    renderResults(v);
    renderRounds(v);
    renderSchedule(v);
    renderSessions(v);
    tick();
  }

  // A tournament being cancelled, or one that cannot go on, says so above everything.
  function renderTrouble(v) {
    const box = $('#t-trouble');
    let text = '';
    if (v.cancelling) text = t('tournament.cancelling', { why: v.cancelling });
    else if (v.problems && v.problems.length) text = t('tournament.problem', { what: v.problems[0].what, when: when(v.problems[0].since) });
    setText(box, text);
    show(box, !!text);
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
      box.appendChild(h('span', { class: 'muted' }, t('tournament.signin')));
      return;
    }
    if (!m || !m.registered) {
      box.appendChild(h('span', { class: 'muted' }, v.phase === 'registering'
        ? t('tournament.entry_offer', { fee: money(v.config.entry_fee, v.config.currency), chips: chips(v.config.starting_chips) })
        : t('tournament.not_in')));
      return;
    }
    const out = !!(m.out || m.eliminated || (m.result && isOutResult(v, m.result)));
    if (out) {
      const place = m.result ? m.result.rank : m.place;
      const of = m.of || (v.state.entrants || []).length;
      box.appendChild(h('span', { id: 't-me-out', 'data-place': place || null }, place
        ? t('tournament.moment.out', { place, n: of }) : t('tournament.me.eliminated')));
    } else {
      box.appendChild(h('span', { id: 't-me-registered' }, t('tournament.you_are_in', { n: m.entry })));
    }
    // Before the start the chips are the starting chips, and when play starts.
    const started = !!v.state.round;
    box.appendChild(h('span', null, t('tournament.me.chips') + ' ', h('b', { id: 't-me-chips' }, chips(started ? m.chips : v.config.starting_chips)),
      started ? null : h('span', { class: 'muted', id: 't-me-starts' }, ' · ' + t('tournament.starts', { when: when(v.config.start) }))));
    if (m.rank && !out) {
      box.appendChild(h('span', null, t('tournament.me.rank') + ' ', h('b', { id: 't-me-rank' }, m.rank),
        t('tournament.me.of', { n: v.state.leaderboard.length })));
    }
    if (out) box.appendChild(h('span', { class: 'badge badge-warn' }, t('tournament.me.eliminated')));
    else if (m.advances) box.appendChild(h('span', { class: 'badge badge-gold' }, t('tournament.me.advancing')));
    if (m.busted && !out) box.appendChild(h('span', { class: 'badge badge-warn' }, t(m.can_rebuy ? 'tournament.me.busted_rebuy' : 'tournament.me.busted')));
    if (m.table_id && !out) box.appendChild(h('a', { class: 'btn btn-gold', id: 't-my-table', href: '/table/' + encodeURIComponent(m.table_id) }, t('tournament.me.play')));
    if (m.result) {
      box.appendChild(h('span', { id: 't-me-result' }, m.result.prize
        ? t('tournament.me.final_prize', { n: m.result.rank, prize: money(m.result.prize, v.config.currency) })
        : t('tournament.me.final', { n: m.result.rank })));
    }
  }

  // A standing's state in a word: eliminated, busted (may rebuy), advances.
  function standingText(s) {
    const o = s.eliminated && view && (view.out || []).find((x) => x.player === s.player);
    if (o) return t('tournament.status.out_place', { place: o.place, n: o.of });
    if (s.eliminated) return t('tournament.status.eliminated');
    if (s.busted) return t(s.can_rebuy ? 'tournament.status.busted_rebuy' : 'tournament.status.busted');
    return s.advances ? t('tournament.status.advances') : '';
  }

  function renderLeaderboard(v) {
    const body = $('#t-leaderboard tbody');
    body.textContent = '';
    const mine = myself();
    const rows = v.state.leaderboard || [];
    if (!rows.length) {
      for (const e of v.state.entrants || []) {
        body.appendChild(h('tr', { 'data-player': e.player, class: e.player === mine ? 'me' : null },
          h('td', { class: 'num' }, e.entry), h('td', null, playerEl(e.player, v.bots)), h('td', { class: 'num' }, chips(v.config.starting_chips)),
          h('td'), h('td', { class: 'muted' }, t('tournament.status.registered'))));
      }
      return;
    }
    const seen = {};
    for (const s of rows) {
      const moved = lastChips[s.player] !== undefined && lastChips[s.player] !== s.chips;
      seen[s.player] = s.chips;
      const cls = [s.player === mine ? 'me' : '', s.eliminated ? 'out' : '', moved ? 'moved' : ''].join(' ').trim() || null;
      body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.chips, 'data-rank': s.rank, class: cls },
        h('td', { class: 'num' }, s.rank), h('td', null, playerEl(s.player, v.bots)), h('td', { class: 'num' }, chips(s.chips)),
        h('td', null, s.table ? t('tournament.table_short', { n: s.table }) : ''), h('td', { class: 'muted' }, standingText(s))));
    }
    // Those out of the tournament stay listed below, marked out, with their place.
    const inRows = new Set(rows.map((s) => s.player));
    for (const o of v.out || []) {
      if (inRows.has(o.player)) continue;
      body.appendChild(h('tr', { 'data-player': o.player, 'data-chips': o.chips, 'data-out': 'true', 'data-place': o.place,
        class: (o.player === mine ? 'me ' : '') + 'out' },
        h('td', { class: 'num' }, o.place), h('td', null, playerEl(o.player, v.bots)), h('td', { class: 'num' }, chips(o.chips)),
        h('td', null, t('tournament.round_short', { n: o.round })), h('td', { class: 'muted' }, t('tournament.status.out_place', { place: o.place, n: o.of }))));
    }
    lastChips = seen;
  }

  // A result that puts its player out before the end: eliminated, or not in the last round played.
  function isOutResult(v, r) {
    return !!r.eliminated || r.round < v.state.round || (v.out || []).some((o) => o.player === r.player);
  }

  // ---- the player's moments -------------------------------------------------------------
  // What happened to the player, kept on the page (it follows from the tournament's state):
  // each round they advanced to (the final by name), in the final, out with their place, the
  // final place and the prize. A moment the player has not seen before (kept per tournament in
  // localStorage) is announced with a toast when it appears.
  function momentsOf(v) {
    const m = v.me;
    const list = [];
    if (!m || !m.registered || !v.state.round) return list;
    const rounds = v.config.rounds.length;
    for (let n = 2; n <= (m.reached || 0) && n <= rounds; n++) {
      list.push(n === rounds ? { id: 'advanced-final', text: t('tournament.moment.advanced_final') }
        : { id: 'advanced-' + n, text: t('tournament.moment.advanced', { n }) });
    }
    const r = m.result;
    if (v.phase === 'running' && !m.out && !m.eliminated && rounds > 1 && m.reached === rounds) {
      list.push({ id: 'in-final', text: t('tournament.moment.in_final') });
    }
    if (r && isOutResult(v, r)) list.push({ id: 'out', text: t('tournament.moment.out', { place: r.rank, n: (v.state.entrants || []).length }), out: true });
    else if (r) list.push({ id: 'finished', text: t('tournament.moment.finished', { place: r.rank, n: (v.state.entrants || []).length }) });
    else if (m.out || m.eliminated) list.push({ id: 'out', text: m.place ? t('tournament.moment.out', { place: m.place, n: m.of }) : t('tournament.me.eliminated'), out: true });
    if (r && r.prize) list.push({ id: 'prize', text: t('tournament.moment.prize', { prize: money(r.prize, v.config.currency) }), prize: true });
    return list;
  }
  const MOMENTS_KEY = 'baccarat.moments.';
  function renderMoments(v) {
    const box = $('#t-moments');
    const list = momentsOf(v);
    box.textContent = '';
    show(box, list.length > 0);
    if (!list.length) return;
    const key = MOMENTS_KEY + id + '.' + (v.me && v.me.player);
    let seen = [];
    try { seen = JSON.parse(localStorage.getItem(key) || '[]') || []; } catch (e) { seen = []; }
    for (const x of list) {
      const fresh = !seen.includes(x.id);
      box.appendChild(h('li', { class: 't-moment' + (x.out ? ' out' : '') + (x.prize ? ' prize' : '') + (fresh ? ' fresh' : ''), 'data-moment': x.id }, x.text));
      if (fresh) toast(x.text);
    }
    try { localStorage.setItem(key, JSON.stringify(list.map((x) => x.id))); } catch (e) { /* ignore */ }
  }

  // A table's session in words: live (n of m, hands left or its end), between sessions, done.
  function tableState(x) {
    if (x.finished) return t('tournament.table.finished');
    if (!x.live) return t(x.session ? 'tournament.table.between' : 'tournament.table.waiting');
    let s = t('tournament.table.live', { n: x.session, of: x.sessions });
    if (x.hands_left) s += ' · ' + tn('tournament.hands_left', x.hands_left);
    if (x.ends_at) s += ' · ' + t('tournament.table.ends', { time: timeOf(x.ends_at) });
    return s;
  }

  function renderTables(v) {
    const box = $('#t-tables');
    box.textContent = '';
    if (!v.tables.length) {
      box.appendChild(h('p', { class: 'muted' }, t(v.phase === 'finished' || v.phase === 'cancelled' ? 'tournament.no_tables_over' : 'tournament.no_tables_yet')));
      return;
    }
    for (const x of v.tables) {
      box.appendChild(h('div', { class: 't-table', 'data-table': x.table },
        h('b', null, t('tournament.table_n', { n: x.table })),
        h('span', { class: 'grow' }, x.players.map((p, i) => [i ? t('tournament.list_sep') : '', playerEl(p, v.bots)])),
        h('span', { class: 'muted' }, tableState(x)),
        x.table_id && x.live ? h('a', { class: 'btn btn-sm', href: '/table/' + encodeURIComponent(x.table_id), 'data-table-id': x.table_id }, t('tournament.open_table')) : null));
    }
  }

  function renderResults(v) {
    const rs = v.state.results || [];
    show($('#t-results-panel'), rs.length > 0);
    const body = $('#t-results tbody');
    body.textContent = '';
    for (const r of rs) {
      body.appendChild(h('tr', { 'data-player': r.player, class: me && r.player === myself() ? 'me' : null },
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
      const sessions = (r.sessions || []).map((s) => (s.hands ? tn('tournament.hands', s.hands) : fmtSpan(s.duration))).join(' + ');
      const adv = ' · ' + (r.advance ? t(r.advance_overall ? 'tournament.advance_overall' : 'tournament.advance_per_table', { n: r.advance }) : t('tournament.final'));
      const went = (v.state.entrants || []).filter((e) => (e.reached || 0) > n).map((e) => e.player);
      const done = v.state.round > n || v.phase === 'finished';
      box.appendChild(h('div', { class: 't-round', 'data-round': n },
        h('b', null, t('tournament.round_name', { name: Bac.nameOf(r, t('tournament.round_n', { n })) })), sessions, adv,
        done && r.advance ? h('div', { class: 'muted', 'data-advanced': n }, went.length
          ? [t('tournament.advanced'), went.map((p, j) => [j ? t('tournament.list_sep') : '', playerEl(p, v.bots)])]
          : t('tournament.nobody_advanced')) : null));
    });
  }

  function renderSchedule(v) {
    const c = v.config;
    const dl = $('#t-schedule');
    dl.textContent = '';
    const row = (k, val) => { dl.appendChild(h('dt', null, t(k))); dl.appendChild(h('dd', null, val)); };
    row('tournament.fact.game', gameName(c.game));
    row('tournament.fact.registration', when(c.registration_opens) + ' – ' + when(c.registration_closes));
    row('tournament.fact.start', when(c.start));
    row('tournament.fact.entry_fee', money(c.entry_fee, c.currency) + (c.guarantee ? t('tournament.fact.guarantee', { amount: money(c.guarantee, c.currency) }) : ''));
    row('tournament.fact.entrants', t('tournament.fact.entrants_text', { min: c.min_entrants || 2, max: c.max_entrants, size: c.table_size }));
    row('tournament.fact.chips', t('tournament.fact.chips_text', { n: chips(c.starting_chips) }));
    row('tournament.fact.per_hand', t('tournament.fact.per_hand_text', { min: chips(c.stakes.min), max: chips(c.stakes.max) }) +
      (c.stakes.required ? t('tournament.fact.required') : ''));
    if (c.break) row('tournament.fact.break', t('tournament.fact.break_text', { span: fmtSpan(c.break) }));
    if (c.rebuy) {
      row('tournament.fact.rebuy', t('tournament.fact.rebuy_text', { max: c.rebuy.max, chips: chips(c.rebuy.chips), price: money(c.rebuy.price, c.currency) }));
    }
    const shares = c.prizes.map((bp, i) => t('tournament.fact.share', { place: i + 1, pct: pct(bp) })).join(' · ');
    row('tournament.fact.prizes', t('tournament.fact.prizes_text', { shares, pool: money(v.state.pool.total, c.currency) }));
    if (v.bots.length) row('tournament.fact.bots', t('tournament.fact.bots_text', { bot: t('tournament.bot') }));
    const st = v.state;
    if (st.commitment) {
      // The hashes are data, not words: each in a code element of its own.
      const value = (key, v) => [' ', t(key), ' ', h('code', { class: 'hash' }, String(v))];
      const fair = h('span', { id: 't-fair', 'data-commitment': st.commitment, 'data-secret': st.secret || null },
        st.secret ? t('tournament.fact.fair_revealed') : t('tournament.fact.fair_text'),
        value('tournament.fact.fair_commitment', st.commitment),
        st.secret ? [value('tournament.fact.fair_seed', st.seed), value('tournament.fact.fair_secret', st.secret)] : null);
      row('tournament.fact.fair', fair);
    }
  }

  function renderSessions(v) {
    const body = $('#t-sessions tbody');
    body.textContent = '';
    for (const s of v.state.sessions || []) {
      let start = 0, rebuys = 0, end = 0, net = 0;
      for (const seat of s.seats) { start += seat.start; rebuys += seat.rebuys; end += seat.end; net -= seat.net; }
      const ended = s.ended ? (REASONS[s.reason] ? t(REASONS[s.reason]) : s.reason) : t('tournament.session_live');
      body.appendChild(h('tr', { 'data-session': s.round + '-' + s.table + '-' + s.session },
        h('td', null, s.round), h('td', null, s.table), h('td', null, s.session),
        h('td', { class: 'num' }, Bac.fmtInt(s.hands) + (s.voided ? t('tournament.voided', { n: s.voided }) : '')),
        h('td', { class: 'num' }, chips(start)), h('td', { class: 'num' }, chips(rebuys)),
        h('td', { class: 'num' }, s.ended ? chips(end) : '…'), h('td', { class: 'num' }, chips(net)), h('td', { class: 'muted' }, ended)));
    }
  }

  function tick() {
    if (!view || !view.next) { setText($('#t-next'), ''); return; }
    const s = clock.secondsLeft(view.next.at);
    if (s === null) { setText($('#t-next'), ''); return; }
    let what = NEXT[view.next.what] ? t(NEXT[view.next.what]) : view.next.what;
    if (view.next.table) what = t('tournament.next.at_table', { what, n: view.next.table });
    setText($('#t-next'), ' ' + (s > 0 ? t('tournament.next.in', { what, time: fmtCountdown(s) }) : t('tournament.next.now', { what })));
  }
  function fmtCountdown(s) {
    s = Math.ceil(s);
    const m = Math.floor(s / 60);
    return m ? t('tournament.dur.min_s', { m: Bac.fmtInt(m), s: String(s % 60).padStart(2, '0') }) : t('tournament.dur.seconds', { n: s });
  }

  function act(path, done) {
    return async () => {
      try {
        render(await api('POST', '/api/tournaments/' + encodeURIComponent(id) + '/' + path));
        toast(t(done));
      } catch (e) { toastError(e); }
    };
  }

  async function start() {
    me = await Bac.loadMe();
    Bac.renderWho($('#who'), me);
    Bac.renderBalance($('#balance'), me ? me.balance : null, me && me.currency, me);
    if (!id) { index(); return; }
    $('#t-register').addEventListener('click', act('register', 'tournament.done.register'));
    $('#t-unregister').addEventListener('click', act('unregister', 'tournament.done.unregister'));
    $('#t-rebuy').addEventListener('click', act('rebuy', 'tournament.done.rebuy'));
    setInterval(tick, 500);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
    follow();
  }
  start();
  window.BacTournament = { get view() { return view; } };
})(window.Bac));
