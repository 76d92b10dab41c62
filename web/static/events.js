/* events.js: table events and results in words, for the round recall, the dealer's log and the
   result banner. Shared by table.js and dealer.js; needs app.js. */
'use strict';
(function (Bac) {
  const { fmtMoney, fmtSigned, betName, humanize, WINNER_NAMES } = Bac;

  // "Banker wins 7–5", "Tie 9–9", from a round_settled result.
  function resultHeadline(r) {
    if (!r || !r.winner) return '';
    const score = r.player_total !== undefined ? ' ' + (r.winner === 'banker' ? r.banker_total + '–' + r.player_total
      : r.player_total + '–' + r.banker_total) : '';
    if (r.winner === 'tie') return 'Tie' + score;
    return (WINNER_NAMES[r.winner] || humanize(r.winner)) + ' wins' + score;
  }
  function resultFlags(r) {
    const f = [];
    if (!r) return f;
    if (r.natural) f.push('Natural');
    if (r.player_pair) f.push('Player Pair');
    if (r.banker_pair) f.push('Banker Pair');
    return f;
  }
  function wagerText(game, w) {
    let s = betName(game, w.bet) + ' ' + fmtMoney(w.stake);
    if (w.odds) s += ' @ ' + w.odds;
    if (w.betting_round > 1) s += ' (betting round ' + w.betting_round + ')';
    if (w.riding) s += ' (riding)';
    return s;
  }
  const OUTCOME = { win: 'won', lose: 'lost', push: 'push', void: 'void' };
  function settlementText(game, s) {
    let t = betName(game, s.bet) + ' ' + fmtMoney(s.stake) + ': ' + (OUTCOME[s.outcome] || s.outcome);
    if (s.outcome === 'win') t += ' ' + fmtSigned(s.net) + (s.pays ? ' (pays ' + s.pays + ')' : s.odds ? ' (at ' + s.odds + ')' : '');
    else if (s.outcome === 'lose') t += ' ' + fmtSigned(s.net);
    if (s.rides) t += ', rides into the next round';
    else if (s.outcome !== 'lose' && s.returned) t += ', ' + fmtMoney(s.returned) + ' returned';
    return t;
  }
  function cardsText(cards) { return (cards || []).join(' '); }

  // One line for an event. ctx: {game, me} (me: the signed-in account, to mark "you").
  function describeEvent(e, ctx) {
    const game = ctx && ctx.game;
    const myId = ctx && ctx.me && ctx.me.id;
    const why = e.reason ? ' (' + humanize(e.reason) + ')' : '';
    const by = e.actor && e.role && e.role !== 'player' && e.role !== 'system' ? ' by ' + e.actor : '';
    switch (e.type) {
      case 'shoe_started': {
        const s = e.shoe || {};
        return 'Shoe ' + (s.number || '') + ' started: ' + (s.decks || '?') + ' decks, ' + (s.cards || '?') + ' cards' +
          (s.live ? ', live from the dealer\'s shoe' : '') + (s.commitment ? ', commitment ' + String(s.commitment).slice(0, 12) + '…' : '');
      }
      case 'shoe_ended': {
        const s = e.shoe || {};
        let t = 'Shoe ' + (s.number || '') + ' ended' + why;
        if (s.verified === true) t += ': order and salt revealed, commitment verified ✓';
        else if (s.verified === false) t += ': order and salt revealed, commitment NOT verified ✗';
        return t;
      }
      case 'cut_card': return 'Cut card came out' + why + ': last round of the shoe';
      case 'betting_opened':
        return (e.betting_round > 1 ? 'Betting round ' + e.betting_round + ' opened' : 'Betting opened, round ' + (e.round || '')) + by;
      case 'betting_closed': return 'No more bets' + (e.betting_round > 1 ? ' (betting round ' + e.betting_round + ')' : '') + by;
      case 'wager_placed': {
        const w = e.wager || {};
        const who = w.player && w.player === myId ? 'Your wager ' : w.player ? 'Wager by ' + w.player + ': ' : 'Wager ';
        return who + wagerText(game, w) + (w.placed_by ? ' (placed by ' + w.placed_by + ')' : '');
      }
      case 'wager_withdrawn': {
        const list = (e.withdrawn || []).map((w) => wagerText(game, w)).join(', ');
        const who = e.player && e.player === myId ? 'You withdrew ' : e.player ? e.player + ' withdrew ' : 'Withdrawn: ';
        return who + (list || 'nothing');
      }
      case 'card_dealt': {
        const c = e.card || {};
        return 'Card ' + c.card + ' to ' + c.position + (c.left !== undefined ? ' (' + c.left + ' left)' : '');
      }
      case 'cards_corrected': return 'Cards corrected' + by + ': ' + cardsText(e.cards) + why;
      case 'simultaneous_draw':
        return 'Cards drawn together: ' + cardsText(e.cards) + (e.window ? ': you may withdraw your wagers' : '') + by;
      case 'interrupted': return 'Round interrupted' + why + (e.window ? ': you may withdraw your wagers' : ': the round will go on');
      case 'resumed': return 'Round resumed' + by + (e.cards && e.cards.length ? ' with ' + cardsText(e.cards) : '');
      case 'device_reset': return 'Dealing device reset' + why + by + (e.window ? ': wagers may be withdrawn' : '');
      case 'round_settled': {
        const r = e.result || {};
        return 'Result: ' + resultHeadline(r) + (r.coup ? ' (' + r.coup + ')' : '') +
          (resultFlags(r).length ? ', ' + resultFlags(r).join(', ') : '');
      }
      case 'round_voided': return 'Round ' + (e.round || '') + ' void' + why + by + (e.cards && e.cards.length ? ': ' + cardsText(e.cards) : '') + '; every stake returned';
      case 'session_settled': return 'Dragon session ' + (e.session || '') + ' settled' + (e.count ? ' after ' + e.count + ' hands' : '');
      case 'funded': return 'Funds ' + fmtSigned(e.amount) + (e.player ? ' for ' + e.player : '');
      case 'limit_changed': {
        if (e.setting === 'area_limit') return 'Wagers per area set to ' + e.count + why;
        if (e.setting === 'differential') return 'Table differential set to ' + (e.amount ? fmtMoney(e.amount) : 'none') + why;
        const l = e.limit || {};
        return 'Limit ' + betName(game, e.bet) + ': ' + fmtMoney(l.min) + ' – ' + (l.max ? fmtMoney(l.max) : 'no maximum') + why;
      }
      default: return humanize(e.type) + why;
    }
  }

  // Sum of server nets for the "you won / you lost" line (adds the server's numbers only).
  function netOf(settlements) {
    let n = 0;
    for (const s of settlements || []) n += Math.trunc(Number(s.net) || 0);
    return n;
  }

  Object.assign(Bac, { resultHeadline, resultFlags, wagerText, settlementText, describeEvent, netOf });
})(window.Bac);
