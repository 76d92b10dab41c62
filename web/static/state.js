/* state.js: keeps a page's copy of the table state (Go table.State) up to date between
   snapshots. The stream sends events, not states (web/API.md): each event is folded in the
   way table.on folds it, for the fields a page shows. Nothing here computes money: stakes,
   totals and balances are copied from the server's messages. Where an event's effect cannot
   be folded exactly (a correction, a device reset, a simultaneous draw, a new shoe) the fold
   says so and the page re-reads the snapshot. A squeezed card (hidden) comes face down, without
   its value, to all but its squeezer, whose own copy turns it up; the reveal turns it up for
   everyone. Needs app.js. */
'use strict';
(function (Bac) {
  const LETTER = { banker: 'B', player: 'P', tie: 'T' };
  const HAS_DRAGON = (game) => !!(game && (game.bets || []).some((b) => b.kind === 'dragon'));
  // A hand's first two positions, in deal order: what a squeeze hides and its reveal shows.
  const SQUEEZED = { player: ['P1', 'P2'], banker: ['B1', 'B2'] };

  function ensure(st) {
    for (const k of ['cards', 'wagers', 'riding', 'dragon', 'prices', 'shoe_results', 'pending']) if (!Array.isArray(st[k])) st[k] = [];
    if (!st.shoe) st.shoe = {};
    if (!st.totals) st.totals = {};
    if (!st.limits) st.limits = {};
    if (!st.session) st.session = {};
  }
  function endRound(st, phase) {
    st.phase = phase;
    st.bet_open = false;
    st.prices = [];
    st.interrupted = false;
    st.withdrawal_window = false;
    st.pending = [];
    st.wagers = [];
    st.totals = {};
    st.until = undefined;
    st.next_position = 'none';
    st.squeeze = null;
  }
  // The Dragon session view after one more result (ties neither break nor extend a streak).
  function addSessionResult(session, letter) {
    session.results = String(session.results || '') + letter;
    session.hands = (session.hands || 0) + 1;
    let cur = '', run = 0, lb = 0, lp = 0;
    for (const ch of session.results) {
      if (ch !== 'B' && ch !== 'P') continue;
      run = ch === cur ? run + 1 : 1;
      cur = ch;
      if (ch === 'B') lb = Math.max(lb, run); else lp = Math.max(lp, run);
    }
    session.longest_banker = lb;
    session.longest_player = lp;
    session.current = cur;
    session.current_run = run;
  }

  // foldEvent applies a public event ("type":"event") to st. It returns true when the page
  // should re-read the snapshot. Events at or below st.seq are already in st and change nothing.
  function foldEvent(st, e, game) {
    if (!st || !e || typeof e.seq !== 'number' || e.seq <= (st.seq || 0)) return false;
    ensure(st);
    st.seq = e.seq;
    switch (e.type) {
      case 'shoe_started': {
        const s = e.shoe || {};
        st.shoe = { active: true, number: s.number, decks: s.decks, live: !!s.live, left: s.cards, ending: false, commitment: s.commitment };
        st.shoe_results = [];
        return true;
      }
      case 'shoe_ended':
        st.shoe.active = false;
        st.shoe.ending = false;
        st.shoe_results = [];
        return false;
      case 'cut_card':
        st.shoe.ending = true;
        return false;
      case 'betting_opened':
        st.bet_open = true;
        st.betting_round = e.betting_round || 1;
        st.until = e.until;
        st.prices = e.prices || [];
        if (st.betting_round > 1) return false; // Bet on Baccarat's rounds 2 and 3 open inside dealing
        st.round = e.round;
        st.phase = 'betting';
        st.cards = [];
        st.interrupted = false;
        st.withdrawal_window = false;
        st.pending = [];
        st.wagers = st.riding.map((w) => Object.assign({}, w, { round: e.round, riding: true })); // RWS 3.9
        st.riding = [];
        st.totals = {};
        st.next_position = 'none';
        st.squeeze = null;
        return false;
      case 'betting_closed':
        st.bet_open = false;
        st.prices = [];
        st.withdrawal_window = false;
        st.until = undefined;
        if (st.phase === 'betting') st.phase = 'closed';
        return false;
      case 'card_dealt': {
        const c = e.card || {};
        st.phase = 'dealing';
        if (!st.cards.some((x) => x.position === c.position)) st.cards = st.cards.concat([c]);
        if (typeof c.left === 'number') st.shoe.left = c.left;
        return false;
      }
      case 'squeeze_started':
        st.squeeze = { side: e.side, squeezer: e.player, until: e.until };
        return false;
      case 'squeeze_ended': {
        st.squeeze = null;
        const pos = SQUEEZED[e.side] || [];
        (e.cards || []).forEach((card, i) => turnUp(st, pos[i], card));
        return false;
      }
      case 'cards_corrected': {
        const pos = st.cards.map((c) => c.position);
        st.cards = (e.cards || []).map((card, i) => ({ card, position: pos[i] || '' }));
        return true;
      }
      case 'simultaneous_draw':
        st.pending = e.cards || [];
        st.withdrawal_window = !!e.window;
        return true;
      case 'interrupted':
        st.interrupted = true;
        st.withdrawal_window = !!e.window;
        return false;
      case 'resumed':
        st.interrupted = false;
        st.withdrawal_window = false;
        st.pending = [];
        return true;
      case 'device_reset':
        st.phase = 'betting';
        st.bet_open = true;
        st.withdrawal_window = true;
        return true;
      case 'round_settled': {
        const r = e.result || {};
        endRound(st, 'settled');
        const letter = LETTER[r.winner] || '';
        if (letter) {
          st.shoe_results = st.shoe_results.concat([{ winner: letter, player_pair: !!r.player_pair, banker_pair: !!r.banker_pair, natural: !!r.natural }]);
          if (HAS_DRAGON(game)) addSessionResult(st.session, letter);
        }
        return false;
      }
      case 'round_voided':
        endRound(st, 'void');
        return false;
      case 'session_settled':
        st.dragon = [];
        st.session = { number: (e.session || 0) + 1, hands: 0, length: st.session.length, results: '', longest_banker: 0, longest_player: 0 };
        return false;
      case 'table_paused': // the round under way, if any, goes on to its end
        st.paused = true;
        return false;
      case 'table_reopened':
        st.paused = false;
        return false;
      case 'table_closed':
        st.closed = true;
        return false;
      case 'limit_changed':
        if (e.setting === 'area_limit') st.max_wagers_per_area = e.count;
        else if (e.setting === 'differential') st.differential = e.amount || 0;
        else if (e.bet && e.limit) st.limits = Object.assign({}, st.limits, { [e.bet]: e.limit });
        return false;
      case 'wager_placed': // a dealer's or pit's full view sees every wager as an event
        return foldWager(st, e, game);
      case 'wager_raised':
      case 'wager_lowered':
        restake(st, e);
        return false;
      case 'wager_withdrawn':
        dropWagers(st, (e.withdrawn || []).map((w) => w.id));
        return false;
      default:
        return false;
    }
  }

  // turnUp shows the card at a position face up. It makes a new object: a page that kept the
  // old one to compare with sees the change.
  function turnUp(st, position, card) {
    if (!position || !card) return;
    st.cards = st.cards.map((c) => (c.position === position ? { card, position, left: c.left, hidden: false } : c));
  }

  function foldWager(st, e, game) {
    const w = e.wager;
    if (!w) return false;
    const bet = Bac.betOf(game, w.bet);
    const key = bet && bet.kind === 'dragon' ? 'dragon' : 'wagers';
    if (key === 'wagers' && w.round !== st.round) return false;
    if (!st[key].some((x) => x.id === w.id)) st[key] = st[key].concat([w]);
    return false;
  }
  // restake sets a wager's new total after a chip raised it or was taken back: a spot holds
  // one wager a round, and the event carries it at its new total (its stake).
  function restake(st, e) {
    const w = e.wager;
    if (!w) return;
    for (const k of ['wagers', 'dragon']) {
      if ((st[k] || []).some((x) => x.id === w.id)) st[k] = st[k].map((x) => (x.id === w.id ? Object.assign({}, x, { stake: w.stake }) : x));
    }
  }
  function dropWagers(st, ids) {
    if (!ids.length) return;
    const gone = new Set(ids);
    for (const k of ['wagers', 'riding', 'dragon']) st[k] = (st[k] || []).filter((w) => !gone.has(w.id));
  }

  // foldMine applies the caller's own copy of an event ("type":"mine"): their wagers, their
  // settlements (a wager that pushed on an RWS Tie rides into the next round), and the cards
  // they squeeze.
  function foldMine(st, e, game) {
    if (!st || !e || typeof e.seq !== 'number') return false;
    ensure(st);
    switch (e.type) {
      case 'wager_placed':
        if (e.seq <= (st.seq || 0)) return false;
        st.seq = e.seq;
        return foldWager(st, e, game);
      case 'wager_raised':
      case 'wager_lowered':
        if (e.seq <= (st.seq || 0)) return false;
        st.seq = e.seq;
        restake(st, e);
        return false;
      case 'wager_withdrawn':
        if (e.seq <= (st.seq || 0)) return false;
        st.seq = e.seq;
        dropWagers(st, (e.withdrawn || []).map((w) => w.id));
        return false;
      case 'card_dealt': {
        // A card the caller squeezes, with its value: the same seq as the face-down public copy,
        // which came first. It stays hidden (face down on the table) until the reveal.
        const c = e.card || {};
        if (!c.card || (e.round && st.round && e.round !== st.round)) return false;
        if (!st.cards.some((x) => x.position === c.position)) st.cards = st.cards.concat([c]);
        else st.cards = st.cards.map((x) => (x.position === c.position && !x.card ? c : x));
        return false;
      }
      case 'round_settled': {
        // The same seq as the public copy, which came first.
        if (e.seq < (st.seq || 0)) return false;
        const rides = (e.settlements || []).filter((s) => s.rides);
        if (rides.length) {
          const have = new Set(st.riding.map((w) => w.id));
          st.riding = st.riding.concat(rides.filter((s) => !have.has(s.wager)).map((s) => ({ id: s.wager, round: e.round,
            player: s.player, seat: s.player, bet: s.bet, stake: s.stake, riding: true })));
        }
        return false;
      }
      default:
        return false;
    }
  }

  // foldTotals applies a "totals" message (the stakes on every bet of the round).
  function foldTotals(st, m) {
    if (!st || !m || !m.totals) return;
    if (m.round && st.round && m.round !== st.round) return;
    st.totals = m.totals;
  }

  Object.assign(Bac, { foldEvent, foldMine, foldTotals });
})(window.Bac);
