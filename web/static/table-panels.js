/* table-panels.js: the side panels of the player's table: the Dragon session, the round history
   with recall (GET /rounds?limit=10), and the fair-shuffle commitment with its reveal at the end
   of the shoe. Needs app.js and events.js. */
'use strict';
(function (Bac) {
  const { api, h, setText, setAttr, toggle, fmtSigned, toast, copyText, resultHeadline, settlementText, netOf, humanize, t } = Bac;

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
      const st = (S.shown && S.shown.state) || S.state; // the session as the stage shows it
      if (!st || !S.game || !(S.game.bets || []).some((b) => b.kind === 'dragon')) return;
      const s = st.session || {};
      const key = JSON.stringify(s) + st.phase + st.bet_open + (S.sessionResult ? S.sessionResult.seq : '');
      if (key === sessionKey) return;
      sessionKey = key;
      const open = st.phase === 'betting' && st.bet_open && s.hands === 0;
      setText(el.dragonState, open ? t('dragon.open') : t('dragon.closed'));
      el.dragonState.className = 'badge ' + (open ? 'badge-gold' : '');
      toggle(document.getElementById('dragon-panel'), 'dragon-open', open); // on a phone: under the bets while open
      const cur = s.current ? Bac.winnerName(s.current) + ' ×' + (s.current_run || 0) : t('none');
      el.sessionLine.textContent = '';
      Bac.append(el.sessionLine, [
        h('span', null, t('dragon.session') + ' ', h('b', null, String(s.number || '–'))),
        h('span', null, t('dragon.hands') + ' ', h('b', { id: 'session-hands' }, (s.hands || 0) + (s.length ? ' / ' + s.length : ''))),
        h('span', null, t('dragon.longest') + ' ', h('b', { class: 'c-b' }, Bac.winnerName('B') + ' ' + (s.longest_banker || 0)), ' · ',
          h('b', { class: 'c-p' }, Bac.winnerName('P') + ' ' + (s.longest_player || 0))),
        h('span', null, t('dragon.current') + ' ', h('b', { id: 'session-current' }, cur)),
      ]);
      el.sessionProgress.style.width = s.length ? Math.min(100, (100 * (s.hands || 0)) / s.length) + '%' : '0';
      el.sessionResults.textContent = '';
      const res = String(s.results || '');
      for (const ch of res.slice(-60)) el.sessionResults.appendChild(h('span', { class: 'r-' + ch, title: Bac.winnerName(ch) }, t('mark.' + ch)));
      let note = open ? t('dragon.note_open') : t('dragon.note_closed');
      const sr = S.sessionResult;
      if (sr) {
        const mine = sr.settlements || [];
        note = t('dragon.settled', { n: sr.session || '' }) + (mine.length ? ': ' + mine.map((x) => settlementText(S.game, x)).join('; ') +
          ' (' + t('recall.net') + ' ' + fmtSigned(netOf(mine)) + ')' : '') + '. ' + note;
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
          el.history.appendChild(h('li', { class: 'empty' }, e.status === 401 ? t('history.signin') : t('history.unavailable', { why: Bac.errorText(e) })));
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
        el.history.appendChild(h('li', { class: 'empty' }, t('history.none')));
        return;
      }
      for (const r of history) {
        const w = winnerOf(r);
        const mine = mineOf(r.settlements).length ? mineOf(r.settlements) : r.settlements || [];
        const net = mine.length ? netOf(mine) : null;
        const why = voidReason(r);
        const label = w === 'void' ? t('phase.void') + (why && why !== 'void' ? ': ' + humanize(why) : '')
          : r.result ? resultHeadline(r.result) : t('history.in_play');
        const btn = h('button', { type: 'button', class: 'hist-item', 'aria-expanded': open === r.round ? 'true' : 'false',
          onclick: () => { open = open === r.round ? 0 : r.round; renderHistory(); } },
        h('span', { class: 'hist-round' }, '#' + r.round),
        h('span', { class: 'hist-dot w-' + (w || 'none'), 'aria-hidden': 'true' }, w === 'void' ? '∅' : w ? t('mark.' + w.charAt(0).toUpperCase()) : '…'),
        h('span', { class: 'hist-coup', title: r.result ? r.result.coup : '' }, label + (r.result && r.result.coup ? ' · ' + r.result.coup : '')),
        h('span', { class: 'hist-net ' + (net > 0 ? 'pos' : net < 0 ? 'neg' : '') }, net === null ? '' : fmtSigned(net)));
        const li = h('li', { 'data-round': r.round }, btn);
        if (open === r.round) li.appendChild(recallView(r));
        el.history.appendChild(li);
      }
    }
    function recallView(r) { return Bac.recallView(r, { game: S.game, me: S.me }); }
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
        box.appendChild(h('span', null, t('fair.commitment', { n: shoe.number || '' })));
        box.appendChild(h('code', { class: 'hash', title: c }, c.slice(0, 10) + '…' + c.slice(-6)));
        box.appendChild(h('button', { type: 'button', class: 'btn btn-sm', onclick: async () => {
          toast((await copyText(c)) ? t('fair.copied') : t('fair.copy_failed'));
        } }, t('fair.copy')));
        box.appendChild(h('div', { class: 'explain' }, t('fair.explain')));
      } else if (shoe.live) {
        box.appendChild(h('span', { class: 'muted' }, t('fair.live')));
      } else {
        box.appendChild(h('span', { class: 'muted' }, shoe.active ? t('fair.none') : t('fair.no_shoe')));
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
      const verdict = r.verified === true ? h('span', { class: 'verdict ok', 'data-verified': 'true' }, t('fair.verified'))
        : r.verified === false ? h('span', { class: 'verdict bad', 'data-verified': 'false' }, t('fair.not_verified'))
          : h('span', { class: 'verdict' }, t('fair.not_checked'));
      const mine = h('span', { class: 'muted' });
      const ta = h('textarea', { readonly: true, 'aria-label': t('fair.hashed'), spellcheck: 'false' });
      ta.value = text;
      Bac.append(box, [
        h('div', null, h('b', null, t('fair.revealed', { n: r.number || '' }) + ' '), verdict),
        commitment ? h('div', null, t('fair.commitment_word') + ' ', h('code', { class: 'hash' }, commitment)) : null,
        h('div', null, t('fair.salt') + ' ', h('code', { class: 'hash' }, r.salt || '')),
        h('details', null, h('summary', null, t('fair.order', { n: order.length })),
          h('div', { class: 'mono', style: 'word-break:break-all;margin-top:4px' }, order.join(' '))),
        h('div', null, t('fair.hashed') + ':'),
        ta,
        h('div', { class: 'actions', style: 'justify-content:flex-start' },
          h('button', { type: 'button', class: 'btn btn-sm', onclick: async () => toast((await copyText(text)) ? t('fair.text_copied') : t('fair.copy_failed')) }, t('fair.copy_text')),
          h('button', { type: 'button', class: 'btn btn-sm', onclick: () => checkHere(text, commitment, mine) }, t('fair.check_here')),
          mine),
        h('div', { class: 'explain' }, t('fair.how'),
          h('pre', null, 'printf \'%s\' "' + (r.salt ? r.salt.slice(0, 8) + '…' : '0a1b…') + ':' + order.slice(0, 3).join('') + '…" | sha256sum'),
          t('fair.paste')),
      ]);
    }
    async function checkHere(text, commitment, out) {
      const subtle = window.crypto && window.crypto.subtle;
      if (!subtle) { setText(out, t('fair.no_subtle')); return; }
      const buf = await subtle.digest('SHA-256', new TextEncoder().encode(text));
      const hex = Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');
      const ok = commitment && hex === String(commitment).toLowerCase();
      setText(out, 'SHA-256 ' + hex.slice(0, 12) + '… ' + (commitment ? (ok ? t('fair.matches') : t('fair.no_match')) : t('fair.nothing_to_compare')));
    }

    return { renderDragon, loadHistory, refreshSoon, renderCommitment, renderReveal };
  };
})(window.Bac);
