/* table-bets.js: the betting layout of the player's table, built from GAME (every bet of the
   game, main bets large, side bets small, Dragon bets in the Dragon panel), the chip tray, and
   Undo (table-undo.js) / Clear / Rebet / Double. Every amount shown is the server's: stakes from state.wagers,
   table totals from state.totals, balances from the server's answers. A spot the table's
   placement rules would refuse now (RWS 3.3 one side, RWS 3.4 side bets beside a main bet; a
   Bet on Baccarat bet not offered; the connection down) is disabled and says why. Once the
   round is settled each spot says how it went (won, lost, push: data-outcome) and what came
   back. Needs app.js and table-undo.js. */
'use strict';
(function (Bac) {
  const { api, h, setText, setAttr, toggle, fmtMoney, fmtCash, chipLabel, uuid, toast, toastError, betOf, betName, isDecimal, normPrices, t, tn } = Bac;

  // The chip set of a table, in its currency: six face values of the casino ladder 1, 5, 25,
  // 100, 500, 1K, 5K, 25K, 100K, 500K, 1M… of the major unit (1, 5, 25, 100, 500, then a
  // thousandfold), from the first at or above both the table's smallest main-bet minimum and
  // one major unit, and none above its largest main-bet maximum. With the default limits
  // (100 to 1,000,000 minor units): play money and USD 1, 5, 25, 100, 500, 1K; BHD (3
  // decimals, minimum 0.100) 1, 5, 25, 100, 500, 1K BHD; JPY (no decimals, minimum ¥100) ¥100,
  // 500, 1K, 5K, 25K, 100K. A range that holds none gets one chip, its minimum. The values are
  // in minor units (data-chip: 100 … 100000 at a play-money table).
  const LADDER = [1n, 5n, 25n, 100n, 500n];
  const CHIP_CLASSES = ['v1', 'v5', 'v25', 'v100', 'v500', 'v1000']; // the colours, by place in the set
  const CHIP_KEY = 'baccarat.chip'; // + '.' + the currency, but for play money
  // At a tournament's chip table (stakes: its currency is CHIPS:<id>) the set follows the
  // stakes instead, so that every chip can be placed: the minimum first, then the 1-2-5 values
  // above it (10K, 20K, 50K, 100K, …) up to the maximum, six at most.
  const STEPS = [1n, 2n, 5n];
  function stakesSet(lo, hi, one) {
    const first = lo !== null && lo > 0n ? lo : one;
    const out = [first];
    for (let scale = 1n; out.length < 6 && scale <= 10n ** 15n; scale *= 10n) {
      for (const m of STEPS) {
        const v = m * scale;
        if (v <= first) continue;
        if ((hi !== null && v > hi) || out.length >= 6) break;
        out.push(v);
      }
      if (hi !== null && scale > hi) break;
    }
    return out.map(Number);
  }
  function chipSet(st, game, units, stakes) {
    const one = 10n ** BigInt(units);
    let lo = null, hi = null, open = false;
    for (const b of (game && game.bets) || []) {
      const l = b.kind === 'main' && st && st.limits && st.limits[b.id];
      if (!l) continue;
      const mn = BigInt(Math.trunc(Number(l.min) || 0));
      const mx = BigInt(Math.trunc(Number(l.max) || 0));
      if (lo === null || mn < lo) lo = mn;
      if (mx === 0n) open = true;
      else if (hi === null || mx > hi) hi = mx;
    }
    if (open) hi = null;
    if (stakes) return stakesSet(lo, hi, one);
    const floor = lo !== null && lo > one ? lo : one;
    const out = [];
    for (let scale = one; out.length < 6 && scale <= 10n ** 15n; scale *= 1000n) {
      for (const m of LADDER) {
        const v = m * scale;
        if (v < floor) continue;
        if ((hi !== null && v > hi) || out.length >= 6) break;
        out.push(v);
      }
      if (hi !== null && scale > hi) break;
    }
    if (!out.length) out.push(lo !== null && lo > 0n ? lo : one);
    return out.map(Number);
  }
  const STOP_CODES = new Set(['insufficient_funds', 'betting_closed', 'unauthorized', 'not_authorized', 'bad_state']);
  // Keyboard: P Player, B Banker, T Tie (with 1–6 chips, U undo, R rebet, D double).
  const SPOT_KEYS = { p: 'player', b: 'banker', t: 'tie' };

  function tone(id) {
    if (/^player/.test(id)) return 'tone-player';
    if (/^banker|tiger/.test(id) && id !== 'tiger_tie') return 'tone-banker';
    if (/tie/.test(id)) return 'tone-tie';
    return '';
  }
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // A Dragon tier as its spot says it, by the tier's id with the streak its event names:
  // ruby_dragon "…longest streak 5" → "Ruby 5", royal_dragon → "Royal 7+" ('tier.<id>.short');
  // the whole event where there is no short form.
  function tierLabel(tier) {
    const n = /\d+/.exec(String(tier.event || ''));
    const key = 'tier.' + tier.id + '.short';
    return tier.id && n && Bac.has(key) ? t(key, { n: n[0] }) : Bac.tierEvent(tier);
  }

  // ctx: {S, tableId, invalidate(), setBalance(n), mergeWager(w), dropWagers(ids)}
  Bac.createBets = function (ctx) {
    const S = ctx.S;
    const el = {
      layout: document.getElementById('layout'),
      dragon: document.getElementById('dragon-bets'),
      chips: document.getElementById('chips'),
      hint: document.getElementById('bet-hint'),
      clear: document.getElementById('clear'),
      rebet: document.getElementById('rebet'),
      double: document.getElementById('double'),
      limitsNote: document.getElementById('limits-note'),
    };
    let chips = [100, 500, 2500, 10000, 50000, 100000]; // until the table's limits are in
    let chip = 10000;
    let chipsFor = '';
    const spots = new Map(); // bet id → {btn, parts}
    let builtFor = '';
    let busy = 0; // batch actions in flight (Rebet, Double)
    const undoer = Bac.createUndo({ S, tableId: ctx.tableId, mine, mergeWager: ctx.mergeWager, dropWagers: ctx.dropWagers,
      setBalance: ctx.setBalance, invalidate: ctx.invalidate });

    // ---- chips ------------------------------------------------------------------------
    // The colour of a chip, or of a stack worth v: the set's largest chip at or under it.
    function chipClass(v) {
      let i = 0;
      chips.forEach((x, j) => { if (v >= x) i = j; });
      return CHIP_CLASSES[Math.min(i, CHIP_CLASSES.length - 1)];
    }
    function currency() { return (S.table && S.table.currency) || ''; }
    function chipKey() {
      const c = currency();
      return c && c !== 'XXX' ? CHIP_KEY + '.' + c : CHIP_KEY;
    }
    // Builds the tray for the table's chip set when its limits or currency change; the chip
    // chosen before at a table of this currency stays chosen, else the set's fourth (or last).
    function buildChips() {
      const units = window.BacCurrency ? window.BacCurrency.units() : 2;
      const set = chipSet(S.state, S.game, units, /^CHIPS:/.test(currency()));
      const key = currency() + '|' + units + '|' + set.join(',');
      if (key === chipsFor) return;
      chipsFor = key;
      chips = set;
      let saved = 0;
      try { saved = Number(localStorage.getItem(chipKey())) || 0; } catch (e) { /* ignore */ }
      chip = chips.includes(saved) ? saved : chips[Math.min(3, chips.length - 1)];
      const cur = currency();
      setAttr(el.chips, 'data-currency', cur || null);
      el.chips.textContent = '';
      for (const v of chips) {
        el.chips.appendChild(h('button', { type: 'button', class: 'chip ' + chipClass(v) + faceClass(chipLabel(v)), 'data-chip': v,
          'aria-pressed': v === chip ? 'true' : 'false', title: t('chip.title', { amount: fmtCash(v) }), 'aria-label': t('chip.title', { amount: fmtCash(v) }),
          onclick: () => selectChip(v) }, chipLabel(v)));
      }
      // The tray says which currency its chips are in (not for play money).
      let tag = document.getElementById('chip-currency');
      if (!tag) {
        tag = h('span', { class: 'chip-currency', id: 'chip-currency' });
        el.chips.parentElement.insertBefore(tag, el.chips);
      }
      setText(tag, cur && cur !== 'XXX' && !/^CHIPS:/.test(cur) ? cur : '');
      tag.hidden = !tag.textContent;
    }
    // A face of four characters or more ("1000", "2.5万", "1.001") takes a smaller font, so
    // every chip's label stays on one line inside it in every language.
    function faceClass(label) {
      const n = Array.from(String(label)).length;
      return n >= 6 ? ' face-6' : n === 5 ? ' face-5' : n === 4 ? ' face-4' : '';
    }
    function selectChip(v) {
      chip = v;
      try { localStorage.setItem(chipKey(), String(v)); } catch (e) { /* ignore */ }
      for (const b of el.chips.querySelectorAll('[data-chip]')) setAttr(b, 'aria-pressed', Number(b.dataset.chip) === v ? 'true' : 'false');
    }

    // ---- the layout, once per game -------------------------------------------------------
    function spotFor(bet) {
      const kind = bet.kind || 'side';
      const cls = 'spot spot-' + kind + (bet.id === 'tie' ? ' spot-tie' : '') + ' ' + tone(bet.id);
      const tiers = bet.tiers || [];
      const name = betName(S.game, bet.id);
      const paysText = (x) => (isDecimal(bet) ? t('spot.decimal_odds') : x.pays);
      const title = name + (tiers.length ? ': ' + tiers.map((x) => Bac.tierEvent(x) + (x.pays ? ' ' + t('spot.pays', { pays: paysText(x) }) : '')).join('; ') : '');
      const parts = {
        pays: h('span', { class: 'spot-pays' }),
        limits: h('span', { class: 'spot-limits' }),
        total: h('span', { class: 'spot-total' }),
        outcome: h('span', { class: 'spot-outcome' }),
        back: h('span', { class: 'spot-back' }),
        why: h('span', { class: 'spot-why', id: 'why-' + bet.id }),
        // The player's chips sit in the flow below the labels, never over them.
        stack: h('span', { class: 'chip-stack', hidden: true },
          h('span', { class: 'chip' }), h('span', { class: 'mine-amount' }), h('span', { class: 'mine-count' })),
      };
      const btn = h('button', { type: 'button', class: cls, 'data-bet': bet.id, 'data-kind': kind, title,
        'aria-describedby': 'why-' + bet.id, onclick: () => onSpot(bet.id) },
      h('span', { class: 'spot-name' }, name),
      parts.pays,
      kind === 'dragon' ? h('span', { class: 'tiers' }, tiers.map((x) => h('div', null, tierLabel(x) + ' ' + x.pays))) : null,
      parts.limits, parts.total, parts.outcome, parts.back, parts.stack, parts.why);
      spots.set(bet.id, { btn, parts, bet, last: {} });
      return btn;
    }
    function build(game) {
      const key = game ? game.id + ':' + (game.bets || []).map((b) => b.id).join(',') : '';
      if (key === builtFor) return;
      builtFor = key;
      spots.clear();
      el.layout.textContent = '';
      el.dragon.textContent = '';
      if (!game) return;
      const bets = game.bets || [];
      const main = bets.filter((b) => b.kind === 'main');
      const tie = bets.find((b) => b.id === 'tie' && b.kind !== 'main');
      const side = bets.filter((b) => b.kind === 'side' && b !== tie);
      const dragon = bets.filter((b) => b.kind === 'dragon');
      if (side.length) el.layout.appendChild(h('div', { class: 'side-bets' }, side.map(spotFor)));
      const player = main.find((b) => b.id === 'player');
      const banker = main.find((b) => b.id === 'banker');
      const rest = main.filter((b) => b !== player && b !== banker);
      const row = [player, tie, banker].filter(Boolean).map(spotFor);
      el.layout.appendChild(h('div', { class: 'main-bets' + (tie ? '' : ' no-tie') }, row));
      if (rest.length) el.layout.appendChild(h('div', { class: 'side-bets' }, rest.map(spotFor)));
      for (const b of dragon) el.dragon.appendChild(spotFor(b));
      document.getElementById('dragon-panel').hidden = dragon.length === 0;
    }

    // ---- what is mine on each spot -------------------------------------------------------
    function myId() { return S.me && S.me.id; }
    function mine(list) {
      const id = myId();
      return id ? (list || []).filter((w) => w.player === id) : [];
    }
    // The current round's settlement shows on the layout until the next betting opens, once
    // the stage shows it (S.shown: at a table with video, when the video does).
    function settledView() {
      const v = S.shown || { state: S.state, result: S.result };
      const st = v.state;
      if (S.state && S.state.bet_open) return null;
      return st && (st.phase === 'settled' || st.phase === 'void') && v.result && v.result.round === st.round ? v.result : null;
    }
    function stakesByBet() {
      const st = S.state || {};
      const out = new Map();
      const add = (bet, stake, extra) => {
        const cur = out.get(bet) || { sum: 0n, n: 0, riding: false, win: 0, lose: 0, push: 0, void: 0, net: 0n, back: 0n };
        cur.sum += BigInt(Math.trunc(Number(stake) || 0));
        cur.n += 1;
        if (extra) {
          if (extra.riding) cur.riding = true;
          if (extra.outcome === 'win') cur.win++;
          else if (extra.outcome === 'lose') cur.lose++;
          else if (extra.outcome === 'void') cur.void++;
          else if (extra.outcome) cur.push++;
          cur.net += BigInt(Math.trunc(Number(extra.net) || 0));
          cur.back += BigInt(Math.trunc(Number(extra.returned) || 0));
        }
        out.set(bet, cur);
      };
      const sv = settledView();
      if (sv) {
        for (const s of sv.settlements || []) add(s.bet, s.stake, { riding: s.rides, outcome: s.outcome, net: s.net, returned: s.rides ? 0 : s.returned });
      } else {
        for (const w of mine(st.wagers)) add(w.bet, w.stake, { riding: w.riding });
        for (const w of mine(st.riding)) add(w.bet, w.stake, { riding: true });
      }
      for (const w of mine(st.dragon)) add(w.bet, w.stake);
      return out;
    }

    function canPlay() {
      const me = S.me;
      if (!me) return { ok: false, why: t('hint.watching') };
      if (me.role && me.role !== 'player') return { ok: false, why: t('hint.staff', { role: t('role.' + me.role) }) };
      if (S.offline) return { ok: false, why: t('why.offline') };
      return { ok: true };
    }
    // The side of each main wager the player holds this round (riding ones included).
    function heldSides() {
      const held = new Set();
      for (const w of mine((S.state || {}).wagers)) {
        const b = betOf(S.game, w.bet);
        if (b && b.kind === 'main') held.add(w.bet);
      }
      return held;
    }
    // Why the table's placement rules would refuse this bet now, or '' (the table decides;
    // this only saves a refused click). S.rules comes from GET /rules.
    function ruleRefusal(bet, held) {
      const r = S.rules;
      if (!r || bet.kind === 'dragon') return '';
      if (r.one_side && bet.kind === 'main') {
        for (const other of held) if (other !== bet.id) return t('why.one_side', { side: betName(S.game, other) });
      }
      if (r.side_needs_main && bet.kind === 'side' && held.size === 0) return t('why.needs_main');
      return '';
    }
    // Betting follows the server's state; S.viewerClosed: it has ended for this viewer already.
    function bettingOpen() {
      const st = S.state;
      return !!(st && !S.viewerClosed && st.bet_open && !st.interrupted && (st.phase === 'betting' || st.phase === 'dealing'));
    }
    function dragonOpen() {
      const st = S.state;
      return !!(st && !S.viewerClosed && st.phase === 'betting' && st.bet_open && !st.interrupted && st.session && st.session.hands === 0);
    }

    // ---- render from state: only text and attributes that changed are written ---------------
    function update() {
      const st = S.state;
      if (!st || !S.game) return;
      buildChips();
      const prices = normPrices(st.prices);
      const stakes = stakesByBet();
      const play = canPlay();
      const open = bettingOpen();
      const sv = settledView();
      const winner = sv && sv.result ? sv.result.winner : '';
      const held = heldSides();
      for (const [id, s] of spots) {
        const bet = s.bet, p = s.parts;
        const dec = isDecimal(bet);
        const price = prices[id];
        let pays;
        if (dec) pays = price ? (price.offered ? price.odds : t('spot.not_offered')) : '—';
        else if (bet.kind === 'dragon') pays = '';
        else pays = (bet.tiers || []).map((x) => x.pays).filter(Boolean).join(' / ');
        setText(p.pays, pays);
        toggle(s.btn, 'not-offered', dec && !!price && !price.offered);
        setAttr(s.btn, 'data-odds', dec && price && price.offered ? price.odds : null);
        const lim = st.limits && st.limits[id];
        setText(p.limits, lim ? fmtMoney(lim.min) + ' – ' + (lim.max ? fmtMoney(lim.max) : t('limits.no_max')) : '');
        const total = st.totals && st.totals[id];
        setText(p.total, total ? t('spot.table', { amount: fmtMoney(total) }) : '');
        const m = stakes.get(id);
        if (p.stack.hidden !== !m) p.stack.hidden = !m;
        if (m) {
          const chipEl = p.stack.children[0];
          const cc = 'chip ' + chipClass(m.sum) + faceClass(chipLabel(m.sum));
          if (chipEl.className !== cc) chipEl.className = cc;
          setText(chipEl, chipLabel(m.sum));
          setText(p.stack.children[1], fmtMoney(m.sum));
          setText(p.stack.children[2], m.n > 1 ? '×' + m.n : '');
        }
        setAttr(s.btn, 'data-mine', m ? m.sum : null);
        toggle(s.btn, 'has-mine', !!m);
        toggle(s.btn, 'riding', !!(m && m.riding));
        // The round's outcome on the spot: won (and what came back), lost, or a push (the stake back).
        const outcome = sv && m ? (m.win ? 'win' : m.push ? 'push' : m.lose ? 'lose' : m.void ? 'void' : '') : '';
        setAttr(s.btn, 'data-outcome', outcome || null);
        toggle(s.btn, 'won', !!(sv && ((m && m.win) || id === winner)));
        toggle(s.btn, 'lost', outcome === 'lose');
        setText(p.outcome, outcome === 'win' ? '+' + fmtCash(m.net > 0n ? m.net : 0n) : outcome ? t('outcome.' + outcome) : '');
        // Under a push's word the amount alone ("退回" then "退回 500.00" would say it twice).
        setText(p.back, outcome !== 'lose' && outcome && m.back > 0n ? (outcome === 'push' ? fmtCash(m.back) : t('result.back', { amount: fmtCash(m.back) })) : '');
        let enabled = play.ok && (bet.kind === 'dragon' ? dragonOpen() : open);
        let why = '';
        if (enabled && dec && (!price || !price.offered)) { enabled = false; why = t('why.not_offered'); }
        if (enabled && (why = ruleRefusal(bet, held))) enabled = false;
        setText(p.why, why);
        setAttr(s.btn, 'data-why', why || null);
        if (s.btn.disabled === enabled) s.btn.disabled = !enabled;
      }
      const anyMine = mine(st.wagers).length + mine(st.dragon).length > 0;
      const canAct = play.ok && open && !busy;
      undoer.update(canAct, sv && sv.settlements);
      el.clear.disabled = !(canAct && anyMine);
      el.double.disabled = !(canAct && mine(st.wagers).length > 0);
      el.rebet.disabled = !canAct;
      let hint;
      if (!play.ok) hint = play.why;
      else if (st.interrupted) hint = t('hint.interrupted');
      else if (open) hint = t('hint.chip', { amount: fmtCash(chip) });
      else if (st.phase === 'settled' || st.phase === 'void' || st.phase === 'idle') hint = t('hint.waiting');
      else hint = t('hint.closed');
      setText(el.hint, hint);
      const parts = [];
      if (st.max_wagers_per_area) parts.push(t('limits.per_area', { n: st.max_wagers_per_area }));
      if (st.differential) parts.push(t('limits.differential', { amount: fmtMoney(st.differential) }));
      setText(el.limitsNote, parts.join(' · '));
    }

    // ---- placing and withdrawing -----------------------------------------------------------
    // Sends one wager; retries once with the same request id when the network or the server
    // hiccups (the id makes the retry place one wager, not two).
    async function place(betId, stake) {
      const bet = betOf(S.game, betId);
      const body = { bet: betId, stake, seat: '', request_id: uuid() };
      if (isDecimal(bet)) {
        const p = normPrices(S.state && S.state.prices)[betId];
        if (!p || !p.offered) throw new Bac.ApiError(409, 'bet_not_offered', t('why.not_offered'));
        body.odds = p.odds;
      }
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await api('POST', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/wagers', body);
          if (res && res.wager) { ctx.mergeWager(res.wager); undoer.placed(res, stake); Bac.sound.chip(); }
          if (res && typeof res.balance === 'number') ctx.setBalance(res.balance);
          return res;
        } catch (e) {
          if (attempt === 0 && (e.status === 0 || e.status === 503)) { await sleep(600); continue; }
          throw e;
        }
      }
    }
    async function onSpot(betId) {
      const s = spots.get(betId);
      if (!s) return;
      s.btn.classList.add('pending');
      try {
        await place(betId, chip);
      } catch (e) {
        toastError(e);
      } finally {
        s.btn.classList.remove('pending');
        ctx.invalidate();
      }
    }
    async function withdraw(wagerId) {
      const res = await api('POST', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/withdraw', { wager: wagerId });
      const list = (res && res.withdrawn) || [];
      ctx.dropWagers(list.map((w) => w.id));
      if (res && typeof res.balance === 'number') ctx.setBalance(res.balance);
      return list;
    }
    async function clearAll() {
      try {
        const got = await withdraw(0);
        toast(got.length ? tn('toast.withdrawn_n', got.length) : t('toast.nothing_withdrawable'));
      } catch (e) { toastError(e); }
    }
    // Places a list of {bet, stake} one at a time (so refusals come back in order).
    async function placeAll(list, what) {
      if (!list.length) { toast(t('toast.nothing_to.' + what)); return; }
      busy++;
      update();
      let ok = 0;
      const refused = [];
      try {
        for (const w of list) {
          try {
            await place(w.bet, w.stake);
            ok++;
          } catch (e) {
            refused.push(e);
            if (STOP_CODES.has(e.code)) break;
          }
        }
      } finally {
        busy--;
        ctx.invalidate();
      }
      if (refused.length) {
        const e = refused[0];
        toast(t('toast.refused', { ok, n: refused.length, why: Bac.errorText(e) }), { kind: 'error', code: e.code });
      } else {
        toast(t('action.' + what) + ': ' + tn('toast.placed_n', ok));
      }
    }
    // The wagers that played in a recalled round, as {bet, stake}: its settlements (a wager that
    // rides is already on the layout, a Dragon bet belongs to a session), else its wagers less
    // the withdrawn ones.
    function playedWagers(r) {
      const notDragon = (w) => { const b = betOf(S.game, w.bet); return !b || b.kind !== 'dragon'; };
      const own = (list) => (mine(list).length ? mine(list) : list || []);
      const settled = own(r.settlements);
      if (settled.length) return settled.filter((s) => !s.rides && notDragon(s)).map((s) => ({ bet: s.bet, stake: s.stake }));
      const gone = new Set();
      for (const e of r.events || []) for (const w of e.withdrawn || []) gone.add(w.id);
      return own(r.wagers).filter((w) => !gone.has(w.id) && notDragon(w)).map((w) => ({ bet: w.bet, stake: w.stake }));
    }
    async function rebet() {
      let rounds;
      try {
        rounds = await api('GET', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/rounds?limit=5');
      } catch (e) { toastError(e); return; }
      const cur = S.state ? S.state.round : 0;
      const list = (rounds || []).filter((r) => r.round < cur).map(playedWagers).find((l) => l.length);
      if (!list) { toast(t('toast.no_rebet')); return; }
      await placeAll(list, 'rebet');
    }
    async function double() {
      const st = S.state;
      const br = st.betting_round || 1;
      const list = mine(st.wagers).filter((w) => w.round === st.round && (w.betting_round || 1) === br);
      await placeAll(list.map((w) => ({ bet: w.bet, stake: w.stake })), 'double');
    }

    el.clear.addEventListener('click', clearAll);
    el.rebet.addEventListener('click', rebet);
    el.double.addEventListener('click', double);
    document.addEventListener('keydown', (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || S.squeezing) return; // the squeeze panel has the keyboard
      const tg = e.target;
      if (tg && (tg.tagName === 'INPUT' || tg.tagName === 'TEXTAREA' || tg.tagName === 'SELECT')) return;
      const n = Number(e.key);
      const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
      if (n >= 1 && n <= chips.length) { selectChip(chips[n - 1]); ctx.invalidate(); }
      else if (k === 'u' && !document.getElementById('undo').disabled && !document.getElementById('undo').hidden) undoer.undo();
      else if (SPOT_KEYS[k] && spots.has(SPOT_KEYS[k]) && !spots.get(SPOT_KEYS[k]).btn.disabled) onSpot(SPOT_KEYS[k]);
      else if (k === 'r' && !el.rebet.disabled) rebet();
      else if (k === 'd' && !el.double.disabled) double();
    });
    buildChips();

    return { build, update, clearAll, place, selectChip };
  };
})(window.Bac);
