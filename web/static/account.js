/* account.js: the player's account at /account. The wallet statement (GET /api/me/history,
   oldest first and numbered 1, 2, 3… per wallet) is shown newest first, a page at a time; each
   wager or settlement opens the recall of its round (GET /api/tables/{id}/rounds, which keeps
   the last 10 finished rounds of a table: an older round says so). The totals of a period are
   added up here from that period's statement entries, in BigInt: display only, the wallet's
   figures are the server's. A player may hold money in several currencies: each has its own
   wallet and statement (every entry of one is in its currency), chosen with #wallet-currency
   (or ?currency=, as a table page's account link says); the page's amounts then have that
   currency's decimals. Needs i18n.js, currency.js, app.js and events.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, t, fmtMoney, fmtSigned, fmtCash, fmtCashSigned } = Bac;
  const PAGE = 25; // entries a page
  const BATCH = 1000; // the most the statement gives at once (ledger.MaxLimit)
  const MAX_BATCHES = 50; // totals read at most this many batches (50,000 entries)
  const RECALL_ROUNDS = 10; // what a table keeps for recall (live.RecallRounds)

  const el = { who: $('#who'), balance: $('#balance'), sub: $('#account-sub'), signin: $('#account-signin'),
    list: $('#statement'), newer: $('#newer'), older: $('#older'), info: $('#page-info'), refresh: $('#statement-refresh'),
    period: $('#period'), totals: $('#totals'), note: $('#totals-note'), pick: $('#wallet-pick'), wallet: $('#wallet-currency'),
    curBadge: $('#statement-currency') };
  let me = null;
  let currency = ''; // the wallet shown: '' for the player's own
  let count = 0; // entries in the wallet: the newest has seq = count
  let page = 0; // 0: the newest page
  const cache = new Map(); // seq → entry
  const tableGame = {}; // table id → game id
  const games = {}; // game id → description
  const open = new Set(); // seqs whose recall is shown

  // ---- reading the statement ------------------------------------------------------------------
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
  // The number of entries: one read for most wallets; else a gallop and a binary search over
  // seq (entries are numbered without gaps), a few dozen reads for a million entries.
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
  async function loadPage() {
    const hi = count - page * PAGE;
    const lo = Math.max(1, hi - PAGE + 1);
    const missing = [];
    for (let s = lo; s <= hi; s++) if (!cache.has(s)) missing.push(s);
    if (missing.length) await read(missing[0] - 1, missing[missing.length - 1] - missing[0] + 1);
    const out = [];
    for (let s = hi; s >= lo; s--) if (cache.has(s)) out.push(cache.get(s));
    return out;
  }

  // ---- words for an entry ------------------------------------------------------------------------
  function gameOf(table) { return games[tableGame[table]] || null; }
  // "wager 5 banker" → "Wager #5 on Banker"; the ledger's other memos by name.
  function describe(e) {
    const m = /^wager (\d+) (\S+)$/.exec(e.memo || '');
    if (m) return t('memo.wager', { id: m[1], bet: Bac.betName(gameOf(e.table), m[2]) });
    if (Bac.has('memo.' + e.memo)) return t('memo.' + e.memo);
    return e.memo || '';
  }
  function kindOf(e) {
    const memo = e.memo || '';
    if (/^wager /.test(memo)) return 'wager';
    if (memo === 'withdrawn') return 'withdrawn';
    if (memo === 'round_settled' || memo === 'round_voided' || memo === 'session_settled') return 'settlement';
    return 'other';
  }

  async function render() {
    el.list.textContent = '';
    if (!count) {
      el.list.appendChild(h('li', { class: 'empty muted' }, t('statement.empty')));
    } else {
      for (const e of await loadPage()) el.list.appendChild(row(e));
    }
    const pages = Math.max(1, Math.ceil(count / PAGE));
    setText(el.info, t('statement.page', { n: page + 1, of: pages, entries: Bac.fmtInt(count) }));
    el.newer.disabled = page === 0;
    el.older.disabled = page + 1 >= pages;
  }
  function row(e) {
    const amount = BigInt(Math.trunc(Number(e.amount) || 0));
    const recall = e.table && e.round && kindOf(e) !== 'other';
    const li = h('li', { class: 'entry entry-' + kindOf(e), 'data-seq': e.seq, 'data-memo': e.memo || '',
      'data-table': e.table || null, 'data-round': e.round || null });
    const body = [
      h('span', { class: 'entry-at' }, Bac.fmtDate(e.at)),
      h('span', { class: 'entry-what' }, describe(e), e.table ? h('small', { class: 'muted' }, ' · ' + e.table +
        (e.round ? ' · ' + t('lobby.round', { n: e.round }) : '')) : null),
      h('span', { class: 'entry-amount ' + (amount > 0n ? 'pos' : amount < 0n ? 'neg' : ''), 'data-minor': String(amount) }, fmtSigned(amount)),
      h('span', { class: 'entry-balance muted' }, fmtMoney(e.balance)),
    ];
    if (recall) {
      const btn = h('button', { type: 'button', class: 'entry-open', 'aria-expanded': open.has(e.seq) ? 'true' : 'false',
        title: t('statement.open'), onclick: () => toggleRecall(e, li, btn) }, body);
      li.appendChild(btn);
      if (open.has(e.seq)) showRecall(e, li);
    } else {
      li.appendChild(h('div', { class: 'entry-row' }, body));
    }
    return li;
  }

  // ---- recall ------------------------------------------------------------------------------------
  const rounds = new Map(); // table → {at, list}
  async function recallOf(table) {
    const c = rounds.get(table);
    if (c && Date.now() - c.at < 5000) return c.list;
    const list = await api('GET', '/api/tables/' + encodeURIComponent(table) + '/rounds?limit=' + RECALL_ROUNDS);
    rounds.set(table, { at: Date.now(), list: list || [] });
    return list || [];
  }
  function toggleRecall(e, li, btn) {
    const was = open.has(e.seq);
    if (was) open.delete(e.seq); else open.add(e.seq);
    setAttr(btn, 'aria-expanded', was ? 'false' : 'true');
    const box = li.querySelector('.entry-recall');
    if (box) box.remove();
    if (!was) showRecall(e, li);
  }
  async function showRecall(e, li) {
    const box = h('div', { class: 'entry-recall', 'data-recall-for': e.seq }, h('p', { class: 'muted' }, t('recall.loading')));
    li.appendChild(box);
    let list;
    try {
      list = await recallOf(e.table);
    } catch (err) {
      box.textContent = '';
      box.appendChild(h('p', { class: 'muted recall-missing' }, err.status === 404 ? t('recall.no_table', { table: e.table }) : Bac.errorText(err)));
      return;
    }
    box.textContent = '';
    const r = list.find((x) => x.round === e.round);
    if (r) {
      box.appendChild(Bac.recallView(r, { game: gameOf(e.table), me }));
      return;
    }
    const newest = list.length ? list[0].round : 0;
    box.appendChild(h('p', { class: 'muted recall-missing', 'data-missing': e.round > newest ? 'in_play' : 'too_old' },
      e.round > newest ? t('recall.in_play', { n: e.round }) : t('recall.too_old', { n: e.round, table: e.table, keep: RECALL_ROUNDS })));
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
    const sums = { staked: 0n, won: 0n, wagers: 0n, other: 0n };
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
    const wb = el.totals.querySelector('[data-total="wagers"]');
    setAttr(wb, 'data-count', String(sums.wagers));
    setText(wb.querySelector('.value'), Bac.fmtInt(sums.wagers));
    const notes = [t('totals.note')];
    if (sums.other) notes.push(t('totals.credits', { amount: fmtCashSigned(sums.other) }));
    if (from <= count) notes.push(t('totals.partial', { n: Bac.fmtInt(MAX_BATCHES * BATCH) }));
    setText(el.note, notes.join(' '));
  }
  // Staked: wagers less what was withdrawn before play; won: what settlements paid back
  // (stakes included); credits and anything else are kept apart.
  function add(sums, e) {
    const a = BigInt(Math.trunc(Number(e.amount) || 0));
    switch (kindOf(e)) {
      case 'wager': sums.staked -= a; sums.wagers += 1n; break;
      case 'withdrawn': sums.staked -= a; break;
      case 'settlement': sums.won += a; break;
      default: sums.other += a;
    }
  }

  // ---- start ---------------------------------------------------------------------------------------
  async function reload() {
    try {
      cache.clear();
      rounds.clear();
      count = await countEntries();
      page = Math.min(page, Math.max(0, Math.ceil(count / PAGE) - 1));
      await render();
      await totals();
    } catch (e) {
      el.list.textContent = '';
      el.list.appendChild(h('li', { class: 'empty' }, Bac.errorText(e)));
    }
  }
  el.newer.addEventListener('click', () => { if (page > 0) { page--; render(); } });
  el.older.addEventListener('click', () => { page++; render(); });
  el.refresh.addEventListener('click', async () => {
    if (me) await showWallet();
    reload();
  });
  // The wallet's balance in the top bar; reading /api/me?currency= gives the page that
  // currency's decimals (currency.js) before any amount of it is written.
  async function showWallet() {
    const w = await api('GET', '/api/me' + (currency ? '?currency=' + encodeURIComponent(currency) : ''));
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
