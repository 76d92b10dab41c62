/* table-panels.js: the side panels of the player's table: the Dragon session, the round history
   with recall (GET /rounds?limit=10), and the fair-shuffle commitment with its reveal at the end
   of the shoe. Needs app.js and events.js. */
'use strict';
(function (Bac) {
  const { api, h, setText, setAttr, fmtMoney, fmtSigned, toast, copyText, describeEvent, resultHeadline, resultFlags,
    wagerText, settlementText, netOf, humanize } = Bac;

  // ctx: {S, tableId}
  Bac.createPanels = function (ctx) {
    const S = ctx.S;
    const el = {
      dragonState: document.getElementById('dragon-state'),
      sessionLine: document.getElementById('session-line'),
      sessionProgress: document.getElementById('session-progress'),
      sessionResults: document.getElementById('session-results'),
      dragonNote: document.getElementById('dragon-note'),
      history: document.getElementById('history'),
      historyRefresh: document.getElementById('history-refresh'),
      commitment: document.getElementById('commitment'),
      reveal: document.getElementById('reveal'),
    };
    const myId = () => S.me && S.me.id;
    const mineOf = (list) => (myId() ? (list || []).filter((x) => x.player === myId()) : []);

    // ---- Dragon session -------------------------------------------------------------------
    let sessionKey = '';
    function renderDragon() {
      const st = S.state;
      if (!st || !S.game || !(S.game.bets || []).some((b) => b.kind === 'dragon')) return;
      const s = st.session || {};
      const key = JSON.stringify(s) + st.phase + st.bet_open + (S.sessionResult ? S.sessionResult.seq : '');
      if (key === sessionKey) return;
      sessionKey = key;
      const open = st.phase === 'betting' && st.bet_open && s.hands === 0;
      setText(el.dragonState, open ? 'Dragon bets open' : 'Dragon bets closed');
      el.dragonState.className = 'badge ' + (open ? 'badge-gold' : '');
      const cur = s.current ? (s.current === 'B' ? 'Banker' : 'Player') + ' × ' + (s.current_run || 0) : 'none';
      el.sessionLine.textContent = '';
      Bac.append(el.sessionLine, [
        h('span', null, 'Session ', h('b', null, String(s.number || '–'))),
        h('span', null, 'Hands ', h('b', { id: 'session-hands' }, (s.hands || 0) + (s.length ? ' / ' + s.length : ''))),
        h('span', null, 'Longest ', h('b', { class: 'c-b' }, 'Banker ' + (s.longest_banker || 0)), ' · ', h('b', { class: 'c-p' }, 'Player ' + (s.longest_player || 0))),
        h('span', null, 'Current streak ', h('b', { id: 'session-current' }, cur)),
      ]);
      el.sessionProgress.style.width = s.length ? Math.min(100, (100 * (s.hands || 0)) / s.length) + '%' : '0';
      el.sessionResults.textContent = '';
      const res = String(s.results || '');
      for (const ch of res.slice(-60)) el.sessionResults.appendChild(h('span', { class: 'r-' + ch, title: humanize(Bac.WINNER_NAMES[ch] || ch) }, ch));
      let note = open ? 'Dragon bets are placed before the first hand of a session and paid on its longest streak: Ruby 5, Golden 6, Royal 7 or more.'
        : 'Dragon bets open again before the first hand of the next session.';
      const sr = S.sessionResult;
      if (sr) {
        const mine = sr.settlements || [];
        note = 'Session ' + (sr.session || '') + ' settled' + (mine.length ? ': ' + mine.map((x) => settlementText(S.game, x)).join('; ') +
          ' (net ' + fmtSigned(netOf(mine)) + ')' : '') + '. ' + note;
      }
      setText(el.dragonNote, note);
    }

    // ---- round history and recall ------------------------------------------------------------
    let history = [];
    let open = 0; // the round whose recall is shown
    let loading = null;
    let again = false;
    async function loadHistory() {
      if (loading) { again = true; return loading; }
      loading = (async () => {
        try {
          const list = await api('GET', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/rounds?limit=10');
          history = Array.isArray(list) ? list : [];
          renderHistory();
        } catch (e) {
          el.history.textContent = '';
          el.history.appendChild(h('li', { class: 'empty' }, e.status === 401 ? 'Sign in to recall your rounds.' : 'History unavailable: ' + e.message));
        }
      })();
      await loading;
      loading = null;
      if (again) { again = false; loadHistory(); }
    }
    let timer = 0;
    function refreshSoon() {
      clearTimeout(timer);
      timer = setTimeout(loadHistory, 600);
    }
    function voidReason(r) {
      if (r.void) return r.void;
      const e = (r.events || []).find((x) => x.type === 'round_voided');
      return e ? e.reason || 'void' : '';
    }
    function winnerOf(r) {
      if (r.result && r.result.winner) return r.result.winner;
      return voidReason(r) ? 'void' : '';
    }
    function renderHistory() {
      el.history.textContent = '';
      if (!history.length) {
        el.history.appendChild(h('li', { class: 'empty' }, 'No rounds yet.'));
        return;
      }
      for (const r of history) {
        const w = winnerOf(r);
        const mine = mineOf(r.settlements).length ? mineOf(r.settlements) : r.settlements || [];
        const net = mine.length ? netOf(mine) : null;
        const why = voidReason(r);
        const label = w === 'void' ? 'Void' + (why && why !== 'void' ? ': ' + humanize(why) : '')
          : r.result ? resultHeadline(r.result) : 'In play';
        const btn = h('button', { type: 'button', class: 'hist-item', 'aria-expanded': open === r.round ? 'true' : 'false',
          onclick: () => { open = open === r.round ? 0 : r.round; renderHistory(); } },
        h('span', { class: 'hist-round' }, '#' + r.round),
        h('span', { class: 'hist-dot w-' + (w || 'none'), 'aria-hidden': 'true' }, w === 'void' ? '∅' : w ? w.charAt(0).toUpperCase() : '…'),
        h('span', { class: 'hist-coup', title: r.result ? r.result.coup : '' }, label + (r.result && r.result.coup ? ' · ' + r.result.coup : '')),
        h('span', { class: 'hist-net ' + (net > 0 ? 'pos' : net < 0 ? 'neg' : '') }, net === null ? '' : fmtSigned(net)));
        const li = h('li', { 'data-round': r.round }, btn);
        if (open === r.round) li.appendChild(recallView(r));
        el.history.appendChild(li);
      }
    }
    function recallView(r) {
      const box = h('div', { class: 'recall', 'data-recall': r.round });
      if (r.result) {
        box.appendChild(h('h3', null, 'Result'));
        box.appendChild(h('div', null, resultHeadline(r.result), resultFlags(r.result).length ? ' · ' + resultFlags(r.result).join(', ') : '',
          r.result.coup ? h('div', { class: 'result-coup' }, r.result.coup) : null));
      }
      box.appendChild(h('h3', null, 'Every step'));
      const ol = h('ol', { class: 'steps' });
      for (const e of r.events || []) {
        ol.appendChild(h('li', { 'data-type': e.type }, h('span', { class: 'ev-seq' }, '#' + e.seq + ' '), describeEvent(e, { game: S.game, me: S.me }),
          e.type === 'round_settled' || e.type === 'round_voided' ? settleList(e.settlements) : null));
      }
      if (!(r.events || []).length) ol.appendChild(h('li', null, 'No events recorded.'));
      box.appendChild(ol);
      box.appendChild(h('h3', null, 'Your wagers'));
      const wagers = r.wagers || [];
      const gone = new Set();
      for (const e of r.events || []) for (const w of e.withdrawn || []) gone.add(w.id);
      box.appendChild(wagers.length ? h('ul', null, wagers.map((w) => h('li', { 'data-wager': w.id }, wagerText(S.game, w),
        gone.has(w.id) ? h('span', { class: 'muted' }, ' (withdrawn)') : null))) : h('div', { class: 'muted' }, 'none'));
      const mine = r.settlements || [];
      if (mine.length) {
        box.appendChild(h('h3', null, 'Your settlements'));
        box.appendChild(h('ul', null, mine.map((s) => h('li', null, settlementText(S.game, s)))));
        box.appendChild(h('div', { class: 'payout-total ' + (netOf(mine) > 0 ? 'win' : netOf(mine) < 0 ? 'lose' : '') },
          h('span', null, 'Net'), h('span', null, fmtSigned(netOf(mine)))));
      }
      return box;
    }
    function settleList(list) {
      const mine = mineOf(list);
      if (!mine.length) return null;
      return h('ul', null, mine.map((s) => h('li', null, settlementText(S.game, s))));
    }
    el.historyRefresh.addEventListener('click', loadHistory);

    // ---- fair shuffle: commitment and reveal ---------------------------------------------------
    let commitKey = '';
    function renderCommitment() {
      const st = S.state;
      const shoe = (st && st.shoe) || {};
      const c = shoe.commitment ? String(shoe.commitment) : '';
      const key = c + '|' + shoe.number + '|' + shoe.live;
      if (key === commitKey) return;
      commitKey = key;
      const box = el.commitment;
      box.textContent = '';
      setAttr(box, 'data-commitment', c || null);
      if (c) {
        S.commitments[shoe.number] = c;
        box.appendChild(h('span', null, 'Shoe ' + (shoe.number || '') + ' commitment'));
        box.appendChild(h('code', { class: 'hash', title: c }, c.slice(0, 10) + '…' + c.slice(-6)));
        box.appendChild(h('button', { type: 'button', class: 'btn btn-sm', onclick: async () => {
          toast((await copyText(c)) ? 'Commitment copied' : 'Copy failed: select it by hand');
        } }, 'Copy'));
        box.appendChild(h('div', { class: 'explain' }, 'The SHA-256 of this shoe\'s card order and a secret salt, published before the first card. ' +
          'When the shoe ends, order and salt are revealed here so you can check that no card was changed.'));
      } else if (shoe.live) {
        box.appendChild(h('span', { class: 'muted' }, 'Live shoe: cards come from the dealer\'s shoe, so there is no shuffle commitment.'));
      } else {
        box.appendChild(h('span', { class: 'muted' }, shoe.active ? 'No commitment published for this shoe.' : 'No shoe in play.'));
      }
    }
    // A shoe_ended event's reveal: {number, order, salt, verified, commitment}.
    function renderReveal() {
      const r = S.reveal;
      const box = el.reveal;
      box.textContent = '';
      if (!r || !r.order || !r.order.length) { box.hidden = true; return; }
      box.hidden = false;
      const order = r.order.map(String);
      const text = String(r.salt || '') + ':' + order.join('');
      const commitment = r.commitment || S.commitments[r.number] || '';
      const verdict = r.verified === true ? h('span', { class: 'verdict ok', 'data-verified': 'true' }, 'verified ✓')
        : r.verified === false ? h('span', { class: 'verdict bad', 'data-verified': 'false' }, 'NOT verified ✗')
          : h('span', { class: 'verdict' }, 'not checked by the server');
      const mine = h('span', { class: 'muted' });
      const ta = h('textarea', { readonly: true, 'aria-label': 'The text that was hashed', spellcheck: 'false' });
      ta.value = text;
      Bac.append(box, [
        h('div', null, h('b', null, 'Shoe ' + (r.number || '') + ' revealed: '), verdict),
        commitment ? h('div', null, 'Commitment ', h('code', { class: 'hash' }, commitment)) : null,
        h('div', null, 'Salt ', h('code', { class: 'hash' }, r.salt || '')),
        h('details', null, h('summary', null, 'Order of the ' + order.length + ' cards'),
          h('div', { class: 'mono', style: 'word-break:break-all;margin-top:4px' }, order.join(' '))),
        h('div', null, 'The hashed text:'),
        ta,
        h('div', { class: 'actions', style: 'justify-content:flex-start' },
          h('button', { type: 'button', class: 'btn btn-sm', onclick: async () => toast((await copyText(text)) ? 'Text copied' : 'Copy failed') }, 'Copy text'),
          h('button', { type: 'button', class: 'btn btn-sm', onclick: () => checkHere(text, commitment, mine) }, 'Check in this browser'),
          mine),
        h('div', { class: 'explain' },
          'How to verify: the hashed text is the salt in lower-case hex, a colon, then every card of the shoe in order in ' +
          'canonical form (rank then suit: Ah 7d Ts …) with nothing between them. Its SHA-256 must equal the commitment ' +
          'published before the shoe began. In a terminal:',
          h('pre', null, 'printf \'%s\' "' + (r.salt ? r.salt.slice(0, 8) + '…' : '0a1b…') + ':' + order.slice(0, 3).join('') + '…" | sha256sum'),
          'Paste the whole text in place of the shortened one above.'),
      ]);
    }
    async function checkHere(text, commitment, out) {
      const subtle = window.crypto && window.crypto.subtle;
      if (!subtle) { setText(out, 'This browser only hashes on https or localhost: use sha256sum.'); return; }
      const buf = await subtle.digest('SHA-256', new TextEncoder().encode(text));
      const hex = Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
      const ok = commitment && hex === String(commitment).toLowerCase();
      setText(out, 'SHA-256 ' + hex.slice(0, 12) + '… ' + (commitment ? (ok ? 'matches ✓' : 'does not match ✗') : '(no commitment to compare)'));
    }

    return { renderDragon, loadHistory, refreshSoon, renderCommitment, renderReveal };
  };
})(window.Bac);
