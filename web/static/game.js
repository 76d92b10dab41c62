/* game.js: the game's things in the page's language, for every page that loads app.js: cards
   (their names, faces and backs, a hand's total while cards arrive), bets, games and pay tiers
   by their ids, winners, a table's phase as the banner says it, and table and tournament names.
   Loaded right after app.js, whose Bac it adds to. */
'use strict';
(function (global) {
  const Bac = global.Bac;
  const I = global.BacI18n;
  const { t, h } = Bac;

  // ---- cards ----------------------------------------------------------------------------
  const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };
  const suitName = (s) => (SUITS[s] ? t('suit.' + s) : '?');
  function parseCard(text) {
    const s = String(text || '').trim();
    const suit = s.slice(-1).toLowerCase();
    let rank = s.slice(0, -1).toUpperCase();
    if (rank === '10') rank = 'T';
    return { text: s, rank, suit, label: rank === 'T' ? '10' : rank, symbol: SUITS[suit] || '?', red: suit === 'd' || suit === 'h' };
  }
  function cardValue(text) {
    const r = parseCard(text).rank;
    if (r === 'A') return 1;
    const n = parseInt(r, 10);
    return n >= 2 && n <= 9 ? n : 0;
  }
  // A hand's total for display while cards arrive; the settled result carries the server's.
  function handTotal(cards) {
    let sum = 0;
    for (const c of cards) sum += cardValue(c);
    return sum % 10;
  }
  // A card, or its back when there is no value: a squeezed card is face down to all but its
  // squeezer (and a face-down card has no data-card).
  function cardEl(text, position, opts) {
    const size = (opts && opts.small ? ' card-sm' : '') + (position === 'P3' || position === 'B3' ? ' card-third' : '');
    const where = position ? ' (' + positionName(position) + ')' : '';
    if (!text) {
      const name = t('card.face_down');
      return h('div', { class: 'card card-back' + size, 'data-position': position || null, title: name + where, role: 'img', 'aria-label': name });
    }
    const c = parseCard(text);
    const name = t('card.name', { rank: c.label, suit: suitName(c.suit) });
    return h('div', { class: 'card' + (c.red ? ' red' : '') + size, 'data-card': c.text, 'data-position': position || null,
      title: name + where, role: 'img', 'aria-label': name },
    h('span', { class: 'card-corner' }, h('span', { class: 'card-rank' }, c.label), h('span', { class: 'card-suit' }, c.symbol)),
    h('span', { class: 'card-pip' }, c.symbol));
  }
  function cardInline(text) {
    if (!text) return h('span', { class: 'card-inline card-inline-back', title: t('card.face_down') }, '▮▮');
    const c = parseCard(text);
    return h('span', { class: 'card-inline' + (c.red ? ' red' : ''), 'data-card': c.text }, c.label + c.symbol);
  }
  // "Player, 1st card" for P1.
  function positionName(pos) { return I.has('pos.' + pos) ? t('pos.' + pos) : String(pos || ''); }

  // ---- game data ------------------------------------------------------------------------
  function betOf(game, id) {
    if (game && Array.isArray(game.bets)) for (const b of game.bets) if (b.id === id) return b;
    return null;
  }
  // A bet's name in the page's language (庄 for banker), else the server's.
  let errGame = null; // the game betName last named a bet of, for a refusal's bet (refusalBetName)
  function betName(game, id) {
    if (game) errGame = game;
    if (I.has('bet.' + id)) return t('bet.' + id);
    const b = betOf(game, id);
    if (b && b.name) return b.name;
    const s = String(id || '').replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  // A game's name in the page's language by its id ('game.mbs-tiger'), else the name the
  // server sent, else the id.
  function gameName(id, name) { return id ? I.byId('game.' + id, name || id) : name || ''; }
  // A pay tier's event ({id, event} of a game's or a rules answer's tiers) in the page's
  // language by its id ('tier.banker_on_six'), else the server's English.
  function tierEvent(tier) {
    const text = String((tier && tier.event) || '');
    return tier && tier.id ? I.byId('tier.' + tier.id, text) : text;
  }
  // One of a game's rule lines ({id, text} of a game's or a rules answer's rule_lines) in the page's
  // language by its id ('rule.one_side'), else the server's English.
  function ruleLine(line) {
    const text = String((line && line.text) || '');
    return line && line.id ? I.byId('rule.' + line.id, text) : text;
  }
  // Bet on Baccarat bets are paid at the decimal odds locked when placed.
  function isDecimal(bet) {
    if (!bet) return false;
    if (bet.decimal === true) return true;
    const tiers = bet.tiers || [];
    return tiers.length > 0 && tiers.every((x) => /decimal/i.test(String(x.pays || '')));
  }
  function gameHasDecimal(game) {
    return !!(game && (game.bets || []).some(isDecimal));
  }
  // Prices arrive as {bet, offered, odds}; accept Go's untagged field names too.
  function normPrices(list) {
    const out = {};
    for (const p of list || []) {
      const bet = p.bet !== undefined ? p.bet : p.Bet;
      if (!bet) continue;
      const odds = p.odds !== undefined ? p.odds : p.Odds;
      const offered = p.offered !== undefined ? p.offered : p.Offered;
      out[bet] = { bet, offered: !!offered, odds: odds === null || odds === undefined ? '' : String(odds) };
    }
    return out;
  }
  const WINNER_KEYS = { banker: 'B', player: 'P', tie: 'T', B: 'B', P: 'P', T: 'T' };
  // winnerName('banker') or ('B') → "Banker" (庄).
  function winnerName(w) { return WINNER_KEYS[w] ? t('side.' + WINNER_KEYS[w]) : humanize(w); }
  // A code (a void reason, an event type) in words: its translation, else the code spelled out.
  function humanize(code) {
    if (I.has('reason.' + code)) return t('reason.' + code);
    const s = String(code || '').replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  // The phase a player reads in the banner. A table the pit paused says so once the round
  // under way (which goes on to its end) is over; a closed one says so.
  function phaseText(state, game) {
    if (!state) return t('phase.connecting');
    if (state.closed) return t('phase.table_closed');
    if (state.paused && !['betting', 'closed', 'dealing'].includes(state.phase)) return t('phase.paused');
    if (state.interrupted) return t('phase.interrupted');
    if (state.squeeze) return t('phase.squeeze', { side: winnerName(state.squeeze.side) });
    const multi = gameHasDecimal(game);
    switch (state.phase) {
      case 'betting': return t('phase.betting');
      case 'closed': return t('phase.closed');
      case 'dealing':
        if (state.bet_open) return multi ? t('phase.betting_round', { n: state.betting_round }) : t('phase.betting');
        return t('phase.dealing');
      case 'settled': return t('phase.settled');
      case 'void': return t('phase.void');
      case 'idle':
      default:
        if (state.shoe && !state.shoe.active) return t('phase.shoe_change');
        return t('phase.idle');
    }
  }

  // A table's name in the page's language: its "names" entry for the language (GET
  // /api/tables), else its name.
  function nameOf(x, fallback) {
    const own = x && x.names && x.names[I.lang];
    return own || (x && x.name) || fallback || '';
  }
  // A tournament's name as the pages show it: the one for the page's language (its config's
  // "names"), else its name. Older demo tournaments carry their start as a UTC time in the
  // name ("… · 15:04 UTC"): the pages show that start in the viewer's local time instead, as
  // they show every date.
  function tournamentName(x) {
    const own = x && x.config && x.config.names && x.config.names[I.lang];
    if (own) return own;
    const name = String((x && x.name) || '');
    const m = /\s*·\s*\d{1,2}:\d{2}\s*UTC$/.exec(name);
    if (!m) return name;
    const d = new Date(x.config && x.config.start);
    return name.slice(0, m.index) + (Number.isNaN(d.getTime()) ? '' : ' · ' + d.toLocaleTimeString(I.lang, { hour: '2-digit', minute: '2-digit' }));
  }

  // A bet a refusal names (its params' bet or side), by the game the page last named a bet of:
  // a refusal does not say its game.
  function refusalBetName(id) { return betName(errGame, id); }

  Object.assign(Bac, {
    parseCard, cardValue, handTotal, cardEl, cardInline, positionName, betOf, betName, refusalBetName, gameName, tierEvent, ruleLine,
    isDecimal, gameHasDecimal, normPrices, winnerName, humanize, phaseText, tournamentName, nameOf,
  });
})(window);
