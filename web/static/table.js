/* table.js: the player's table at /table/{id}. It keeps the server's snapshot (state, roads,
   game), folds the stream's events into that state (state.js), and renders from it once per
   animation frame. Events also bring what the state does not hold: the result and the
   player's settlements, the shoe reveal. When the stream drops, an overlay says so, the bet
   spots are disabled and the countdown stops until the stream is back and the snapshot has
   been read again (table-conn.js). At a table with live video the stage (cards and result:
   table-stage.js, roads) shows the table as the video does, and betting follows the server
   (table-video.js). Needs i18n.js, sound.js, app.js, game.js, events.js, state.js, roads.js,
   table-bets.js, table-panels.js, table-rules.js, table-squeeze.js, table-stage.js,
   table-conn.js, table-video.js; starts once the language is loaded. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, toggle, show, fmtCash, fmtCashSigned, toast, clock, phaseText, gameHasDecimal, netOf,
    humanize, t } = Bac;

  const tableId = Bac.pathId('table');
  const S = {
    me: null, table: null, game: null, state: null, roads: null, balance: null,
    result: null, // {round, result, settlements (mine), voided, reason}
    sessionResult: null, reveal: null, commitments: {},
    rules: null, // GET /rules: placement rules and the pay tables' returns
    offline: false, // the stream is down: betting and the countdown are paused
    squeezing: false, // this player squeezes a hand now: the squeeze panel has the keyboard
    shown: null, // the stage: {state, result, roads}, the table as its video shows it (table-video.js)
    viewerClosed: false, // betting has ended for this viewer (at a table with video, a wager's round trip early)
  };
  const el = {
    tableName: $('#table-name'), gameName: $('#game-name'), conn: $('#conn'), who: $('#who'), balance: $('#balance'),
    wallet: $('#wallet'), phase: $('#phase'), countdown: $('#countdown'), roundNo: $('#round-no'), shoeNo: $('#shoe-no'),
    shoeLeft: $('#shoe-left'), shoeFlags: $('#shoe-flags'), bettingRound: $('#betting-round'),
    banner: $('#interrupt-banner'), bannerText: $('#interrupt-text'), withdrawAll: $('#withdraw-all'),
    playerCards: $('#player-cards'), bankerCards: $('#banker-cards'), playerTotal: $('#player-total'),
    bankerTotal: $('#banker-total'), handP: $('#hand-player'), handB: $('#hand-banker'), result: $('#result'),
    stats: $('#stats'), roadsShoe: $('#roads-shoe'), overlay: $('#conn-overlay'), overlayTitle: $('#conn-overlay-title'),
    overlayText: $('#conn-overlay-text'), retry: $('#conn-retry'), tools: $('#tools'),
  };
  const REVEAL_KEY = 'baccarat.reveal.' + tableId;

  // ---- render scheduling: many messages, one paint --------------------------------------
  let dirty = false;
  function invalidate() {
    if (dirty) return;
    dirty = true;
    requestAnimationFrame(render);
  }
  function render() {
    dirty = false;
    if (!S.state) return;
    S.shown = video.stage();
    S.viewerClosed = video.closedForViewer();
    paintRoads(S.shown.roads);
    renderStage();
    squeeze.update();
    bets.update();
    panels.renderDragon();
    panels.renderCommitment();
  }

  // ---- money from the server -------------------------------------------------------------
  // Every amount at a table is in its currency (currency.js formats with its decimals); the
  // wallet shown is the player's in that currency (a player may hold several): the one the
  // table's answers and balance messages report. A tournament's chip table is left to
  // tournament-table.js, which shows the chips.
  function tableCurrency() {
    const c = S.table && S.table.currency;
    return c && !/^CHIPS:/.test(c) ? c : '';
  }
  let balanceFor = null; // the currency whose balance the wallet shows
  function mePath() {
    const c = tableCurrency();
    return c ? '/api/me?currency=' + encodeURIComponent(c) : '/api/me';
  }
  async function readBalance() {
    if (!S.me) return;
    const want = tableCurrency();
    const me = await api('GET', mePath());
    if (want !== tableCurrency()) return; // the table changed meanwhile: its own read follows
    balanceFor = want;
    setBalance(me.balance);
  }
  // Shows the balance once the player and the table are both known, and reads it again when
  // the table's currency is not the one shown.
  function showBalance() {
    if (!S.me || !S.table) return;
    if (!tableCurrency()) {
      if (S.balance === null) setBalance(S.me.balance);
    } else if (balanceFor !== tableCurrency()) {
      readBalance().catch(() => { /* the next snapshot or focus reads it again */ });
    }
  }
  // held: a balance message the video has caught up with; any other balance is newer than
  // those still waiting, which are dropped.
  function setBalance(n, held) {
    if (typeof n !== 'number') return;
    if (!held) video.dropHeld('balance');
    const changed = S.balance !== null && S.balance !== n;
    S.balance = n;
    Bac.renderBalance(el.balance, n, tableCurrency() || (S.me && S.me.currency), S.me);
    if (changed) {
      el.wallet.classList.remove('flash');
      void el.wallet.offsetWidth; // restart the animation
      el.wallet.classList.add('flash');
    }
  }
  function mine(list) {
    const id = S.me && S.me.id;
    return id ? (list || []).filter((x) => x.player === id) : [];
  }
  // A wager the server just accepted shows at once; its "mine" event then finds it there. A
  // chip added to a spot raises its one wager (wager_raised): the answer carries the wager's
  // new total, which replaces a smaller one shown (an answer overtaken by the next chip's
  // event is older); a chip taken back (Undo, exact) lowers it.
  function mergeWager(w, exact) {
    const st = S.state;
    if (!st || !w || w.round !== st.round) return;
    const bet = Bac.betOf(S.game, w.bet);
    const key = bet && bet.kind === 'dragon' ? 'dragon' : 'wagers';
    const list = st[key] || [];
    const i = list.findIndex((x) => x.id === w.id);
    if (i < 0) st[key] = list.concat([w]);
    else if (exact ? list[i].stake !== w.stake : w.stake > list[i].stake) st[key] = list.map((x, j) => (j === i ? Object.assign({}, x, w) : x));
    invalidate();
  }
  function dropWagers(ids) {
    const st = S.state;
    if (!st || !ids.length) return;
    const gone = new Set(ids);
    for (const k of ['wagers', 'riding', 'dragon']) if (st[k]) st[k] = st[k].filter((w) => !gone.has(w.id));
    invalidate();
  }

  const bets = Bac.createBets({ S, tableId, invalidate, setBalance, mergeWager, dropWagers });
  const panels = Bac.createPanels({ S, tableId });
  const rules = Bac.createRules({ S, tableId, invalidate });
  const squeeze = Bac.createSqueeze({ S, tableId, invalidate });
  const video = Bac.createVideo({ S, invalidate });
  const stage = Bac.createStage({ S, el });
  // What was written before the table's currency was known is written again in it.
  if (window.BacCurrency) {
    let units = window.BacCurrency.units();
    window.BacCurrency.onChange(() => {
      if (units === window.BacCurrency.units()) { invalidate(); return; } // the sign alone: only the stage and bets use it
      units = window.BacCurrency.units();
      if (S.rules) rules.render();
      if (S.me) panels.refreshSoon();
      invalidate();
    });
  }
  const roadsPanel = new Bac.RoadsPanel(document.getElementById('roads'));
  const roadStrip = new Bac.RoadStrip(document.getElementById('road-strip'));
  Bac.topbarTools(el.tools, { sound: true });

  // ---- the stage: phase, countdown, cards, result -----------------------------------------
  // The result the stage shows (table-video.js: the video's round, once it shows it settled).
  function currentResult() {
    return S.shown ? S.shown.result : null;
  }
  function renderStage() {
    const st = S.state;
    const res = currentResult();
    const banner = video.banner(st, S.shown.state);
    setText(el.phase, phaseText(banner, S.game));
    setAttr(el.phase, 'data-phase', banner.phase);
    setText(el.roundNo, banner.round || '–');
    const shoe = S.shown.state.shoe || {};
    setText(el.shoeNo, shoe.number || '–');
    setText(el.shoeLeft, shoe.left !== undefined ? shoe.left : '–');
    const flags = [];
    if (shoe.live) flags.push('live');
    if (shoe.ending) flags.push('last_round');
    if (!shoe.active && !st.closed) flags.push('shoe_change'); // a closed table's shoe ended with it
    const fk = flags.join('|');
    if (el.shoeFlags.dataset.k !== fk) {
      el.shoeFlags.dataset.k = fk;
      el.shoeFlags.textContent = '';
      for (const f of flags) el.shoeFlags.appendChild(h('span', { class: 'badge ' + (f === 'live' ? '' : 'badge-warn') }, t('shoe.' + f)));
    }
    // Bet on Baccarat: which of the three betting rounds is open.
    const multi = gameHasDecimal(S.game);
    // Its place is kept between betting rounds (out of sight), so the bets do not jump.
    show(el.bettingRound, multi);
    toggle(el.bettingRound, 'is-idle', !(st.bet_open && !st.interrupted));
    if (multi) {
      setText(el.bettingRound, t('bob.round', { n: st.betting_round || 1 }) + ': ' +
        (st.betting_round > 1 ? t(st.betting_round === 2 ? 'bob.after_p1' : 'bob.after_b1') : t('bob.first')));
    }
    renderBanner();
    stage.renderCards();
    stage.renderResult(res);
    tick();
  }
  // The banner: an interruption or a withdrawal window, and the round under way when the pit
  // paused the table (it is the last before the pause). A closed table says so below it, with
  // the way back to the lobby.
  function renderBanner() {
    const st = S.state;
    renderClosed(!!st.closed);
    const lastRound = !!st.paused && !st.closed && ['betting', 'closed', 'dealing'].includes(st.phase);
    const on = !!(st.interrupted || st.withdrawal_window || lastRound);
    show(el.banner, on);
    setAttr(el.banner, 'data-paused', lastRound ? 'true' : null);
    if (!on) return;
    const x = [];
    if (st.interrupted && st.withdrawal_window) x.push(t('banner.interrupted_window'));
    else if (st.interrupted) x.push(t('banner.interrupted'));
    else if (st.withdrawal_window) x.push(t('banner.window'));
    if (st.pending && st.pending.length) x.push(t('banner.pending', { cards: st.pending.join(' ') }));
    if (lastRound) x.push(t('banner.paused_last'));
    setText(el.bannerText, x.join(' '));
    show(el.withdrawAll, !!st.withdrawal_window && !!S.me && mine(st.wagers).length > 0);
  }
  function renderClosed(closed) {
    if (!closed && !el.closed) return;
    if (!el.closed) {
      el.closed = h('div', { class: 'alert', id: 'table-closed', role: 'status' }, h('span', null, t('banner.closed')), ' ',
        h('a', { class: 'btn btn-sm', id: 'table-closed-lobby', href: '/' }, t('banner.closed_lobby')));
      el.banner.after(el.closed);
    }
    show(el.closed, closed);
  }

  // The countdown runs on server time; only its text changes four times a second. While the
  // stream is down it stays where it was, marked paused: the page no longer knows the table.
  function tick() {
    const st = S.state;
    setAttr(el.countdown, 'data-paused', S.offline ? 'true' : null);
    if (S.offline) { toggle(el.countdown, 'urgent', false); return; }
    let text = '';
    if (st && st.bet_open && !st.interrupted && !video.closedForViewer()) {
      const s = video.secondsLeft(st);
      if (s !== null) text = String(Math.ceil(s));
    }
    setText(el.countdown, text);
    toggle(el.countdown, 'urgent', text !== '' && Number(text) <= 5);
  }
  setInterval(tick, 250);

  // ---- messages ----------------------------------------------------------------------------
  function applySnapshot(m) {
    if (m.names) Bac.rememberNames(m.names);
    if (m.server_time) clock.sync(m.server_time);
    if (m.table) {
      S.table = m.table;
      if (window.BacCurrency) window.BacCurrency.set(m.table.minor_units, m.table.currency);
      const acct = $('#account-link');
      if (acct) acct.href = '/account' + (tableCurrency() ? '?currency=' + encodeURIComponent(tableCurrency()) : '');
    }
    if (m.game) S.game = m.game;
    video.configure(S.table);
    setText(el.tableName, Bac.nameOf(S.table, tableId));
    const gname = Bac.gameName((S.game && S.game.id) || (S.table && S.table.game), S.game && S.game.name);
    setText(el.gameName, S.table && (gname === S.table.name || gname === Bac.nameOf(S.table)) ? '' : gname);
    document.title = Bac.nameOf(S.table, tableId) + ' · Baccarat';
    bets.build(S.game);
    if (m.roads) setRoads(m.roads);
    setState(m.state);
    showBalance();
    if (S.syncing) conn.backInSync();
    const st = m.state;
    if (st && (st.phase === 'settled' || st.phase === 'void') && !(S.result && S.result.round === st.round)) fetchLastResult(st.round);
  }
  function setState(st) {
    if (!st) return;
    S.state = st;
    invalidate();
  }
  // The roads arrive with the server's state; the stage paints those its video has reached.
  function setRoads(r) {
    S.roads = r;
    invalidate();
  }
  let roadsKey = '';
  function paintRoads(r) {
    if (!r) return;
    const key = JSON.stringify(r);
    if (key === roadsKey) return; // a polled snapshot repeats the roads it already sent
    roadsKey = key;
    roadsPanel.update(r);
    roadStrip.update(r);
    const left = S.shown && S.shown.state.shoe ? S.shown.state.shoe.left : null;
    Bac.renderStats(el.stats, r && r.stats, left);
    setText(el.roadsShoe, r && r.stats ? Bac.tn('road.hands_this_shoe', r.stats.hands) : '');
  }
  async function fetchLastResult(round) {
    if (!S.me) return;
    try {
      const list = await api('GET', '/api/tables/' + encodeURIComponent(tableId) + '/rounds?limit=1');
      const r = list && list[0];
      if (!r || r.round !== round || (S.result && S.result.round === round)) return;
      const voided = (r.events || []).find((e) => e.type === 'round_voided');
      const reason = r.void || (voided && voided.reason) || '';
      S.result = { round, result: r.result || null, settlements: mine(r.settlements).length ? mine(r.settlements) : r.settlements || [],
        voided: !r.result && !!reason, reason };
      invalidate();
    } catch (e) { /* the banner falls back to the shoe results */ }
  }

  // The settlements already known for a round (the caller's copy may come before or after).
  function keptSettlements(round) {
    return S.result && S.result.round === round ? S.result.settlements || [] : [];
  }
  // A public event: what everyone sees. Settlement events carry the result; the player's own
  // settlements come in their "mine" copy (onMine).
  function onEvent(e) {
    switch (e.type) {
      case 'round_settled':
        S.result = { round: e.round, result: e.result, settlements: mine(e.settlements).length ? mine(e.settlements) : keptSettlements(e.round), seq: e.seq };
        video.hold(e.at, panels.refreshSoon);
        break;
      case 'round_voided':
        S.result = { round: e.round, voided: true, reason: e.reason, settlements: mine(e.settlements).length ? mine(e.settlements) : keptSettlements(e.round), seq: e.seq };
        video.hold(e.at, () => {
          toast(t('toast.void', { n: e.round }) + (e.reason ? ' (' + humanize(e.reason) + ')' : '') + t('toast.void_returned'), { kind: 'error', code: e.reason });
          panels.refreshSoon();
        });
        break;
      case 'session_settled':
        if (mine(e.settlements).length) onMine(e);
        break;
      case 'shoe_started':
        if (e.shoe && e.shoe.commitment) S.commitments[e.shoe.number] = e.shoe.commitment;
        break;
      case 'shoe_ended':
        if (e.shoe && e.shoe.order && e.shoe.order.length) {
          S.reveal = Object.assign({}, e.shoe, { commitment: e.shoe.commitment || S.commitments[e.shoe.number] || '' });
          try { localStorage.setItem(REVEAL_KEY, JSON.stringify(S.reveal)); } catch (x) { /* full */ }
          panels.renderReveal();
          toast(t('toast.revealed', { n: e.shoe.number }) + (e.shoe.verified === true ? t('toast.verified') : e.shoe.verified === false ? t('toast.not_verified') : ''),
            { kind: e.shoe.verified === false ? 'error' : 'info' });
        } else {
          toast(t('ev.shoe_ended', { n: (e.shoe && e.shoe.number) || '' }));
        }
        break;
      case 'interrupted':
      case 'simultaneous_draw':
      case 'device_reset':
        toast(Bac.describeEvent(e, { game: S.game, me: S.me }), { kind: 'error', code: e.type });
        break;
      case 'cards_corrected':
      case 'limit_changed':
      case 'cut_card':
        toast(Bac.describeEvent(e, { game: S.game, me: S.me }));
        break;
      case 'card_dealt':
        video.hold(e.at, () => Bac.sound.card());
        break;
      default:
        break;
    }
    invalidate();
  }

  // The player's own copy of an event: their wagers and their settlements.
  function onMine(e) {
    const list = e.settlements || [];
    const net = netOf(list);
    switch (e.type) {
      case 'round_settled':
        S.result = { round: e.round, result: e.result || (S.result && S.result.round === e.round ? S.result.result : null), settlements: list, seq: e.seq };
        video.hold(e.at, () => {
          // Even: the stakes came back (a push says what was returned, not the net of 0).
          const back = list.reduce((a, x) => a + BigInt(Math.trunc(Number(x.rides ? 0 : x.returned) || 0)), 0n);
          // (stakes that ride on into the next round came back to nobody: they stay on the spots)
          if (list.length && (net !== 0n || back > 0n)) toast(t(net > 0n ? 'toast.won' : net < 0n ? 'toast.lost' : 'toast.back', { amount: fmtCash(net < 0n ? -net : net === 0n ? back : net) }), { kind: net > 0n ? 'win' : 'info' });
          if (net > 0n) Bac.sound.win();
        });
        break;
      case 'round_voided':
        S.result = { round: e.round, voided: true, reason: e.reason, settlements: list, seq: e.seq };
        break;
      case 'session_settled':
        S.sessionResult = { session: e.session, settlements: list, seq: e.seq };
        video.hold(e.at, () => {
          if (list.length) toast(t('toast.dragon_settled', { net: fmtCashSigned(net) }), { kind: net > 0n ? 'win' : 'info' });
          if (net > 0n) Bac.sound.win();
        });
        break;
      default:
        break;
    }
    invalidate();
  }

  // Re-reads the snapshot after an event the page cannot fold exactly, or after a reconnect
  // that replayed what was missed. Spread out a little so a table's players do not all ask at once.
  let resyncTimer = 0;
  let resyncTries = 0;
  function scheduleResync(delay) {
    clearTimeout(resyncTimer);
    resyncTimer = setTimeout(resync, delay !== undefined ? delay : 200 + Math.random() * 800);
  }
  async function resync() {
    try {
      const snap = await api('GET', '/api/tables/' + encodeURIComponent(tableId));
      if (S.state && snap && snap.state && snap.state.seq < S.state.seq) {
        // Events overtook the snapshot: ask again shortly (a few times at most).
        if (++resyncTries <= 3) scheduleResync(S.syncing ? 150 : 1000);
        else if (S.syncing) conn.backInSync(); // the events that overtook it are exact too
        return;
      }
      resyncTries = 0;
      applySnapshot(snap);
      video.record({ type: 'snapshot', server_time: snap.server_time });
      if (S.me) await readBalance();
    } catch (e) {
      if (S.syncing) scheduleResync(1000); // keep the overlay until the table is read again
    }
  }

  // ---- the connection: an overlay while the stream is down (table-conn.js) -------------------
  const conn = Bac.createConnection({
    S, el, invalidate,
    resync: () => { resyncTries = 0; scheduleResync(0); },
    retry: () => stream && stream.now(),
  });

  function onMessage(m) {
    take(m);
    video.record(m); // the stage's frame of the state this message left
  }
  function take(m) {
    if (m.names) Bac.rememberNames(m.names); // how the players an event shows are shown
    switch (m.type) {
      case 'snapshot': applySnapshot(m); break;
      case 'event':
        if (!m.event) break;
        if (S.state && Bac.foldEvent(S.state, m.event, S.game)) scheduleResync();
        onEvent(m.event);
        invalidate();
        break;
      case 'mine':
        if (!m.event) break;
        if (S.state) Bac.foldMine(S.state, m.event, S.game);
        onMine(m.event);
        break;
      case 'totals': Bac.foldTotals(S.state, m); invalidate(); break;
      case 'peel': squeeze.onPeel(m); break;
      case 'roads': setRoads(m.roads); break;
      case 'balance': video.hold(undefined, () => setBalance(m.balance, true), 'balance'); break;
      case 'state': setState(m.state); break; // a server that sends whole states
      default: break;
    }
  }
  function onStatus(s, info) {
    if (s === 'reconnecting') conn.goOffline(info);
    else if (s === 'live' && S.offline) conn.backOnline(); // resumed with since=; then the snapshot, exactly
    else if (s === 'live' && info && info.resumed) scheduleResync(300);
    setAttr(el.conn, 'data-status', s);
    setText(el.conn.querySelector('.conn-text'), Bac.has('conn.' + s) ? t('conn.' + s) : s);
  }

  // ---- start --------------------------------------------------------------------------------
  el.withdrawAll.addEventListener('click', () => bets.clearAll());
  try {
    const saved = JSON.parse(localStorage.getItem(REVEAL_KEY) || 'null');
    if (saved && saved.order) { S.reveal = saved; panels.renderReveal(); }
  } catch (e) { /* ignore */ }

  let stream = null;
  async function start() {
    if (!tableId) {
      setText(el.phase, t('table.none'));
      return;
    }
    stream = new Bac.TableStream(tableId, {
      onMessage, onStatus,
      poll: () => api('GET', '/api/tables/' + encodeURIComponent(tableId)),
      // A tournament's session table retires after its session: tournament-table.js says so.
      onMissing: () => { setText(el.phase, t('table.missing', { id: tableId })); onStatus('gone'); window.dispatchEvent(new Event('bac:table-missing')); },
    });
    stream.connect();
    rules.load();
    S.me = await Bac.loadMe();
    Bac.renderWho(el.who, S.me);
    show($('#account-link'), !!S.me && S.me.role === 'player');
    // The balance in the table's currency, once the table is known (else its snapshot shows
    // it); at a chip table the account's, as tournament-table.js expects.
    if (S.me) showBalance();
    else Bac.renderBalance(el.balance, null);
    invalidate();
    panels.loadHistory(); // says "sign in to recall" when the server wants a token
    document.addEventListener('visibilitychange', async () => {
      if (document.visibilityState !== 'visible' || !S.me) return;
      try { await readBalance(); } catch (e) { /* keep the last */ }
    });
  }
  start();
  // For tests and debugging: dropConnection(ms) cuts the stream and keeps the network "down"
  // for ms, through the same path a real drop takes (onclose, backoff, since=, snapshot).
  window.BacTable = { S, invalidate, video, get stream() { return stream; }, dropConnection: (ms) => stream && stream.cut(ms) };
})(window.Bac));
