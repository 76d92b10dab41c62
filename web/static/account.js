/* account.js: the player's account at /account. The statement (GET /api/me/rounds) has a line
   per round per table, newest first, a page at a time: the table's name, the round, when, what
   was bet, what came back, the net and the balance after; tapping a round shows its wagers
   (bet, stake, result, paid) and its recall (GET /api/tables/{id}/rounds, which keeps the last
   10 finished rounds of a table: an older round says so). Other movements (credits, debits,
   a tournament's fees, rebuys, prizes and refunds, with its name) are lines of their own. The
   totals of a period are added up here from that period's postings (GET /api/me/history), in
   BigInt: display only, the wallet's figures are the server's. A player may hold money in
   several currencies: each has its own wallet and statement, chosen with #wallet-currency (or
   ?currency=, as a table page's account link says); the page's amounts then have that
   currency's decimals. Needs i18n.js, currency.js, app.js and events.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, t, fmtMoney, fmtSigned, fmtCash, fmtCashSigned } = Bac;
  const PAGE = 25; // lines a page
  const BATCH = 1000; // the most the statement gives at once (ledger.MaxLimit)
  const MAX_BATCHES = 50; // totals read at most this many batches (50,000 entries)
  const RECALL_ROUNDS = 10; // what a table keeps for recall (live.RecallRounds)

  const el = { who: $('#who'), balance: $('#balance'), sub: $('#account-sub'), signin: $('#account-signin'),
    list: $('#statement'), newer: $('#newer'), older: $('#older'), info: $('#page-info'), refresh: $('#statement-refresh'),
    period: $('#period'), totals: $('#totals'), note: $('#totals-note'), pick: $('#wallet-pick'), wallet: $('#wallet-currency'),
    curBadge: $('#statement-currency') };
  let me = null;
  let currency = ''; // the wallet shown: '' for the player's own
  let count = 0; // postings in the wallet: the newest has seq = count
  let page = 0; // 0: the newest page
  const cache = new Map(); // seq → entry
  const tableGame = {}; // table id → game id
  const games = {}; // game id → description
  const open = new Set(); // the rounds (line keys) whose detail is shown

  // ---- reading the postings (GET /api/me/history), for the period totals ----------------------
  const curParam = () => (currency ? '&currency=' + encodeURIComponent(currency) : '');
  async function read(after, limit) {
    const list = await api('GET', '/api/me/history?after=' + after + '&limit=' + limit + curParam());
    for (const e of list || []) cache.set(e.seq, e);
    return list || [];
  }
  async function entry(seq) {
    if (!cache.has(seq)) await read(seq - 1, 1);
    return cache.get(seq) || null;
  }
  // The number of postings: one read for most wallets; else a gallop and a binary search over
  // seq (postings are numbered without gaps), a few dozen reads for a million.
  async function countEntries() {
    const first = await read(0, BATCH);
    if (first.length < BATCH) return first.length;
    let lo = BATCH, hi = 2 * BATCH;
    while (await entry(hi)) { lo = hi; hi *= 2; }
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (await entry(mid)) lo = mid; else hi = mid;
    }
    return lo;
  }

  // ---- the statement: a line per round per table (GET /api/me/rounds) ------------------------
  // Pages follow the server's cursor: pages[i] is the "before" of page i (0: the newest), the
  // next one's is the answer's "next" (0: no older lines).
  const pages = [0];
  let hasOlder = false;
  function gameOf(table) { return games[tableGame[table]] || null; }
  const big = (v) => BigInt(Math.trunc(Number(v) || 0));
  const signClass = (v) => (v > 0n ? 'pos' : v < 0n ? 'neg' : '');
  // A movement's words: its kind translated, with the tournament's name where it has one.
  function kindText(l) {
    const key = 'stmt.kind.' + l.kind;
    return l.kind !== 'other' && Bac.has(key) ? t(key) : (l.memo || t('stmt.kind.misc'));
  }
  // A line's table and tournament by their names in the page's language (web/API.md, "Names
  // in other languages"), else their names, else their ids.
  function tableText(l) { return (l.table_names && l.table_names[Bac.lang]) || l.table_name || l.table || ''; }
  function tournamentText(l) { return (l.tournament_names && l.tournament_names[Bac.lang]) || l.tournament_name || l.tournament || ''; }
  let renderRun = 0;
  async function render() {
    const run = ++renderRun;
    let pg;
    try {
      pg = await api('GET', '/api/me/rounds?limit=' + PAGE + '&before=' + pages[page] + curParam());
    } catch (e) {
      if (run !== renderRun) return;
      el.list.textContent = '';
      el.list.appendChild(h('li', { class: 'empty' }, Bac.errorText(e)));
      return;
    }
    if (run !== renderRun) return; // another page was asked for meanwhile
    el.list.textContent = '';
    const lines = (pg && pg.lines) || [];
    pages[page + 1] = (pg && pg.next) || 0;
    hasOlder = !!(pg && pg.next);
    if (!lines.length) el.list.appendChild(h('li', { class: 'empty muted' }, t('statement.empty')));
    for (const l of lines) el.list.appendChild(l.kind === 'round' ? roundRow(l) : movementRow(l));
    setText(el.info, t('stmt.page', { n: page + 1 }));
    el.newer.disabled = page === 0;
    el.older.disabled = !hasOlder;
  }
  function money(cls, v, label) {
    return h('span', { class: 'line-cell ' + cls, 'data-minor': String(v) },
      h('small', { class: 'line-label' }, label), h('span', { class: 'line-value' }, cls.startsWith('line-net') ? fmtSigned(v) : fmtMoney(v)));
  }
  function roundRow(l) {
    const net = big(l.net);
    const inPlay = l.status === 'in_play';
    const li = h('li', { class: 'line line-round' + (inPlay ? ' in-play' : ''), 'data-key': l.key, 'data-table': l.table,
      'data-round': l.round, 'data-status': l.status || null, 'data-net': String(net) });
    const what = h('span', { class: 'line-what' }, h('b', null, tableText(l)),
      h('small', { class: 'muted' }, ' · ' + t('lobby.round', { n: l.round }) + (l.tournament_name ? ' · ' + tournamentText(l) : '')));
    const netCell = inPlay
      ? h('span', { class: 'line-cell line-net', 'data-minor': '0' }, h('small', { class: 'line-label' }, t('stmt.col.net')),
        h('span', { class: 'line-value muted' }, t('history.in_play')))
      : money('line-net ' + signClass(net), net, t('stmt.col.net'));
    if (l.status === 'void') what.appendChild(h('small', { class: 'muted' }, ' · ' + t('phase.void')));
    const btn = h('button', { type: 'button', class: 'line-open', 'aria-expanded': open.has(l.key) ? 'true' : 'false',
      title: t('statement.open'), onclick: () => toggle(l, li, btn) },
    what, h('span', { class: 'line-at' }, Bac.fmtDate(l.at)),
    money('line-bet', big(l.staked), t('stmt.col.bet')), money('line-back', big(l.returned), t('stmt.col.back')),
    netCell, money('line-balance', big(l.balance), t('stmt.col.balance')));
    li.appendChild(btn);
    if (open.has(l.key)) showDetail(l, li);
    return li;
  }
  function movementRow(l) {
    const amount = big(l.net);
    const li = h('li', { class: 'line line-move line-' + l.kind, 'data-key': l.key, 'data-kind': l.kind,
      'data-tournament': l.tournament || null, 'data-net': String(amount) });
    li.appendChild(h('div', { class: 'line-row' },
      h('span', { class: 'line-what' }, h('b', null, kindText(l)), l.tournament_name || l.tournament
        ? h('small', { class: 'muted' }, ' · ' + tournamentText(l)) : null),
      h('span', { class: 'line-at' }, Bac.fmtDate(l.at)),
      h('span', { class: 'line-cell line-bet' }), h('span', { class: 'line-cell line-back' }),
      money('line-net ' + signClass(amount), amount, t('stmt.col.amount')),
      money('line-balance', big(l.balance), t('stmt.col.balance'))));
    return li;
  }

  // ---- a round's detail: its wagers, and the recall the table keeps ---------------------------
  const recalls = new Map(); // table → {at, list}
  async function recallOf(table) {
    const c = recalls.get(table);
    if (c && Date.now() - c.at < 5000) return c.list;
    const list = await api('GET', '/api/tables/' + encodeURIComponent(table) + '/rounds?limit=' + RECALL_ROUNDS);
    recalls.set(table, { at: Date.now(), list: list || [] });
    return list || [];
  }
  function toggle(l, li, btn) {
    const was = open.has(l.key);
    if (was) open.delete(l.key); else open.add(l.key);
    setAttr(btn, 'aria-expanded', was ? 'false' : 'true');
    const box = li.querySelector('.line-detail');
    if (box) box.remove();
    if (!was) showDetail(l, li);
  }
  function resultText(w) {
    const key = { win: 'outcome.win', lose: 'outcome.lose', push: 'outcome.push', void: 'outcome.void',
      rides: 'stmt.result.rides', pending: 'stmt.result.pending', in_play: 'history.in_play' }[w.result];
    return key ? t(key) : '';
  }
  function wagersView(l) {
    const game = gameOf(l.table);
    const ws = l.wagers || [];
    if (!ws.length) return h('p', { class: 'muted' }, t('none'));
    return h('table', { class: 'line-wagers' },
      h('thead', null, h('tr', null, h('th', null, t('stmt.wager.bet')), h('th', null, t('stmt.wager.stake')),
        h('th', null, t('stmt.wager.result')), h('th', null, t('stmt.wager.paid')))),
      h('tbody', null, ws.map((w) => h('tr', { 'data-wager': w.id, 'data-result': w.result || null },
        h('td', null, Bac.betName(game, w.bet)), h('td', null, fmtMoney(w.stake)),
        h('td', { class: w.result === 'win' ? 'pos' : w.result === 'lose' ? 'neg' : '' }, resultText(w)),
        h('td', null, fmtMoney(w.paid))))));
  }
  async function showDetail(l, li) {
    const box = h('div', { class: 'line-detail', 'data-detail-for': l.key });
    box.appendChild(h('h3', null, t('recall.wagers')));
    box.appendChild(wagersView(l));
    const notes = [];
    if (big(l.rode_in)) notes.push(t('stmt.rode_in', { amount: fmtMoney(l.rode_in) }));
    if (big(l.rides)) notes.push(t('stmt.rides', { amount: fmtMoney(l.rides) }));
    if (notes.length) box.appendChild(h('p', { class: 'muted line-note' }, notes.join(' ')));
    const rec = h('div', { class: 'line-recall' }, h('p', { class: 'muted' }, t('recall.loading')));
    box.appendChild(rec);
    li.appendChild(box);
    let list;
    try {
      list = await recallOf(l.table);
    } catch (err) {
      rec.textContent = '';
      rec.appendChild(h('p', { class: 'muted recall-missing' }, err.status === 404 ? t('recall.no_table', { table: tableText(l) }) : Bac.errorText(err)));
      return;
    }
    rec.textContent = '';
    const r = list.find((x) => x.round === l.round);
    if (r) {
      rec.appendChild(Bac.recallView(r, { game: gameOf(l.table), me }));
      return;
    }
    const newest = list.length ? list[0].round : 0;
    rec.appendChild(h('p', { class: 'muted recall-missing', 'data-missing': l.round > newest ? 'in_play' : 'too_old' },
      l.round > newest ? t('recall.in_play', { n: l.round }) : t('recall.too_old', { n: l.round, table: tableText(l), keep: RECALL_ROUNDS })));
  }

  // ---- totals of a period ---------------------------------------------------------------------
  function periodStart(p) {
    const now = new Date();
    if (p === 'today') return new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
    if (p === '7d') return now.getTime() - 7 * 86400000;
    if (p === '30d') return now.getTime() - 30 * 86400000;
    return 0;
  }
  // The first entry at or after a time: statement entries are in time order, so a binary
  // search over seq finds it in about log2(count) reads of one entry.
  async function firstFrom(ms) {
    if (!ms) return 1;
    let lo = 1, hi = count + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const e = await entry(mid);
      if (e && Date.parse(e.at) >= ms) hi = mid; else lo = mid + 1;
    }
    return lo;
  }
  let totalsRun = 0;
  async function totals() {
    const run = ++totalsRun;
    const sums = { staked: 0n, won: 0n, other: 0n, rounds: new Map() };
    let from = await firstFrom(periodStart(el.period.value));
    let batches = 0;
    while (from <= count && batches < MAX_BATCHES) {
      const list = await read(from - 1, BATCH);
      if (run !== totalsRun) return; // another period was chosen meanwhile
      if (!list.length) break;
      for (const e of list) add(sums, e);
      from = list[list.length - 1].seq + 1;
      batches++;
    }
    const net = sums.won - sums.staked;
    for (const [k, v] of [['staked', sums.staked], ['won', sums.won], ['net', net]]) {
      const box = el.totals.querySelector('[data-total="' + k + '"]');
      setAttr(box, 'data-minor', String(v));
      setText(box.querySelector('.value'), k === 'net' ? fmtCashSigned(v) : fmtCash(v));
      Bac.toggle(box, 'pos', k === 'net' && v > 0n);
      Bac.toggle(box, 'neg', k === 'net' && v < 0n);
    }
    // Rounds played: a table's round with a stake left on it (one withdrawn whole is none).
    let played = 0;
    for (const v of sums.rounds.values()) if (v > 0n) played++;
    const wb = el.totals.querySelector('[data-total="rounds"]');
    setAttr(wb, 'data-count', String(played));
    setText(wb.querySelector('.value'), Bac.fmtInt(played));
    const notes = [t('totals.note')];
    if (sums.other) notes.push(t('totals.credits', { amount: fmtCashSigned(sums.other) }));
    if (from <= count) notes.push(t('totals.partial', { n: Bac.fmtInt(MAX_BATCHES * BATCH) }));
    setText(el.note, notes.join(' '));
  }
  // As the server's lines (web/statement.go): a round's settlement is won (stakes included);
  // any other posting of a round (a wager, a chip added or taken back, a withdrawal) moved
  // stake on or off the layout; credits, fees and prizes are kept apart.
  const SETTLEMENTS = new Set(['round_settled', 'round_voided', 'session_settled']);
  function add(sums, e) {
    const a = big(e.amount);
    if (!e.table || !e.round) { sums.other += a; return; }
    if (SETTLEMENTS.has(e.memo)) { sums.won += a; return; }
    sums.staked -= a;
    const k = e.table + '/' + e.round;
    sums.rounds.set(k, (sums.rounds.get(k) || 0n) - a);
  }

  // ---- start ---------------------------------------------------------------------------------------
  async function reload() {
    try {
      cache.clear();
      recalls.clear();
      pages.length = 1;
      page = 0;
      await render();
      count = await countEntries();
      await totals();
    } catch (e) {
      el.list.textContent = '';
      el.list.appendChild(h('li', { class: 'empty' }, Bac.errorText(e)));
    }
  }
  el.newer.addEventListener('click', () => { if (page > 0) { page--; render(); } });
  el.older.addEventListener('click', () => { if (hasOlder) { page++; render(); } });
  el.refresh.addEventListener('click', async () => {
    if (me) await showWallet();
    reload();
  });
  // The wallet's balance in the top bar; reading /api/me?currency= gives the page that
  // currency's decimals (currency.js) before any amount of it is written.
  async function showWallet() {
    const w = await api('GET', '/api/me' + (currency ? '?currency=' + encodeURIComponent(currency) : ''));
    // This wallet's currency is the page's: another script's GET /api/me (the player's own
    // wallet) answering later must not put its decimals back.
    if (window.BacCurrency) window.BacCurrency.pin(w.minor_units, w.currency);
    Bac.renderBalance(el.balance, w.balance, w.currency, me);
    setText(el.curBadge, w.currency && w.currency !== 'XXX' ? w.currency : '');
    show(el.curBadge, !!el.curBadge.textContent);
    setAttr(el.list, 'data-currency', w.currency || null);
  }
  // The wallets to choose from: the player's (their own first), and one asked for by address.
  function renderPick() {
    const list = (me.wallets || []).map((w) => w.currency);
    if (!list.length) list.push(me.currency);
    if (currency && !list.includes(currency)) list.push(currency);
    el.wallet.textContent = '';
    for (const c of list) el.wallet.appendChild(h('option', { value: c, selected: c === (currency || me.currency) }, c));
    show(el.pick, list.length > 1);
  }
  el.wallet.addEventListener('change', async () => {
    currency = el.wallet.value === me.currency ? '' : el.wallet.value;
    const url = new URL(window.location.href);
    if (currency) url.searchParams.set('currency', currency); else url.searchParams.delete('currency');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    page = 0;
    open.clear();
    try { await showWallet(); } catch (e) { Bac.toastError(e); return; }
    reload();
  });
  el.period.addEventListener('change', () => totals().catch((e) => setText(el.note, Bac.errorText(e))));

  async function start() {
    me = await Bac.loadMe();
    Bac.renderWho(el.who, me);
    Bac.renderBalance(el.balance, me ? me.balance : null, me && me.currency, me);
    if (!me || me.role !== 'player') {
      show(el.signin, true);
      show($('#totals-panel'), false);
      show($('#statement-panel'), false);
      return;
    }
    setText(el.sub, me.name || me.id);
    const asked = new URLSearchParams(window.location.search).get('currency') || '';
    currency = /^[A-Z]{3}$/.test(asked) && asked !== me.currency ? asked : '';
    renderPick();
    try { await showWallet(); } catch (e) { currency = ''; renderPick(); await showWallet().catch(() => {}); }
    try {
      const [tables, list] = await Promise.all([api('GET', '/api/tables'), api('GET', '/api/games')]);
      for (const tv of tables || []) tableGame[tv.id] = tv.game;
      for (const g of list || []) games[g.id] = g;
    } catch (e) { /* bets keep their ids */ }
    await reload();
  }
  start();
  window.BacAccount = { reload };
})(window.Bac));
