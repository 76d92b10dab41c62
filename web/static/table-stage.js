/* table-stage.js: the stage of the player's table: the two hands' cards, dealt one by one or
   face down while squeezed, with their totals and the winning side marked, and the result banner
   (#result) with the player's payouts and their net. It draws what table.js hands it: the table
   as its video shows it (S.shown) and the result of that round. Needs app.js and events.js. */
'use strict';
(function (Bac) {
  const { h, setText, setAttr, toggle, fmtCash, fmtCashSigned, cardEl, handTotal, resultHeadline, resultFlags, netOf, humanize, t } = Bac;

  // ctx: {S, el: {playerCards, bankerCards, playerTotal, bankerTotal, handP, handB, result}}
  Bac.createStage = function (ctx) {
    const { S, el } = ctx;
    // The result the stage shows (table-video.js: the video's round, once it shows it settled).
    const currentResult = () => (S.shown ? S.shown.result : null);

    // Cards are appended as they arrive; the areas are rebuilt only when the list changed in the
    // middle (a correction, a squeezed card turned up) or a new round began. A squeezed card lies
    // face down on the table until the reveal, even for its squeezer: they see it in the
    // squeeze panel, as they peel it.
    const shown = { P: [], B: [] }; // "position:card" of each card drawn, "" for a face-down one
    const faceOf = (c) => (c.hidden ? '' : c.card || '');
    function renderCards() {
      const st = S.shown.state;
      const cards = st.cards || [];
      const hands = { P: [], B: [] };
      for (const c of cards) {
        const side = String(c.position || '').charAt(0);
        if (hands[side]) hands[side].push(c);
      }
      for (const side of ['P', 'B']) {
        const box = side === 'P' ? el.playerCards : el.bankerCards;
        const want = hands[side].map((c) => c.position + ':' + faceOf(c));
        const have = shown[side];
        const prefix = have.length <= want.length && have.every((k, i) => k === want[i]);
        if (!prefix) { box.textContent = ''; shown[side] = []; }
        for (let i = shown[side].length; i < want.length; i++) box.appendChild(cardEl(faceOf(hands[side][i]), hands[side][i].position));
        shown[side] = want;
      }
      const res = currentResult();
      const r = res && res.result;
      const total = (hand) => (hand.length && hand.every(faceOf) ? handTotal(hand.map(faceOf)) : '');
      let pt = total(hands.P);
      let bt = total(hands.B);
      if (r && r.player_total !== undefined) { pt = r.player_total; bt = r.banker_total; }
      setText(el.playerTotal, pt);
      setText(el.bankerTotal, bt);
      let winner = r ? r.winner : '';
      if (!winner && st.phase === 'settled' && st.shoe_results && st.shoe_results.length) {
        winner = { B: 'banker', P: 'player', T: 'tie' }[st.shoe_results[st.shoe_results.length - 1].winner] || '';
      }
      toggle(el.handP, 'winner', winner === 'player' || winner === 'tie');
      toggle(el.handB, 'winner', winner === 'banker' || winner === 'tie');
    }

    let resultKey = '';
    function renderResult(res) {
      const st = S.shown.state;
      let key = '';
      if (res) key = 'r' + res.round + (res.voided ? 'v' : '') + JSON.stringify(res.settlements || []);
      else if (st.phase === 'settled' || st.phase === 'void') key = 'bare' + st.round + st.phase + (st.shoe_results || []).length;
      if (key === resultKey) return;
      resultKey = key;
      const box = el.result;
      box.textContent = '';
      setAttr(box, 'data-winner', null);
      setAttr(box, 'data-round', null);
      if (!key) return;
      setAttr(box, 'data-round', st.round);
      if (!res) {
        // Watching without a sign-in, or the result event came before we connected.
        if (st.phase === 'void') {
          setAttr(box, 'data-winner', 'void');
          box.appendChild(h('div', { class: 'result-title' }, t('result.void_all')));
          return;
        }
        const last = (st.shoe_results || [])[(st.shoe_results || []).length - 1];
        if (!last) return;
        const w = { B: 'banker', P: 'player', T: 'tie' }[last.winner] || '';
        setAttr(box, 'data-winner', w);
        box.appendChild(h('div', { class: 'result-head' }, h('span', { class: 'result-title' }, resultHeadline({ winner: w })),
          flagBadges(last)));
        return;
      }
      if (res.voided) {
        setAttr(box, 'data-winner', 'void');
        box.appendChild(h('div', { class: 'result-head' }, h('span', { class: 'result-title' }, t('phase.void')),
          res.reason ? h('span', { class: 'badge badge-warn' }, humanize(res.reason)) : null));
        box.appendChild(h('div', { class: 'muted' }, t('result.void_note')));
      } else {
        const r = res.result || {};
        setAttr(box, 'data-winner', r.winner || '');
        box.appendChild(h('div', { class: 'result-head' }, h('span', { class: 'result-title' }, resultHeadline(r)), flagBadges(r)));
        if (r.coup) box.appendChild(h('div', { class: 'result-coup' }, r.coup));
      }
      const list = res.settlements || [];
      if (list.length) {
        box.appendChild(h('ul', { class: 'payouts', id: 'payouts' }, list.map((s) => h('li', { 'data-wager': s.wager, 'data-outcome': s.outcome },
          h('span', null, payoutLabel(s)),
          h('span', { class: 'payout-value ' + (s.net > 0 ? 'net-win' : s.net < 0 ? 'net-lose' : ''), 'data-net': s.net }, payoutValue(s))))));
        const net = netOf(list);
        box.appendChild(h('div', { class: 'payout-total ' + (net > 0n ? 'win' : net < 0n ? 'lose' : ''), id: 'payout-total', 'data-net': String(net) },
          h('span', null, net > 0n ? t('result.you_won') : net < 0n ? t('result.you_lost') : t('result.even')), h('span', { class: 'payout-net' }, fmtCashSigned(net))));
      }
    }
    function payoutLabel(s) {
      return Bac.betName(S.game, s.bet) + ' ' + fmtCash(s.stake) + (s.pays ? ' · ' + t('spot.pays', { pays: s.pays }) : s.odds ? ' · ' + t('settle.at', { odds: s.odds }) : '') +
        (s.rides ? ' · ' + t('result.rides') : '');
    }
    function payoutValue(s) {
      if (s.outcome === 'win' || s.outcome === 'lose') return fmtCashSigned(s.net);
      // A push is its stake back: one phrase ("Back 500.00", "退回 500.00"), not the word twice.
      if (s.outcome === 'push' && s.returned) return t('result.back', { amount: fmtCash(s.returned) });
      return t('outcome.' + s.outcome) + (s.returned ? ', ' + t('result.back', { amount: fmtCash(s.returned) }) : '');
    }
    function flagBadges(r) {
      const f = resultFlags(r);
      return f.length ? h('span', { class: 'result-flags' }, f.map((x) => h('span', { class: 'badge badge-gold' }, x))) : null;
    }

    return { renderCards, renderResult };
  };
})(window.Bac);
