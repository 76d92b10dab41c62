/* lobby-tournaments.js: what the lobby adds for tournaments (lobby.html includes it after
   lobby.js). Above the tables, the tournaments open for registration or under way, each
   linking to its page (polled every 3 s); on the tables' cards, a "Tournament" badge on a
   table that plays a tournament's session, and on a tournament game's cash table the exact
   player edge of its bets ("player_edge" in GET /api/tables). Needs app.js. */
'use strict';
(function (Bac) {
  const { api, h, $, fmtMoney, clock } = Bac;
  const PHASES = { scheduled: 'Scheduled', registering: 'Registration open', registration_closed: 'Registration closed', running: 'Running' };
  document.head.appendChild(h('link', { rel: 'stylesheet', href: '/static/tournament.css' }));
  const main = $('main.lobby');
  if (!main) return;
  const cards = h('div', { class: 't-grid', id: 'lobby-t-cards' });
  const section = h('section', { class: 'panel lobby-tournaments', id: 'lobby-tournaments', 'aria-label': 'Tournaments' },
    h('h2', null, 'Tournaments', h('span', { class: 'spacer' }), h('a', { href: '/tournaments', id: 'all-tournaments' }, 'All tournaments →')), cards);
  main.insertBefore(section, main.firstChild);

  // Money in the tournament currency's own decimals.
  function money(n, t) {
    return window.BacCurrency ? window.BacCurrency.format(n, t.minor_units) : fmtMoney(n);
  }

  function startsIn(iso) {
    const s = clock.secondsLeft(iso);
    if (s === null) return '';
    if (s <= 0) return 'starting';
    const m = Math.floor(s / 60);
    return 'starts in ' + (m ? m + ' min ' : '') + Math.ceil(s % 60) + ' s';
  }

  function renderTournaments(list) {
    cards.textContent = '';
    const open = list.filter((t) => PHASES[t.phase]).slice(0, 6);
    if (!open.length) cards.appendChild(h('p', { class: 'muted' }, 'No tournament is open now.'));
    for (const t of open) {
      const c = t.config;
      cards.appendChild(h('article', { class: 't-card', 'data-tournament': t.id },
        h('a', { class: 'stretched', href: '/tournament/' + encodeURIComponent(t.id), 'aria-label': 'Open ' + t.name }),
        h('b', null, t.name),
        h('span', { class: 'muted' }, (PHASES[t.phase] || t.phase) + (t.phase === 'registering' ? ' · ' + startsIn(c.start) : ' · round ' + t.state.round)),
        h('span', null, (t.state.entrants || []).length + ' of ' + c.max_entrants + ' · entry ' + money(c.entry_fee, t) + ' · pool ' + money(t.state.pool.total, t))));
    }
  }

  function decorate(tables) {
    for (const t of tables) {
      const card = document.querySelector('[data-table="' + CSS.escape(t.id) + '"]');
      if (!card) continue;
      if (t.tournament && !card.querySelector('.tc-tournament')) {
        const row = card.querySelector('.tc-head') || card;
        row.appendChild(h('a', { class: 'badge badge-gold tc-tournament', href: '/tournament/' + encodeURIComponent(t.tournament.tournament),
          title: 'Round ' + t.tournament.round + ', table ' + t.tournament.table + ', session ' + t.tournament.session }, 'Tournament'));
      }
      if (t.player_edge && !card.querySelector('.tc-edge')) {
        const edges = t.player_edge.map((e) => e.bet + ' ' + e.player_edge + (e.hands ? ' (' + e.hands + ' hands)' : '')).join(' · ');
        card.appendChild(h('div', { class: 'tc-edge', 'data-player-edge': t.id, title: 'A tournament game played for cash: the player\'s exact edge on each bet' },
          'Cash table, player edge: ' + edges));
      }
    }
  }

  async function poll() {
    try { renderTournaments(await api('GET', '/api/tournaments') || []); } catch (e) { /* next time */ }
    try { decorate(await api('GET', '/api/tables') || []); } catch (e) { /* next time */ }
    setTimeout(poll, 3000);
  }
  poll();
})(window.Bac);
