/* admin-live.js: a table's live view for the pit (/admin/table/{id}): the table's stream (the
   players' own, app.js's TableStream, folded by state.js) for the phase and the cards; the
   snapshot, which a pit or admin reads with every wager, again whenever the stakes move; the
   stakes on each bet, the table differential against its limit, and the largest wins of the
   last rounds (GET /rounds, everyone's settlements for staff). A pit or admin changes a bet's
   limits or the differential with a reason, voids the round under way with one of the
   table's reasons and a note, and pauses, reopens or closes the table with a reason (the
   commands route; a close asks for a second press). Every amount is in the table's currency.
   Needs admin.js, events.js and state.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText, setAttr } = Bac;
  const VOIDS = ['dealer_error', 'foreign_card', 'wrong_card_count', 'order_unrecoverable', 'simultaneous_draw', 'insufficient_cards',
    'device_reset', 'scanner_mismatch', 'technical_failure'];
  let view = null;

  function build(root, id) {
    const el = {};
    const part = (name, tag, attrs) => (el[name] = h(tag || 'div', Object.assign({ id: 'live-' + name }, attrs || {})));
    A.put(root, 
      h('div', { class: 'sec-head' }, A.link('/admin', '← ' + t('admin.nav.tables'), { class: 'btn btn-sm' }),
        h('h1', null, part('name', 'span'), ' ', h('small', { class: 'muted' }, part('game', 'span')))),
      h('div', { class: 'live-grid' },
        h('section', { class: 'panel' },
          h('div', { class: 'live-top' }, part('phase', 'span', { class: 'phase-pill', 'data-phase': '' }),
            h('span', null, t('stage.round'), ' ', part('round', 'b')), h('span', null, t('stage.shoe'), ' ', part('shoe', 'b')),
            part('count', 'span', { class: 'countdown' }), part('conn', 'span', { class: 'muted small' })),
          h('div', { class: 'hands' },
            h('div', { class: 'hand hand-player' }, h('div', { class: 'hand-head' }, h('span', { class: 'hand-name' }, t('side.P')), part('player-total', 'span', { class: 'hand-total' })),
              part('player-cards', 'div', { class: 'cards' })),
            h('div', { class: 'hand hand-banker' }, h('div', { class: 'hand-head' }, part('banker-total', 'span', { class: 'hand-total' }), h('span', { class: 'hand-name' }, t('side.B'))),
              part('banker-cards', 'div', { class: 'cards' }))),
          part('result', 'div', { class: 'live-result' })),
        h('section', { class: 'panel' }, h('h2', null, t('admin.live.stakes')), part('totals', 'ul', { class: 'kv' }),
          h('h2', null, t('admin.live.differential')), part('diff', 'div', { class: 'diff' }),
          h('h2', null, t('admin.live.wagers')), part('wagers', 'ul', { class: 'kv small' })),
        h('section', { class: 'panel' }, h('h2', null, t('admin.live.wins')), part('wins', 'ol', { class: 'kv' }),
          h('h2', null, t('admin.live.last_rounds')), part('history', 'ul', { class: 'kv small' })),
        A.can('pit', 'admin') ? controls(el, id) : null));
    return el;
  }

  // controls: the pit's limits, differential and void forms.
  function controls(el, id) {
    const bet = h('select', { name: 'bet', id: 'limit-bet' });
    const min = h('input', { name: 'min', inputmode: 'decimal', size: 10, id: 'limit-min' });
    const max = h('input', { name: 'max', inputmode: 'decimal', size: 12, id: 'limit-max' });
    const why = h('input', { name: 'reason', maxlength: 200, id: 'limit-reason', required: true });
    const limitForm = h('form', { id: 'limit-form', class: 'admin-form' }, h('div', { class: 'form-row' },
      A.field(t('admin.live.bet'), bet), A.field(t('admin.table.min'), min), A.field(t('admin.table.max'), max), A.field(t('admin.reason'), why)),
    h('button', { class: 'btn btn-gold btn-sm', type: 'submit' }, t('admin.live.set_limits')));
    limitForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const u = view.units;
      const lo = A.parseMajor(min.value, u), hi = max.value.trim() ? A.parseMajor(max.value, u) : 0;
      if (lo === null || hi === null) return Bac.toast(t('admin.bad_amount'), { kind: 'error' });
      const done = await A.act(() => api('PUT', '/api/admin/tables/' + A.enc(id) + '/limits', { bet: bet.value, min: lo, max: hi, reason: why.value.trim() }),
        t('admin.live.limits_set'));
      if (done) { why.value = ''; refreshSnapshot(); }
    });
    const area = h('input', { name: 'limit', inputmode: 'numeric', size: 4, id: 'area-limit' });
    const awhy = h('input', { name: 'reason', maxlength: 200, id: 'area-reason' });
    const areaForm = h('form', { id: 'area-form', class: 'admin-form' }, h('div', { class: 'form-row' },
      A.field(t('admin.live.area_limit'), area, t('admin.live.area_hint')), A.field(t('admin.reason'), awhy)),
    h('button', { class: 'btn btn-gold btn-sm', type: 'submit' }, t('admin.live.set_area')));
    areaForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const done = await A.act(() => api('POST', '/api/tables/' + A.enc(id) + '/commands', { cmd: 'set_area_limit', limit: Number(area.value), reason: awhy.value.trim() }),
        t('admin.live.area_set'));
      if (done) { awhy.value = ''; refreshSnapshot(); }
    });
    el.areaForm = areaForm;
    const amount = h('input', { name: 'amount', inputmode: 'decimal', size: 12, id: 'diff-amount' });
    const dwhy = h('input', { name: 'reason', maxlength: 200, id: 'diff-reason' });
    const diffForm = h('form', { id: 'diff-form', class: 'admin-form' }, h('div', { class: 'form-row' },
      A.field(t('admin.live.diff_limit'), amount, t('admin.live.diff_hint')), A.field(t('admin.reason'), dwhy)),
    h('button', { class: 'btn btn-gold btn-sm', type: 'submit' }, t('admin.live.set_diff')));
    diffForm.addEventListener('submit', async (e) => {
      e.preventDefault();
      const v = amount.value.trim() ? A.parseMajor(amount.value, view.units) : 0;
      if (v === null) return Bac.toast(t('admin.bad_amount'), { kind: 'error' });
      const done = await A.act(() => api('POST', '/api/tables/' + A.enc(id) + '/commands', { cmd: 'set_differential', amount: v, reason: dwhy.value.trim() }),
        t('admin.live.diff_set'));
      if (done) { dwhy.value = ''; refreshSnapshot(); }
    });
    const reason = A.select('reason', VOIDS.map((r) => [r, Bac.humanize(r)]), 'dealer_error');
    reason.id = 'void-reason';
    const note = h('input', { name: 'note', maxlength: 500, id: 'void-note' });
    const voidBtn = A.confirmed(t('admin.live.void'), 'btn-danger', async () => {
      const done = await A.act(() => api('POST', '/api/admin/tables/' + A.enc(id) + '/void', { reason: reason.value, note: note.value.trim() }),
        t('admin.live.voided'));
      if (done) { note.value = ''; refreshSnapshot(); }
    }, { id: 'void-round' });
    const voidForm = h('div', { id: 'void-form', class: 'admin-form' }, h('div', { class: 'form-row' },
      A.field(t('admin.live.void_reason'), reason), A.field(t('admin.live.void_note'), note)), voidBtn);
    el.betSelect = bet;
    el.limits = h('table', { class: 'grid small', id: 'live-limits' });
    el.tableState = h('span', { class: 'badge', id: 'live-table-state', 'data-state': '' });
    return h('section', { class: 'panel live-controls' }, h('h2', null, t('admin.live.limits')), h('div', { class: 'grid-wrap' }, el.limits), limitForm,
      areaForm, h('h2', null, t('admin.live.differential')), diffForm, h('h2', null, t('admin.live.void_round')), voidForm,
      h('h2', null, t('admin.live.table'), ' ', el.tableState), tableForm(el, id));
  }

  // tableForm: the pit pauses the table (the round under way finishes first), reopens it, or
  // closes a paused one with nothing in play, each with a reason; the table says what it refuses.
  function tableForm(el, id) {
    const why = h('input', { name: 'reason', maxlength: 200, id: 'table-reason' });
    const send = async (cmd, done) => {
      const reason = why.value.trim();
      if (!reason && cmd !== 'reopen') return Bac.toast(t('admin.live.need_reason'), { kind: 'error' });
      const ok = await A.act(() => api('POST', '/api/tables/' + A.enc(id) + '/commands', { cmd, reason }), t(done));
      if (ok) { why.value = ''; refreshSnapshot(); }
    };
    el.pause = h('button', { class: 'btn btn-gold btn-sm', type: 'button', id: 'table-pause', onclick: () => send('pause', 'admin.live.paused') }, t('admin.live.pause'));
    el.reopen = h('button', { class: 'btn btn-gold btn-sm', type: 'button', id: 'table-reopen', onclick: () => send('reopen', 'admin.live.reopened') }, t('admin.live.reopen'));
    el.closeTable = A.confirmed(t('admin.live.close_table'), 'btn-danger', () => send('close_table', 'admin.live.closed'), { id: 'table-close' });
    el.tableWhy = h('div', { class: 'form-row' }, A.field(t('admin.reason'), why));
    return h('div', { id: 'live-table-form', class: 'admin-form' }, h('p', { class: 'muted small' }, t('admin.live.table_hint')),
      el.tableWhy, el.pause, ' ', el.reopen, ' ', el.closeTable);
  }

  // drawTable shows whether the table is open, paused or closed, and the buttons that apply.
  function drawTable(el, st) {
    const state = st.closed ? 'closed' : st.paused ? 'paused' : 'open';
    setText(el.tableState, t('admin.live.state_' + state));
    setAttr(el.tableState, 'data-state', state);
    el.tableState.className = 'badge' + (state === 'open' ? '' : ' badge-warn');
    Bac.show(el.pause, state === 'open');
    Bac.show(el.reopen, state === 'paused');
    Bac.show(el.closeTable, state === 'paused');
    Bac.show(el.tableWhy, state !== 'closed');
  }

  const cash = (minor) => A.money(minor, view.units, view.currency);

  function draw() {
    const v = view;
    const st = v.state;
    if (!st) return;
    const el = v.el;
    setText(el.phase, Bac.phaseText(st, v.game));
    setAttr(el.phase, 'data-phase', st.phase);
    setText(el.round, Bac.fmtInt(st.round || 0));
    setText(el.shoe, st.shoe && st.shoe.number ? Bac.fmtInt(st.shoe.number) + ' · ' + t('admin.live.left', { n: st.shoe.left }) : '—');
    for (const side of ['player', 'banker']) {
      const pre = side === 'player' ? 'P' : 'B';
      const cards = (st.cards || []).filter((c) => String(c.position || '').startsWith(pre));
      const key = cards.map((c) => (c.card || '?') + c.position).join();
      if (el[side + '-cards'].getAttribute('data-key') !== key) {
        A.put(el[side + '-cards'], ...cards.map((c) => Bac.cardEl(c.card, c.position)));
        el[side + '-cards'].setAttribute('data-key', key);
      }
      setText(el[side + '-total'], cards.length ? String(Bac.handTotal(cards.map((c) => c.card).filter(Boolean))) : '');
    }
    const totals = st.totals || {};
    const bets = Object.keys(totals).filter((b) => totals[b]);
    A.put(el.totals, ...(bets.length ? bets.map((b) => h('li', { 'data-bet': b, 'data-stake': totals[b] },
      h('span', null, Bac.betName(v.game, b)), h('b', null, cash(totals[b])))) : [h('li', { class: 'muted' }, t('none'))]));
    const diff = Math.abs((totals.player || 0) - (totals.banker || 0));
    const limit = st.differential || 0;
    el.diff.setAttribute('data-diff', diff);
    el.diff.setAttribute('data-limit', limit);
    const share = limit ? Math.min(100, Math.round((diff * 100) / limit)) : 0;
    A.put(el.diff, h('div', null, cash(diff), ' / ', limit ? cash(limit) : t('admin.live.no_limit')),
      limit ? h('div', { class: 'bar' + (share >= 80 ? ' bar-hot' : '') }, h('span', { style: 'width:' + share + '%' })) : null);
    const wagers = st.wagers || [];
    A.put(el.wagers, ...(wagers.length ? wagers.map((w) => h('li', { 'data-wager': w.id, 'data-player': w.player },
      h('span', null, w.player + ' · ' + Bac.betName(v.game, w.bet)), h('b', null, cash(w.stake)))) : [h('li', { class: 'muted' }, t('none'))]));
    if (el.areaForm) Bac.show(el.areaForm, !!st.max_wagers_per_area); // a game with Tiger 3.6's rule
    if (el.tableState) drawTable(el, st);
    if (el.limits) {
      const limits = st.limits || {};
      const ids = ((v.game && v.game.bets) || []).map((b) => b.id).filter((b) => limits[b]);
      A.put(el.limits, h('thead', null, h('tr', null, h('th', null, t('admin.live.bet')), h('th', { class: 'num' }, t('admin.table.min')),
        h('th', { class: 'num' }, t('admin.table.max')))), h('tbody', null, ids.map((b) => h('tr', { 'data-bet': b, 'data-min': limits[b].min, 'data-max': limits[b].max },
        h('td', null, Bac.betName(v.game, b)), A.num(A.amount(limits[b].min, v.units)), A.num(A.amount(limits[b].max, v.units))))));
      if (el.betSelect.options.length !== ids.length) {
        A.put(el.betSelect, ...ids.map((b) => h('option', { value: b }, Bac.betName(v.game, b))));
      }
    }
  }

  function tick() {
    if (!view || !view.state) return;
    const left = Bac.clock.secondsLeft(view.state.until);
    setText(view.el.count, left === null || view.state.phase !== 'betting' ? '' : Math.ceil(left) + ' s');
  }

  async function refreshSnapshot() {
    if (!view) return;
    const v = view;
    try {
      const snap = await api('GET', '/api/tables/' + A.enc(v.id));
      if (v !== view) return;
      takeSnapshot(snap);
    } catch (e) { /* the stream goes on */ }
  }
  function takeSnapshot(snap) {
    const v = view;
    v.game = snap.game;
    v.state = snap.state;
    v.units = snap.table.minor_units;
    v.currency = snap.table.currency;
    window.BacCurrency.set(v.units, v.currency);
    setText(v.el.name, snap.table.name || snap.table.id);
    setText(v.el.game, Bac.gameName(snap.table.game || (snap.game && snap.game.id), snap.game && snap.game.name) + ' · ' + snap.table.currency);
    if (snap.server_time) Bac.clock.sync(snap.server_time);
    draw();
  }

  // rounds reads the last rounds: the largest wins among them, and each result.
  async function rounds() {
    const v = view;
    if (!v) return;
    const list = await api('GET', '/api/tables/' + A.enc(v.id) + '/rounds?limit=10');
    if (v !== view) return;
    const wins = [];
    for (const r of list) for (const s of r.settlements || []) if (s.net > 0) wins.push({ r: r.round, s });
    wins.sort((a, b) => b.s.net - a.s.net);
    A.put(v.el.wins, ...(wins.length ? wins.slice(0, 5).map((x) => h('li', { 'data-round': x.r, 'data-net': x.s.net },
      h('span', null, x.s.player + ' · ' + Bac.betName(v.game, x.s.bet) + ' · ' + t('admin.live.round_n', { n: x.r })), h('b', null, '+' + cash(x.s.net)))) : [h('li', { class: 'muted' }, t('none'))]));
    A.put(v.el.history, ...list.map((r) => h('li', { 'data-round': r.round, 'data-void': r.void || null },
      A.link('/admin/rounds?table=' + A.enc(v.id) + '&round=' + r.round, t('admin.live.round_n', { n: r.round })),
      h('span', null, r.void ? t('phase.void') + ' (' + Bac.humanize(r.void) + ')' : r.result ? Bac.resultHeadline(r.result) : ''))));
    const last = list[0];
    setText(v.el.result, last ? t('admin.live.last', { n: last.round, what: last.void ? t('phase.void') : Bac.resultHeadline(last.result) }) : '');
  }

  A.register('table', {
    roles: ['dealer', 'pit', 'admin'],
    async enter(root, id) {
      view = { id, el: build(root, id), state: null, game: null, units: 2, currency: '' };
      const v = view;
      await refreshSnapshot();
      const again = A.debounce(refreshSnapshot, 400);
      v.stream = new Bac.TableStream(id, {
        onMessage(m) {
          if (v !== view) return;
          switch (m.type) {
            case 'snapshot': takeSnapshot(m); break;
            case 'event':
              if (Bac.foldEvent(v.state, m.event, v.game)) again();
              draw();
              if (m.event && (m.event.type === 'round_settled' || m.event.type === 'round_voided')) rounds().catch(() => null);
              if (m.event && (m.event.type === 'limit_changed' || m.event.type === 'betting_opened')) again();
              break;
            case 'totals': Bac.foldTotals(v.state, m); draw(); again(); break;
            default: break;
          }
        },
        onStatus(s) { setText(v.el.conn, t('conn.' + s)); },
        poll: () => api('GET', '/api/tables/' + A.enc(id)),
      });
      v.stream.connect();
      v.clock = setInterval(tick, 250);
      rounds().catch(() => null);
      A.every(5000, rounds);
    },
    leave() {
      if (!view) return;
      if (view.stream) view.stream.stop();
      clearInterval(view.clock);
      view = null;
    },
  });
})(window.Bac, window.BacAdmin);
