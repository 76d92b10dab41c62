/* lobby-tournaments.js: what the lobby adds for tournaments (lobby.html includes it after
   lobby.js). Above the tables, the tournaments open for registration or under way, each
   linking to its page (polled every 3 s); on the tables' cards, a "Tournament" badge on a
   table that plays a tournament's session, and on a tournament game's cash table the exact
   player edge of its bets ("player_edge" in GET /api/tables). Every visible string goes
   through t() (keys tournament.*); it starts once the translations are in. Needs app.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, fmtMoney, clock, t, tn } = Bac;
  // The phases listed (keys written out whole, so that the translations test finds them).
  const PHASES = { scheduled: 'tournament.phase.scheduled', registering: 'tournament.phase.registering',
    registration_closed: 'tournament.phase.registration_closed', running: 'tournament.phase.running' };
  document.head.appendChild(h('link', { rel: 'stylesheet', href: '/static/tournament.css' }));
  const main = $('main.lobby');
  if (!main) return;
  const cards = h('div', { class: 't-grid', id: 'lobby-t-cards' });
  const section = h('section', { class: 'panel lobby-tournaments', id: 'lobby-tournaments', 'aria-label': t('tournament.title') },
    h('h2', null, t('tournament.title'), h('span', { class: 'spacer' }), h('a', { href: '/tournaments', id: 'all-tournaments' }, t('tournament.lobby.all'))), cards);
  main.insertBefore(section, main.firstChild);

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

  function renderTournaments(list) {
    cards.textContent = '';
    const open = list.filter((x) => PHASES[x.phase]).slice(0, 6);
    if (!open.length) cards.appendChild(h('p', { class: 'muted' }, t('tournament.lobby.none')));
    for (const x of open) {
      const c = x.config;
      cards.appendChild(h('article', { class: 't-card', 'data-tournament': x.id },
        h('a', { class: 'stretched', href: '/tournament/' + encodeURIComponent(x.id), 'aria-label': t('tournament.open', { name: x.name }) }),
        h('b', null, x.name),
        h('span', { class: 'muted' }, t(PHASES[x.phase]) + ' · ' + (x.phase === 'registering' ? startsIn(c.start) : t('tournament.lobby.round', { n: x.state.round }))),
        h('span', null, t('tournament.lobby.line', { n: Bac.fmtInt((x.state.entrants || []).length), max: Bac.fmtInt(c.max_entrants),
          fee: money(c.entry_fee, x), pool: money(x.state.pool.total, x) }))));
    }
  }

  // "+1.2351%" with the language's decimal sign.
  function edgeText(s) {
    const m = /^([+-]?)(\d+(?:\.\d+)?)%$/.exec(String(s || ''));
    return m ? m[1] + Bac.fmtDecimal(m[2]) + '%' : String(s || '');
  }

  function decorate(tables) {
    for (const x of tables) {
      const card = document.querySelector('[data-table="' + CSS.escape(x.id) + '"]');
      if (!card) continue;
      if (x.tournament && !card.querySelector('.tc-tournament')) {
        const row = card.querySelector('.tc-head') || card;
        const s = x.tournament;
        row.appendChild(h('a', { class: 'badge badge-gold tc-tournament', href: '/tournament/' + encodeURIComponent(s.tournament),
          title: t('tournament.lobby.badge_title', { round: s.round, table: s.table, session: s.session }) }, t('tournament.lobby.badge')));
      }
      if (x.player_edge && !card.querySelector('.tc-edge')) {
        const edges = x.player_edge.map((e) => Bac.betName(null, e.bet) + ' ' + edgeText(e.player_edge) +
          (e.hands ? ' ' + tn('tournament.lobby.over_hands', e.hands) : '')).join(' · ');
        card.appendChild(h('div', { class: 'tc-edge', 'data-player-edge': x.id, title: t('tournament.lobby.edge_title') },
          t('tournament.lobby.edge', { edges })));
      }
    }
  }

  async function poll() {
    try { renderTournaments(await api('GET', '/api/tournaments') || []); } catch (e) { /* next time */ }
    try { decorate(await api('GET', '/api/tables') || []); } catch (e) { /* next time */ }
    setTimeout(poll, 3000);
  }
  poll();
})(window.Bac));
