/* events.js: table events and results in words, for the round recall, the dealer's log and the
   result banner, in the page's language; and the recall of one round (its cards in deal order,
   every step, the player's wagers and settlements), shared by the table and the account page.
   Needs app.js. */
'use strict';
(function (Bac) {
  const { fmtMoney, fmtSigned, betName, humanize, winnerName, t, h, cardEl, positionName } = Bac;

  // "Banker wins 7–5", "Tie 9–9", from a round_settled result.
  function resultHeadline(r) {
    if (!r || !r.winner) return '';
    const score = r.player_total !== undefined ? ' ' + (r.winner === 'banker' ? r.banker_total + '–' + r.player_total
      : r.player_total + '–' + r.banker_total) : '';
    if (r.winner === 'tie') return t('result.tie') + score;
    return t('result.wins', { side: winnerName(r.winner) }) + score;
  }
  function resultFlags(r) {
    const f = [];
    if (!r) return f;
    if (r.natural) f.push(t('flag.natural'));
    if (r.player_pair) f.push(t('flag.player_pair'));
    if (r.banker_pair) f.push(t('flag.banker_pair'));
    return f;
  }
  function wagerText(game, w) {
    let s = betName(game, w.bet) + ' ' + fmtMoney(w.stake);
    if (w.odds) s += ' @ ' + w.odds;
    if (w.betting_round > 1) s += ' ' + t('wager.round', { n: w.betting_round });
    if (w.riding) s += ' ' + t('wager.riding');
    return s;
  }
  function settlementText(game, s) {
    let x = betName(game, s.bet) + ' ' + fmtMoney(s.stake) + ': ' + t('outcome.' + s.outcome);
    if (s.outcome === 'win') x += ' ' + fmtSigned(s.net) + (s.pays ? ' ' + t('settle.pays', { pays: s.pays }) : s.odds ? ' ' + t('settle.at', { odds: s.odds }) : '');
    else if (s.outcome === 'lose') x += ' ' + fmtSigned(s.net);
    if (s.rides) x += t('settle.rides');
    else if (s.outcome !== 'lose' && s.returned) x += t('settle.returned', { amount: fmtMoney(s.returned) });
    return x;
  }
  function cardsText(cards) { return (cards || []).join(' '); }

  // Players by name, never by account id: the public table stream and a table's snapshot name
  // a player by a public handle and carry, in "names", how each is shown (web/API.md, "Display
  // names"). rememberNames keeps them; personName words one: their name, "Player 4821" for
  // one without, a bot marked as one; a handle never seen (or a staff view's id) as it is.
  const people = {};
  function rememberNames(names) {
    if (names && typeof names === 'object') Object.assign(people, names);
  }
  function personName(who) {
    const p = who ? people[who] : null;
    if (!p) return who || '';
    const name = p.name || (p.number ? t('name.player_n', { n: p.number }) : who);
    return p.bot ? t('name.bot', { name }) : name;
  }

  // One line for an event. ctx: {game, me} (me: the signed-in account, to mark "you").
  function describeEvent(e, ctx) {
    const game = ctx && ctx.game;
    const myId = ctx && ctx.me && ctx.me.id;
    const why = e.reason ? ' (' + humanize(e.reason) + ')' : '';
    const by = e.actor && e.role && e.role !== 'player' && e.role !== 'system' ? t('ev.by', { who: e.actor }) : '';
    switch (e.type) {
      case 'shoe_started': {
        const s = e.shoe || {};
        return t('ev.shoe_started', { n: s.number || '', decks: s.decks || '?', cards: s.cards || '?' }) +
          (s.live ? t('ev.shoe_live') : '') + (s.commitment ? t('ev.shoe_commitment', { hash: String(s.commitment).slice(0, 12) + '…' }) : '');
      }
      case 'shoe_ended': {
        const s = e.shoe || {};
        let x = t('ev.shoe_ended', { n: s.number || '' }) + why;
        if (s.verified === true) x += t('ev.shoe_verified');
        else if (s.verified === false) x += t('ev.shoe_not_verified');
        return x;
      }
      case 'cut_card': return t('ev.cut_card') + why;
      case 'betting_opened':
        return (e.betting_round > 1 ? t('ev.betting_round_opened', { n: e.betting_round }) : t('ev.betting_opened', { n: e.round || '' })) + by;
      case 'betting_closed': return t('ev.betting_closed') + (e.betting_round > 1 ? ' ' + t('wager.round', { n: e.betting_round }) : '') + by;
      case 'wager_placed': {
        const w = e.wager || {};
        const who = w.player && w.player === myId ? t('ev.your_wager') : w.player ? t('ev.wager_by', { who: personName(w.player) }) : t('ev.wager');
        return who + wagerText(game, w) + (w.placed_by ? ' ' + t('ev.placed_by', { who: w.placed_by }) : '');
      }
      case 'wager_raised': // a chip on a spot raises its one wager; one taken back lowers it
      case 'wager_lowered': {
        const w = e.wager || {};
        const who = w.player && w.player === myId ? t('ev.your_wager') : w.player ? t('ev.wager_by', { who: personName(w.player) }) : t('ev.wager');
        const k = e.type === 'wager_raised' ? 'ev.raised' : 'ev.lowered';
        return who + t(k, { bet: betName(game, w.bet), total: fmtMoney(w.stake), chip: fmtMoney(e.amount) }) + by;
      }
      case 'wager_withdrawn': {
        const list = (e.withdrawn || []).map((w) => wagerText(game, w)).join(', ');
        const who = e.player && e.player === myId ? t('ev.you_withdrew') : e.player ? t('ev.withdrew', { who: personName(e.player) }) : t('ev.withdrawn');
        return who + (list || t('none'));
      }
      case 'card_dealt': {
        const c = e.card || {};
        const card = c.card ? t('ev.card', { card: c.card, pos: positionName(c.position) }) : t('ev.card_down', { pos: positionName(c.position) });
        return card + (c.hidden && c.for ? ' ' + t('ev.card_for', { who: personName(c.for) }) : '') + (c.left !== undefined ? ' ' + t('ev.left', { n: c.left }) : '');
      }
      case 'shoe_passed': { // Method C (Tiger 3.11): who holds the shoe now, and why
        const me = ctx && ctx.me, mine = me && ((me.public && me.public.handle) || me.id);
        const who = !e.player ? '' : mine === e.player ? t('shoe.you') : (personName(e.player) !== e.player ? personName(e.player) : t('shoe.a_player'));
        const why = e.reason && Bac.has('shoe.reason.' + e.reason) ? ' (' + t('shoe.reason.' + e.reason) + ')' : '';
        return (who ? t('shoe.ev_passed', { who }) : t('shoe.ev_nobody')) + why;
      }
      case 'squeeze_started': return t('ev.squeeze_started', { who: personName(e.player), side: winnerName(e.side) });
      case 'squeeze_ended': return t('ev.squeeze_ended', { side: winnerName(e.side), cards: cardsText(e.cards) }) + by;
      case 'cards_corrected': return t('ev.corrected') + by + ': ' + cardsText(e.cards) + why;
      case 'simultaneous_draw':
        return t('ev.simultaneous', { cards: cardsText(e.cards) }) + (e.window ? t('ev.may_withdraw') : '') + by;
      case 'interrupted': return t('ev.interrupted') + why + (e.window ? t('ev.may_withdraw') : t('ev.goes_on'));
      case 'resumed': return t('ev.resumed') + by + (e.cards && e.cards.length ? ' ' + t('ev.with_cards', { cards: cardsText(e.cards) }) : '');
      case 'table_paused': return t('ev.table_paused') + why + by;
      case 'table_reopened': return t('ev.table_reopened') + by;
      case 'table_closed': return t('ev.table_closed') + why + by;
      case 'device_reset': return t('ev.device_reset') + why + by + (e.window ? t('ev.may_withdraw') : '');
      case 'round_settled': {
        const r = e.result || {};
        return t('ev.result') + resultHeadline(r) + (r.coup ? ' (' + r.coup + ')' : '') +
          (resultFlags(r).length ? ', ' + resultFlags(r).join(', ') : '');
      }
      case 'round_voided': return t('ev.round_void', { n: e.round || '' }) + why + by + (e.cards && e.cards.length ? ': ' + cardsText(e.cards) : '') + t('ev.stakes_returned');
      case 'session_settled': return t('ev.session_settled', { n: e.session || '' }) + (e.count ? ' ' + t('ev.after_hands', { n: e.count }) : '');
      case 'funded': return t('ev.funds') + ' ' + fmtSigned(e.amount) + (e.player ? ' ' + t('ev.for', { who: e.player }) : '');
      case 'limit_changed': {
        if (e.setting === 'area_limit') return t('ev.area_limit', { n: e.count }) + why;
        if (e.setting === 'differential') return t('ev.differential', { amount: e.amount ? fmtMoney(e.amount) : t('none') }) + why;
        const l = e.limit || {};
        return t('ev.limit', { bet: betName(game, e.bet), min: fmtMoney(l.min), max: l.max ? fmtMoney(l.max) : t('limits.no_max') }) + why;
      }
      default: return humanize(e.type) + why;
    }
  }

  // Sum of server nets for the "you won / you lost" line (adds the server's integers only).
  function netOf(settlements) {
    let n = 0n;
    for (const s of settlements || []) n += BigInt(Math.trunc(Number(s.net) || 0));
    return n;
  }

  // The recall of one round (GET /rounds): its result, its cards in deal order, every step,
  // and the caller's wagers and settlements. ctx: {game, me}.
  function recallView(r, ctx) {
    rememberNames(r.names); // the players its events show, by handle
    const game = ctx && ctx.game;
    const me = ctx && ctx.me;
    const mineOf = (list) => (me ? (list || []).filter((x) => x.player === me.id) : list || []);
    const box = h('div', { class: 'recall', 'data-recall': r.round });
    if (r.result) {
      box.appendChild(h('h3', null, t('recall.result')));
      box.appendChild(h('div', null, resultHeadline(r.result), resultFlags(r.result).length ? ' · ' + resultFlags(r.result).join(', ') : '',
        r.result.coup ? h('div', { class: 'result-coup' }, r.result.coup) : null));
    } else if (r.void) {
      box.appendChild(h('h3', null, t('recall.result')));
      box.appendChild(h('div', null, t('phase.void') + ' (' + humanize(r.void) + ')'));
    }
    const cards = (r.events || []).filter((e) => e.type === 'card_dealt' && e.card).map((e) => e.card);
    if (cards.length) {
      box.appendChild(h('h3', null, t('recall.cards')));
      box.appendChild(h('div', { class: 'recall-cards', 'data-recall-cards': cards.map((c) => c.card).join(' ') },
        cards.map((c) => h('span', { class: 'recall-card' }, cardEl(c.card, c.position, { small: true }), h('small', null, c.position)))));
    }
    box.appendChild(h('h3', null, t('recall.steps')));
    const ol = h('ol', { class: 'steps' });
    for (const e of r.events || []) {
      const mine = e.type === 'round_settled' || e.type === 'round_voided' ? mineOf(e.settlements) : [];
      ol.appendChild(h('li', { 'data-type': e.type }, h('span', { class: 'ev-seq' }, '#' + e.seq + ' '), describeEvent(e, ctx),
        mine.length ? h('ul', null, mine.map((s) => h('li', null, settlementText(game, s)))) : null));
    }
    if (!(r.events || []).length) ol.appendChild(h('li', null, t('recall.no_events')));
    box.appendChild(ol);
    box.appendChild(h('h3', null, t('recall.wagers')));
    const wagers = r.wagers || [];
    const gone = new Set();
    for (const e of r.events || []) for (const w of e.withdrawn || []) gone.add(w.id);
    box.appendChild(wagers.length ? h('ul', { class: 'recall-wagers' }, wagers.map((w) => h('li', { 'data-wager': w.id }, wagerText(game, w),
      gone.has(w.id) ? h('span', { class: 'muted' }, ' ' + t('recall.withdrawn')) : null))) : h('div', { class: 'muted' }, t('none')));
    const mine = r.settlements || [];
    if (mine.length) {
      const net = netOf(mine);
      box.appendChild(h('h3', null, t('recall.settlements')));
      box.appendChild(h('ul', { class: 'recall-settlements' }, mine.map((s) => h('li', { 'data-outcome': s.outcome }, settlementText(game, s)))));
      box.appendChild(h('div', { class: 'payout-total ' + (net > 0n ? 'win' : net < 0n ? 'lose' : ''), 'data-net': String(net) },
        h('span', null, t('recall.net')), h('span', null, fmtSigned(net))));
    }
    return box;
  }

  Object.assign(Bac, { resultHeadline, resultFlags, wagerText, settlementText, describeEvent, netOf, recallView, rememberNames, personName });
})(window.Bac);
