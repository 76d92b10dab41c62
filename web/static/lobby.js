/* lobby.js: the lobby at /. Polls GET /api/tables every 2 s (and at once when the page comes
   back into view), updates each table's card in place, and ticks the countdowns on server time.
   A table the pit paused carries a "Paused" badge; a closed one is not listed. Each card
   shows the table's limits, its current streak ("Banker ×5", from the shoe's Big
   Road), the players with a stake on it now (the lobby's "players seated") and its action this
   round: how many bets carry stakes and the stakes in play (its snapshot's totals), read every
   5 s. Each table's amounts are in its own currency: its decimals and its
   sign ("¥100 – ¥1,000,000", "BHD 0.100 – BHD 1,000.000"), whatever the player's wallet.
   The lobby lists the cash tables only (#lobby-cash): a table that plays a tournament's session
   (its "tournament", or chips "CHIPS:<id>" for currency) is listed under its tournament by
   lobby-tournaments.js, which takes each list read here from the "lobby:tables" event. Two tabs
   (#lobby-views) show the cash tables or the tournaments: "cash" unless ?view=tournaments or the
   player's last choice (localStorage "baccarat.lobby.view") says otherwise.
   Needs i18n.js, currency.js, app.js and roads.js; starts once the language is in. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, clock, t } = Bac;
  // An amount of a table in its currency (the lobby lists tables of several).
  const money = (minor, tv) => (window.BacCurrency ? window.BacCurrency.money(minor, tv.minor_units, tv.currency || '') : Bac.fmtMoney(minor));
  const PHASES = { idle: 'phase.idle_short', betting: 'phase.betting', closed: 'phase.closed', dealing: 'phase.dealing',
    settled: 'phase.settled', void: 'phase.void' };
  const el = { tables: $('#tables'), status: $('#lobby-status'), count: $('#lobby-count'), who: $('#who'),
    balance: $('#balance'), help: $('#signin-help') };
  const cards = new Map(); // table id → {root, parts, roadKey, entry, action}
  // A table that plays a tournament's session (not one a player sits at for money).
  const isSession = (tv) => !!tv.tournament || String(tv.currency || '').startsWith('CHIPS:');
  const gameNames = {};
  let me = null;

  function card(tv) {
    let c = cards.get(tv.id);
    if (c) return c;
    const parts = {
      name: h('span', { class: 'tc-name' }),
      mode: h('span', { class: 'badge' }),
      paused: h('span', { class: 'badge badge-warn tc-paused', hidden: true }),
      game: h('div', { class: 'tc-game' }),
      phase: h('span', { class: 'tc-phase' }),
      count: h('span', { class: 'tc-count', 'aria-label': t('stage.countdown') }),
      round: h('span', { class: 'muted tc-round' }),
      shoe: h('span', { class: 'tc-shoe' }),
      streak: h('span', { class: 'tc-streak' }),
      limits: h('span', { class: 'tc-limits' }),
      players: h('span', { class: 'tc-players' }),
      action: h('span', { class: 'tc-action' }),
      road: h('div', { class: 'tc-road' }),
      links: h('div', { class: 'tc-links' }),
    };
    const link = h('a', { class: 'stretched', href: '/table/' + encodeURIComponent(tv.id), 'aria-label': t('lobby.open', { name: Bac.nameOf(tv, tv.id) }) });
    const root = h('article', { class: 'table-card', 'data-table': tv.id },
      link,
      h('div', { class: 'tc-head' }, h('div', { class: 'tc-titles' }, parts.name, parts.game), parts.paused, parts.mode),
      h('div', { class: 'tc-row' }, parts.phase, parts.count, parts.streak, parts.round, parts.shoe),
      h('div', { class: 'tc-row tc-facts' }, parts.limits, parts.players, parts.action),
      parts.road, parts.links);
    root.addEventListener('click', (e) => {
      if (e.target.closest('a') && e.target.closest('a') !== link) return;
      if (e.target !== link) link.click();
    });
    c = { root, parts, roadKey: null, entry: tv, linksKey: null, action: null };
    cards.set(tv.id, c);
    return c;
  }

  // The table's range: the smallest minimum and the largest maximum of its main bets.
  function limitsText(tv) {
    const limits = tv.limits;
    let min = null, max = null;
    for (const id of ['player', 'banker']) {
      const l = limits && limits[id];
      if (!l) continue;
      if (min === null || l.min < min) min = l.min;
      if (max === null || l.max > max) max = l.max;
    }
    return min === null ? '' : t('lobby.limits', { min: money(min, tv), max: max ? money(max, tv) : t('limits.no_max') });
  }

  function update(c, tv) {
    c.entry = tv;
    const p = c.parts;
    setText(p.name, Bac.nameOf(tv, tv.id));
    setAttr(p.name, 'title', Bac.nameOf(tv, tv.id));
    const gname = Bac.gameName(tv.game, gameNames[tv.game]);
    setText(p.game, gname === tv.name || gname === Bac.nameOf(tv) ? '' : gname);
    setText(p.mode, tv.mode === 'dealer' ? t('lobby.mode_dealer') : tv.mode === 'auto' ? t('lobby.mode_auto') : tv.mode || '');
    setAttr(p.mode, 'title', tv.mode === 'dealer' ? t('lobby.mode_dealer_title') : t('lobby.mode_auto_title'));
    // A table the pit paused stays in the lobby, marked (a closed one is not listed).
    show(p.paused, !!tv.paused);
    setText(p.paused, tv.paused ? t('lobby.paused') : '');
    setAttr(p.paused, 'title', tv.paused ? t('lobby.paused_title') : null);
    setAttr(c.root, 'data-paused', tv.paused ? 'true' : null);
    setText(p.phase, PHASES[tv.phase] ? t(PHASES[tv.phase]) : tv.phase || '');
    setAttr(p.phase, 'data-phase', tv.phase);
    setAttr(c.root, 'data-phase', tv.phase);
    setText(p.round, tv.round ? t('lobby.round', { n: tv.round }) : '');
    const shoe = tv.shoe || {};
    setText(p.shoe, shoe.number ? t('lobby.shoe', { n: shoe.number, left: shoe.left !== undefined ? shoe.left : '–' }) : '');
    setText(p.limits, limitsText(tv));
    setAttr(p.limits, 'data-currency', tv.currency || null);
    setText(p.players, Bac.tn('lobby.players', tv.players || 0));
    setAttr(p.players, 'data-players', tv.players || 0);
    const st = Bac.streakOf(tv.big_road);
    setText(p.streak, st ? Bac.winnerName(st.side) + ' ×' + st.n : '');
    setAttr(p.streak, 'data-streak', st ? st.side + st.n : null);
    setAttr(p.streak, 'title', st ? t('lobby.streak_title', { side: Bac.winnerName(st.side), n: st.n }) : null);
    p.streak.className = 'tc-streak' + (st ? ' s-' + st.side + (st.n >= 4 ? ' hot' : '') : '');
    renderAction(c);
    const key = JSON.stringify(tv.big_road || null);
    if (key !== c.roadKey) {
      c.roadKey = key;
      p.road.innerHTML = Bac.miniBigRoad(tv.big_road || { leading_ties: 0, columns: [] }, 20);
    }
    const dealerLink = me && ['dealer', 'pit', 'admin'].includes(me.role) && tv.mode === 'dealer';
    const lk = dealerLink ? 'd' : '';
    if (lk !== c.linksKey) {
      c.linksKey = lk;
      p.links.textContent = '';
      if (dealerLink) p.links.appendChild(h('a', { href: '/dealer/' + encodeURIComponent(tv.id), 'data-dealer-link': tv.id }, t('lobby.dealer_link')));
    }
  }

  // The round's action from the table's snapshot totals: bets with stakes, stakes in play.
  function renderAction(c) {
    const a = c.action;
    const p = c.parts.action;
    if (!a || a.round !== c.entry.round) { setText(p, ''); setAttr(p, 'data-bets', null); return; }
    setText(p, a.bets ? t('lobby.action', { bets: a.bets, amount: money(a.sum, c.entry) }) : t('lobby.no_action'));
    setAttr(p, 'data-bets', a.bets);
    setAttr(p, 'title', t('lobby.action_title'));
  }

  function render(all) {
    const list = all.filter((tv) => !isSession(tv));
    const seen = new Set();
    list.forEach((tv, i) => {
      seen.add(tv.id);
      const c = card(tv);
      update(c, tv);
      if (el.tables.children[i] !== c.root) el.tables.insertBefore(c.root, el.tables.children[i] || null);
    });
    for (const [id, c] of cards) {
      if (!seen.has(id)) { c.root.remove(); cards.delete(id); }
    }
    setText(el.count, Bac.tn('lobby.count', list.length));
    setText($('#lobby-n-cash'), Bac.fmtInt(list.length));
    if (!list.length) {
      if (!el.tables.querySelector('.empty')) el.tables.appendChild(h('p', { class: 'muted empty' }, t('lobby.empty')));
    } else {
      const e = el.tables.querySelector('.empty');
      if (e) e.remove();
    }
    tick();
  }

  function tick() {
    for (const c of cards.values()) {
      const tv = c.entry;
      let text = '';
      if (tv.phase === 'betting') {
        const s = clock.secondsLeft(tv.until);
        if (s !== null) text = t('lobby.seconds', { n: Math.ceil(s) });
      }
      setText(c.parts.count, text);
    }
  }
  setInterval(tick, 250);

  // ---- polling: every 2 s while visible, at once on focus ---------------------------------
  let timer = 0;
  let inflight = false;
  let failures = 0;
  async function refresh() {
    clearTimeout(timer);
    if (inflight) return;
    inflight = true;
    try {
      const list = await api('GET', '/api/tables');
      clock.syncHeader(api.lastDate);
      failures = 0;
      show(el.status, false);
      const all = Array.isArray(list) ? list : [];
      render(all);
      document.dispatchEvent(new CustomEvent('lobby:tables', { detail: all }));
    } catch (e) {
      failures++;
      setText(el.status, t(failures > 1 ? 'lobby.lost' : 'lobby.cannot_load', { why: Bac.errorText(e) }));
      show(el.status, true);
    } finally {
      inflight = false;
      if (document.visibilityState === 'visible') timer = setTimeout(refresh, 2000);
    }
  }
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
  window.addEventListener('focus', refresh);
  window.addEventListener('online', refresh);

  // Each table's action, from its snapshot, one table after another every 5 s in all.
  let actionTimer = 0;
  async function refreshActions() {
    clearTimeout(actionTimer);
    const ids = [...cards.keys()];
    for (const id of ids) {
      if (document.visibilityState !== 'visible' || $('#lobby-cash').hidden) break;
      try {
        const snap = await api('GET', '/api/tables/' + encodeURIComponent(id));
        const c = cards.get(id);
        if (!c || !snap || !snap.state) continue;
        const totals = snap.state.totals || {};
        let bets = 0, sum = 0n;
        for (const k of Object.keys(totals)) {
          if (totals[k] > 0) { bets++; sum += BigInt(Math.trunc(totals[k])); }
        }
        c.action = { round: snap.state.round, bets, sum };
        renderAction(c);
      } catch (e) { /* the next pass tries again */ }
    }
    actionTimer = setTimeout(refreshActions, 5000);
  }

  async function loadGames() {
    try {
      const games = await api('GET', '/api/games');
      for (const g of games || []) gameNames[g.id] = g.name;
      for (const c of cards.values()) update(c, c.entry);
    } catch (e) { /* ids are shown instead */ }
  }

  // ---- the two views: cash tables, tournaments ------------------------------------------
  const VIEW_KEY = 'baccarat.lobby.view';
  const VIEWS = ['cash', 'tournaments'];
  const tabs = [...document.querySelectorAll('#lobby-views [role="tab"]')];
  function setView(view, remember) {
    if (!VIEWS.includes(view)) view = 'cash';
    for (const tab of tabs) {
      const on = tab.dataset.view === view;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(tab.getAttribute('aria-controls'));
      if (panel) panel.hidden = !on;
    }
    document.body.setAttribute('data-lobby-view', view);
    if (!remember) return;
    try { localStorage.setItem(VIEW_KEY, view); } catch (e) { /* private mode: this page only */ }
    const url = new URL(location.href);
    if (url.searchParams.has('view')) {
      url.searchParams.set('view', view);
      history.replaceState(null, '', url.pathname + url.search + url.hash);
    }
  }
  function initialView() {
    const q = new URLSearchParams(location.search).get('view');
    if (VIEWS.includes(q)) {
      try { localStorage.setItem(VIEW_KEY, q); } catch (e) { /* this page only */ }
      return q;
    }
    try { return localStorage.getItem(VIEW_KEY) || 'cash'; } catch (e) { return 'cash'; }
  }
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => setView(tab.dataset.view, true));
    tab.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!step) return;
      e.preventDefault();
      const next = tabs[(i + step + tabs.length) % tabs.length];
      setView(next.dataset.view, true);
      next.focus();
    });
  });
  setView(initialView(), false);

  async function start() {
    await refresh();
    loadGames();
    refreshActions();
    me = await Bac.loadMe();
    Bac.renderWho(el.who, me);
    Bac.renderBalance(el.balance, me ? me.balance : null, me && me.currency, me);
    show(el.help, !me);
    show($('#account-link'), !!me && me.role === 'player');
    show($('#admin-link'), !!me && me.role !== 'player'); // the back office, for staff
    for (const c of cards.values()) update(c, c.entry);
  }
  start();
  window.BacLobby = { refresh, setView, isSession, me: () => me };
})(window.Bac));
