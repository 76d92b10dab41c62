/* lobby-tournaments.js: the lobby's Tournaments tab (lobby.html includes it after lobby.js; the
   tab's panel is #lobby-tournaments). Every tournament from GET /api/tournaments (polled every
   3 s), each linking to its page: the running ones first, then the ones to come (the soonest
   first), then the last three finished or cancelled, newest first, with a button for all of
   them. A card counts the players with the house's bots among them ("6 players (2 bots)") and
   lists the tables of its sessions, one line each (table and session, phase, round, a Watch or
   Play link): those of the running round open, the others under a fold. The session tables come
   from lobby.js's read of GET /api/tables (the "lobby:tables" event): they are not cash tables
   and have no card of their own. On a tournament game's cash table's card it writes the exact
   player edge of its bets ("player_edge"). Every visible string goes through t() (keys
   tournament.*); it starts once the translations are in. Needs app.js and lobby.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, fmtMoney, clock, t, tn } = Bac;
  // The phases (keys written out whole, so that the translations test finds them).
  const PHASES = { scheduled: 'tournament.phase.scheduled', registering: 'tournament.phase.registering',
    registration_closed: 'tournament.phase.registration_closed', running: 'tournament.phase.running',
    finished: 'tournament.phase.finished', cancelled: 'tournament.phase.cancelled' };
  // Running first, then the ones to come; any other phase has ended.
  const ACTIVE = { running: 0, registration_closed: 1, registering: 2, scheduled: 3 };
  const TABLE_PHASES = { idle: 'phase.idle_short', betting: 'phase.betting', closed: 'phase.closed', dealing: 'phase.dealing',
    settled: 'phase.settled', void: 'phase.void' };
  const ENDED_SHOWN = 3; // finished tournaments shown until the player asks for all
  document.head.appendChild(h('link', { rel: 'stylesheet', href: '/static/tournament.css' }));
  const section = $('#lobby-tournaments');
  const grid = $('#lobby-t-cards');
  const more = $('#lobby-t-more');
  if (!section || !grid) return;

  let tournaments = null; // the last GET /api/tournaments
  let tables = []; // the last GET /api/tables
  let allEnded = false; // "show all finished"
  const opened = new Set(); // tournaments whose fold of session tables the player opened
  const shown = new Map(); // tournament id → {el, html}
  let noneEl = null;

  more.addEventListener('click', () => { allEnded = !allEnded; render(); });

  // Money in the tournament currency's own decimals, with its sign (none for play money).
  function money(n, x) {
    return window.BacCurrency ? window.BacCurrency.money(n, x.minor_units, (x.config && x.config.currency) || '') : fmtMoney(n);
  }

  function startsIn(iso) {
    const s = clock.secondsLeft(iso);
    if (s === null) return '';
    if (s <= 0) return t('tournament.lobby.starting');
    const m = Math.floor(s / 60);
    const secs = Math.ceil(s % 60);
    return t('tournament.lobby.starts_in', { time: m ? t('tournament.dur.min_s', { m: Bac.fmtInt(m), s: secs }) : t('tournament.dur.seconds', { n: secs }) });
  }

  const startOf = (x) => Date.parse((x.config && x.config.start) || '') || 0;
  const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

  function meId() {
    const me = window.BacLobby && window.BacLobby.me && window.BacLobby.me();
    return me && me.role === 'player' ? (me.public && me.public.handle) || me.id : ''; // the tables name players by handle
  }

  // One session table, one line: table and session, phase, round, Watch (or Play, at the
  // player's own table of a running tournament).
  function sessionLine(tv, x, me) {
    const s = tv.tournament || {};
    const mine = !!me && x.phase === 'running' && (s.players || []).includes(me);
    const name = t('tournament.lobby.session_table', { table: s.table, session: s.session });
    return h('li', { class: 'ts-line', 'data-session-table': tv.id, 'data-phase': tv.phase,
      title: t('tournament.lobby.badge_title', { round: s.round, table: s.table, session: s.session }) },
    h('span', { class: 'ts-name' }, name),
    h('span', { class: 'ts-phase', 'data-phase': tv.phase }, TABLE_PHASES[tv.phase] ? t(TABLE_PHASES[tv.phase]) : tv.phase || ''),
    tv.round ? h('span', { class: 'ts-round' }, t('lobby.round', { n: tv.round })) : null,
    h('a', { class: 'ts-link', href: '/table/' + encodeURIComponent(tv.id), 'data-play': mine ? 'true' : null,
      'aria-label': t(mine ? 'tournament.lobby.play_aria' : 'tournament.lobby.watch_aria', { table: name }) },
    t(mine ? 'tournament.lobby.play' : 'tournament.lobby.watch')));
  }

  function card(x, sessions, me) {
    const c = x.config || {};
    const st = x.state || {};
    const entrants = st.entrants || [];
    const bots = Array.isArray(x.bots) ? x.bots.length : entrants.filter((e) => e.bot).length;
    const when = x.phase === 'running' ? t('tournament.lobby.round', { n: st.round })
      : ACTIVE[x.phase] !== undefined ? startsIn(c.start) : '';
    // The running round's tables open; earlier sessions (and an ended tournament's) folded.
    const current = new Set(x.phase === 'running' ? (x.tables || []).map((tt) => tt.table_id).filter(Boolean) : []);
    const now = sessions.filter((tv) => current.has(tv.id));
    const earlier = sessions.filter((tv) => !current.has(tv.id));
    const el = h('article', { class: 't-card tl-card', 'data-tournament': x.id, 'data-phase': x.phase },
      h('a', { class: 'stretched', href: '/tournament/' + encodeURIComponent(x.id), 'aria-label': t('tournament.open', { name: Bac.tournamentName(x) }) }),
      h('b', { class: 'tl-name', title: Bac.tournamentName(x) }, Bac.tournamentName(x)),
      h('span', { class: 'tl-when' }, h('span', { class: 'tl-phase', 'data-phase': x.phase }, PHASES[x.phase] ? t(PHASES[x.phase]) : x.phase),
        when ? ' · ' + when : ''),
      h('span', { class: 'tl-players', 'data-players': entrants.length, 'data-bots': bots },
        tn('tournament.lobby.players', entrants.length) + (bots ? ' ' + tn('tournament.lobby.bots', bots) : '')),
      h('span', { class: 'tl-facts' }, t('tournament.lobby.facts', { max: Bac.fmtInt(c.max_entrants || 0),
        fee: money(c.entry_fee || 0, x), pool: money((st.pool && st.pool.total) || 0, x) })),
      now.length ? h('ul', { class: 'ts-list', 'data-sessions': 'current' }, now.map((tv) => sessionLine(tv, x, me))) : null,
      earlier.length ? h('details', { class: 'ts-more', 'data-sessions': 'earlier', open: opened.has(x.id) },
        h('summary', null, tn(now.length ? 'tournament.lobby.earlier' : 'tournament.lobby.session_tables', earlier.length)),
        h('ul', { class: 'ts-list' }, earlier.map((tv) => sessionLine(tv, x, me)))) : null);
    return el;
  }

  function render() {
    if (!tournaments) return;
    const me = meId();
    // Session tables by tournament, the latest round first, then by table and session.
    const byT = new Map();
    for (const tv of tables) {
      const s = tv.tournament;
      if (!s || !s.tournament) continue;
      if (!byT.has(s.tournament)) byT.set(s.tournament, []);
      byT.get(s.tournament).push(tv);
    }
    for (const list of byT.values()) {
      list.sort((a, b) => (b.tournament.round - a.tournament.round) || (a.tournament.table - b.tournament.table) ||
        (b.tournament.session - a.tournament.session));
    }
    const active = tournaments.filter((x) => ACTIVE[x.phase] !== undefined)
      .sort((a, b) => (ACTIVE[a.phase] - ACTIVE[b.phase]) || (startOf(a) - startOf(b)) || byId(a, b));
    const ended = tournaments.filter((x) => ACTIVE[x.phase] === undefined)
      .sort((a, b) => (startOf(b) - startOf(a)) || byId(a, b));
    const list = active.concat(allEnded ? ended : ended.slice(0, ENDED_SHOWN));

    Bac.setText($('#lobby-n-tournaments'), Bac.fmtInt(active.length));
    if (!active.length) {
      if (!noneEl) noneEl = h('p', { class: 'muted tl-none' }, t('tournament.lobby.none'));
      if (grid.firstChild !== noneEl) grid.insertBefore(noneEl, grid.firstChild);
    } else if (noneEl) {
      noneEl.remove();
      noneEl = null;
    }
    const offset = noneEl ? 1 : 0;
    const seen = new Set();
    list.forEach((x, i) => {
      seen.add(x.id);
      const fresh = card(x, byT.get(x.id) || [], me);
      const html = fresh.outerHTML;
      let s = shown.get(x.id);
      if (!s || s.html !== html) {
        if (s) s.el.replaceWith(fresh);
        s = { el: fresh, html };
        shown.set(x.id, s);
        const d = fresh.querySelector('details');
        if (d) d.addEventListener('toggle', () => { if (d.open) opened.add(x.id); else opened.delete(x.id); });
      }
      if (grid.children[i + offset] !== s.el) grid.insertBefore(s.el, grid.children[i + offset] || null);
    });
    for (const [id, s] of shown) {
      if (!seen.has(id)) { s.el.remove(); shown.delete(id); }
    }
    Bac.show(more, ended.length > ENDED_SHOWN);
    Bac.setText(more, allEnded ? t('tournament.lobby.fewer_finished') : t('tournament.lobby.all_finished', { n: Bac.fmtInt(ended.length) }));
    more.setAttribute('aria-expanded', allEnded ? 'true' : 'false');
  }

  // "+1.2351%" with the language's decimal sign.
  function edgeText(s) {
    const m = /^([+-]?)(\d+(?:\.\d+)?)%$/.exec(String(s || ''));
    return m ? m[1] + Bac.fmtDecimal(m[2]) + '%' : String(s || '');
  }

  // A tournament game's cash table: its bets' exact player edge on its card.
  function decorate(list) {
    for (const x of list) {
      if (!x.player_edge) continue;
      const el = document.querySelector('#tables [data-table="' + CSS.escape(x.id) + '"]');
      if (!el || el.querySelector('.tc-edge')) continue;
      const edges = x.player_edge.map((e) => Bac.betName(null, e.bet) + ' ' + edgeText(e.player_edge) +
        (e.hands ? ' ' + tn('tournament.lobby.over_hands', e.hands) : '')).join(' · ');
      el.appendChild(h('div', { class: 'tc-edge', 'data-player-edge': x.id, title: t('tournament.lobby.edge_title') },
        t('tournament.lobby.edge', { edges })));
    }
  }

  document.addEventListener('lobby:tables', (e) => {
    tables = Array.isArray(e.detail) ? e.detail : [];
    decorate(tables);
    render();
  });

  async function poll() {
    try {
      const list = await api('GET', '/api/tournaments');
      tournaments = Array.isArray(list) ? list : [];
      render();
    } catch (e) { /* next time */ }
    setTimeout(poll, 3000);
  }
  poll();
})(window.Bac));
