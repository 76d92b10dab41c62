/* lobby.js: the lobby at /. Polls GET /api/tables every 2 s (and at once when the page comes
   back into view), updates each table's card in place, and ticks the countdowns on server time.
   Needs app.js and roads.js. */
'use strict';
(function (Bac) {
  const { api, h, $, setText, setAttr, show, clock } = Bac;
  const PHASES = { idle: 'Waiting', betting: 'Place your bets', closed: 'No more bets', dealing: 'Dealing',
    settled: 'Result', void: 'Round void' };
  const el = { tables: $('#tables'), status: $('#lobby-status'), count: $('#lobby-count'), who: $('#who'),
    balance: $('#balance'), help: $('#signin-help') };
  const cards = new Map(); // table id → {root, parts, roadKey, entry}
  const gameNames = {};
  let me = null;

  function card(t) {
    let c = cards.get(t.id);
    if (c) return c;
    const parts = {
      name: h('span', { class: 'tc-name' }),
      mode: h('span', { class: 'badge' }),
      game: h('div', { class: 'tc-game' }),
      phase: h('span', { class: 'tc-phase' }),
      count: h('span', { class: 'tc-count', 'aria-label': 'seconds left to bet' }),
      round: h('span', { class: 'muted' }),
      shoe: h('span', { class: 'tc-shoe' }),
      road: h('div', { class: 'tc-road' }),
      links: h('div', { class: 'tc-links' }),
    };
    const link = h('a', { class: 'stretched', href: '/table/' + encodeURIComponent(t.id), 'aria-label': 'Open table ' + (t.name || t.id) });
    const root = h('article', { class: 'table-card', 'data-table': t.id },
      link,
      h('div', { class: 'tc-head' }, h('div', { style: 'flex:1;min-width:0' }, parts.name, parts.game), parts.mode),
      h('div', { class: 'tc-row' }, parts.phase, parts.count, parts.round, parts.shoe),
      parts.road, parts.links);
    root.addEventListener('click', (e) => {
      if (e.target.closest('a') && e.target.closest('a') !== link) return;
      if (e.target !== link) link.click();
    });
    c = { root, parts, roadKey: null, entry: t, linksKey: null };
    cards.set(t.id, c);
    return c;
  }

  function update(c, t) {
    c.entry = t;
    const p = c.parts;
    setText(p.name, t.name || t.id);
    const gname = gameNames[t.game] || t.game || '';
    setText(p.game, gname === t.name ? '' : gname);
    setText(p.mode, t.mode === 'dealer' ? 'Live dealer' : t.mode === 'auto' ? 'Auto' : t.mode || '');
    setAttr(p.mode, 'title', t.mode === 'dealer' ? 'Dealt by a dealer from a live shoe' : 'Dealt automatically from a shuffled shoe');
    setText(p.phase, PHASES[t.phase] || t.phase || '');
    setAttr(p.phase, 'data-phase', t.phase);
    setAttr(c.root, 'data-phase', t.phase);
    setText(p.round, t.round ? 'Round ' + t.round : '');
    const shoe = t.shoe || {};
    setText(p.shoe, shoe.number ? 'Shoe ' + shoe.number + ' · ' + (shoe.left !== undefined ? shoe.left + ' cards left' : '') : '');
    const key = JSON.stringify(t.big_road || null);
    if (key !== c.roadKey) {
      c.roadKey = key;
      p.road.innerHTML = Bac.miniBigRoad(t.big_road || { leading_ties: 0, columns: [] }, 20);
    }
    const dealerLink = me && ['dealer', 'pit', 'admin'].includes(me.role) && t.mode === 'dealer';
    const lk = dealerLink ? 'd' : '';
    if (lk !== c.linksKey) {
      c.linksKey = lk;
      p.links.textContent = '';
      if (dealerLink) p.links.appendChild(h('a', { href: '/dealer/' + encodeURIComponent(t.id), 'data-dealer-link': t.id }, 'Dealer console →'));
    }
  }

  function render(list) {
    const seen = new Set();
    list.forEach((t, i) => {
      seen.add(t.id);
      const c = card(t);
      update(c, t);
      if (el.tables.children[i] !== c.root) el.tables.insertBefore(c.root, el.tables.children[i] || null);
    });
    for (const [id, c] of cards) {
      if (!seen.has(id)) { c.root.remove(); cards.delete(id); }
    }
    setText(el.count, list.length + ' table' + (list.length === 1 ? '' : 's'));
    if (!list.length) {
      if (!el.tables.querySelector('.empty')) el.tables.appendChild(h('p', { class: 'muted empty' }, 'No tables are open yet.'));
    } else {
      const e = el.tables.querySelector('.empty');
      if (e) e.remove();
    }
    tick();
  }

  function tick() {
    for (const c of cards.values()) {
      const t = c.entry;
      let text = '';
      if (t.phase === 'betting') {
        const s = clock.secondsLeft(t.until);
        if (s !== null) text = Math.ceil(s) + 's';
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
      render(Array.isArray(list) ? list : []);
    } catch (e) {
      failures++;
      setText(el.status, (failures > 1 ? 'Connection lost: retrying… ' : 'Cannot load the tables: retrying… ') + '(' + e.message + ')');
      show(el.status, true);
    } finally {
      inflight = false;
      if (document.visibilityState === 'visible') timer = setTimeout(refresh, 2000);
    }
  }
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') refresh(); });
  window.addEventListener('focus', refresh);
  window.addEventListener('online', refresh);

  async function loadGames() {
    try {
      const games = await api('GET', '/api/games');
      for (const g of games || []) gameNames[g.id] = g.name;
      for (const c of cards.values()) update(c, c.entry);
    } catch (e) { /* ids are shown instead */ }
  }

  async function start() {
    refresh();
    loadGames();
    me = await Bac.loadMe();
    Bac.renderWho(el.who, me);
    Bac.renderBalance(el.balance, me ? me.balance : null, me && me.currency, me);
    show(el.help, !me);
    for (const c of cards.values()) update(c, c.entry);
  }
  start();
  window.BacLobby = { refresh };
})(window.Bac);
