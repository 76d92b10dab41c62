/* admin-tables.js: the back office's Tables (/admin): every table the signed-in member of
   staff may act on (GET /api/admin/tables, every 3 s), with its game, mode, currency, phase
   (marked paused or closed when the pit has stopped it), round, the server that runs it and
   its health; and, for an admin, a new table made from a
   form with every setting and its range. The form is checked as the server checks a new table
   (POST /api/admin/tables/check, as it is filled in), which also shows, for a tournament game
   played for money, the exact player edge of each bet before it is made a cash table. Needs
   admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  let games = null;
  const SCHEDULE = ['betting', 'bob_round', 'card', 'result', 'window'];

  async function loadGames() {
    if (!games) games = await api('GET', '/api/games');
    return games;
  }
  const gameName = (id) => {
    const g = (games || []).find((x) => x.id === id);
    return Bac.gameName(id, g && g.name);
  };

  function healthCell(hl) {
    const s = (hl && hl.status) || 'elsewhere';
    return h('td', { class: 'health health-' + s, 'data-health': s, title: hl && hl.since ? t('admin.health.since', { at: A.when(hl.since) }) : null },
      t('admin.health.' + s));
  }

  // The phase, and a badge when the pit has paused or closed the table.
  function phaseCell(tv) {
    const state = tv.closed ? 'closed' : tv.paused ? 'paused' : '';
    return h('td', null, state ? h('span', { class: 'badge badge-warn', 'data-table-state': state }, t('admin.state.' + state)) : null,
      state ? ' ' : null, t('admin.phase.' + tv.phase));
  }

  function render(list, el) {
    const cols = [{ label: t('admin.col.table') }, { label: t('admin.col.game') }, { label: t('admin.col.mode') },
      { label: t('admin.col.currency') }, { label: t('admin.col.phase') }, { label: t('admin.col.round'), num: true },
      { label: t('admin.col.owner') }, { label: t('admin.col.health') }, { label: t('admin.col.players'), num: true }, { label: '' }];
    const rows = list.map((tv) => A.row({ 'data-table': tv.id, 'data-phase': tv.phase, 'data-health': tv.health && tv.health.status,
      'data-state': tv.closed ? 'closed' : tv.paused ? 'paused' : 'open' }, [
      h('td', null, A.link('/admin/table/' + A.enc(tv.id), tv.name || tv.id, { class: 'strong' }), h('div', { class: 'muted small' }, tv.id)),
      gameName(tv.game), t('admin.mode.' + tv.mode), tv.currency, phaseCell(tv), A.num(Bac.fmtInt(tv.round)),
      h('td', { class: 'small' }, tv.owner || '—'), healthCell(tv.health), A.num(Bac.fmtInt(tv.players || 0)),
      h('td', { class: 'actions' }, A.link('/admin/table/' + A.enc(tv.id), t('admin.live_view'), { class: 'btn btn-sm', 'data-live-link': tv.id }),
        tv.mode === 'dealer' ? h('a', { class: 'btn btn-sm', href: '/dealer/' + A.enc(tv.id) }, t('lobby.dealer_link')) : null),
    ]));
    A.put(el, A.grid(cols, rows, { id: 'tables-list' }));
  }

  // ---- a new table ----------------------------------------------------------------------
  function tableForm(onMade) {
    const f = {};
    const input = (name, attrs) => (f[name] = h('input', Object.assign({ name, type: 'text', autocomplete: 'off' }, attrs || {})));
    const hint = {};
    const hinted = (name, label, el) => A.field(label, el, (hint[name] = h('span', { 'data-range': name })));
    const form = h('form', { id: 'table-form', class: 'admin-form', hidden: true, novalidate: true });
    const gameSel = f.game = A.select('game', (games || []).map((g) => [g.id, Bac.gameName(g.id, g.name)]), 'mbs-tiger');
    const modeSel = f.mode = A.select('mode', [['auto', t('admin.mode.auto')], ['dealer', t('admin.mode.dealer')]], 'auto');
    f.squeeze = h('input', { type: 'checkbox', name: 'squeeze' });
    f.cash = h('input', { type: 'checkbox', name: 'cash' });
    const margins = h('div', { class: 'form-row', id: 'table-margins' });
    const betLimits = h('div', { class: 'form-row', id: 'table-limits' });
    const check = h('div', { id: 'table-check', class: 'check', role: 'status', 'aria-live': 'polite' });
    const edge = h('div', { id: 'table-edge', hidden: true });
    const cashRow = A.field(t('admin.table.cash'), f.cash, t('admin.table.cash_hint'));
    form.append(
      h('div', { class: 'form-row' }, A.field(t('admin.table.id'), input('id', { required: true, pattern: '[A-Za-z0-9_-]{1,64}' })),
        A.field(t('admin.table.name'), input('name')), A.field(t('admin.col.game'), gameSel), A.field(t('admin.col.mode'), modeSel),
        A.field(t('admin.col.currency'), input('currency', { value: 'XXX', maxlength: 3, size: 4 }))),
      h('div', { class: 'form-row' }, hinted('decks', t('admin.table.decks'), input('decks', { inputmode: 'numeric', size: 4 })),
        hinted('cut_card', t('admin.table.cut_card'), input('cut_card', { inputmode: 'numeric', size: 5 })),
        hinted('max_wagers_per_area', t('admin.table.per_area'), input('max_wagers_per_area', { inputmode: 'numeric', size: 4 })),
        hinted('session_hands', t('admin.table.session_hands'), input('session_hands', { inputmode: 'numeric', size: 5 })),
        hinted('differential', t('admin.table.differential'), input('differential', { inputmode: 'decimal', size: 10 }))),
      h('div', { class: 'form-row' }, A.field(t('admin.table.min'), input('min', { inputmode: 'decimal', size: 10 }), t('admin.table.limit_hint')),
        A.field(t('admin.table.max'), input('max', { inputmode: 'decimal', size: 12 })),
        A.field(t('admin.table.squeeze'), f.squeeze), hinted('squeeze_seconds', t('admin.table.squeeze_seconds'), input('squeeze_seconds', { inputmode: 'numeric', size: 4 })),
        cashRow),
      h('div', { class: 'form-row' }, ...SCHEDULE.map((k) =>
        hinted('schedule.' + k + '_ms', t('admin.table.schedule_' + k), input('schedule_' + k, { inputmode: 'decimal', size: 6, placeholder: 's' })))),
      margins, h('details', { id: 'table-bet-limits' }, h('summary', null, t('admin.table.bet_limits')), betLimits), edge, check,
      h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-gold', type: 'submit', id: 'table-create' }, t('admin.table.create')),
        h('button', { class: 'btn', type: 'button', onclick: () => { form.hidden = true; } }, t('admin.cancel'))));
    let units = 2;
    let last = null;
    const intOf = (el) => (el && el.value.trim() !== '' ? Number(el.value.trim()) : 0);
    const secs = (el) => {
      const v = el.value.trim();
      if (!v) return undefined;
      const ms = A.parseMajor(v, 3);
      return ms === null ? 'bad' : ms + 'ms';
    };
    function spec() {
      const cur = (f.currency.value.trim() || 'XXX').toUpperCase();
      const cfg = { game: gameSel.value };
      for (const k of ['decks', 'cut_card', 'max_wagers_per_area', 'session_hands', 'squeeze_seconds']) if (intOf(f[k])) cfg[k] = intOf(f[k]);
      if (f.differential.value.trim()) cfg.differential = A.parseMajor(f.differential.value, units);
      if (f.squeeze.checked) cfg.squeeze = true;
      if (f.cash.checked) cfg.cash = true;
      const lo = f.min.value.trim() ? A.parseMajor(f.min.value, units) : 0;
      const hi = f.max.value.trim() ? A.parseMajor(f.max.value, units) : 0;
      if (lo || hi) cfg.default_limit = { min: lo, max: hi };
      const m = {};
      for (const el of margins.querySelectorAll('input')) if (el.value.trim() !== '') m[el.name] = Number(el.value.trim());
      if (Object.keys(m).length) cfg.margins = m;
      const limits = {};
      for (const row of betLimits.querySelectorAll('[data-bet]')) {
        const [a, b] = row.querySelectorAll('input');
        if (a.value.trim() || b.value.trim()) {
          limits[row.getAttribute('data-bet')] = { min: a.value.trim() ? A.parseMajor(a.value, units) : 0, max: b.value.trim() ? A.parseMajor(b.value, units) : 0 };
        }
      }
      if (Object.keys(limits).length) cfg.limits = limits;
      const schedule = {};
      for (const k of SCHEDULE) {
        const v = secs(f['schedule_' + k]);
        if (v) schedule[k] = v;
      }
      const s = { id: f.id.value.trim(), name: f.name.value.trim(), mode: modeSel.value, currency: cur, config: cfg };
      if (Object.keys(schedule).length) s.schedule = schedule;
      return s;
    }
    function showRanges(ranges) {
      for (const [name, el] of Object.entries(hint)) {
        const r = ranges && ranges[name];
        const row = el.closest('.field');
        Bac.show(row, !!r);
        if (!r) continue;
        const money = name === 'differential';
        const ms = name.startsWith('schedule.');
        const fmt = (v) => (money ? A.amount(v, units) : ms ? Bac.fmtDecimal(A.toMajor(v, 3)) : Bac.fmtInt(v));
        setText(el, t('admin.range', { from: fmt(r.from), to: fmt(r.to) }) + (r.default ? ' · ' + t('admin.default', { v: fmt(r.default) }) : ''));
      }
    }
    function showMargins(ranges) {
      const want = Object.keys(ranges || {}).filter((k) => k.startsWith('margins.')).map((k) => k.slice(8));
      const have = [...margins.querySelectorAll('input')].map((x) => x.name);
      if (want.join() === have.join()) return;
      A.put(margins, ...want.map((bet) => A.field(t('admin.table.margin', { bet: Bac.betName(null, bet) }),
        h('input', { name: bet, inputmode: 'numeric', size: 5, placeholder: 'bp' }), t('admin.range', { from: 0, to: '9999 bp' }))));
    }
    // showBetLimits writes a minimum and a maximum field for each bet of the game, the largest
    // stake the books can pay beside each.
    function showBetLimits(maxStakes) {
      const bets = Object.keys(maxStakes || {});
      const have = [...betLimits.querySelectorAll('[data-bet]')].map((x) => x.getAttribute('data-bet'));
      if (bets.slice().sort().join() === have.slice().sort().join()) return;
      A.put(betLimits, bets.map((b) => h('div', { class: 'form-row bet-limit', 'data-bet': b }, h('b', { class: 'bet-name' }, Bac.betName(null, b)),
        A.field(t('admin.table.min'), h('input', { name: 'min_' + b, inputmode: 'decimal', size: 9 })),
        A.field(t('admin.table.max'), h('input', { name: 'max_' + b, inputmode: 'decimal', size: 12 }), t('admin.table.max_stake', { amount: A.amount(maxStakes[b], units) })))));
    }
    function showEdge(list, tournamentGame) {
      Bac.show(cashRow, !!tournamentGame);
      Bac.show(edge, !!(list && list.length));
      if (!list || !list.length) return;
      A.put(edge, h('div', { class: 'alert' }, t('admin.table.edge_note')),
        h('ul', { class: 'edge-list' }, list.map((e) => h('li', { 'data-player-edge': e.bet, 'data-edge': e.player_edge },
          h('b', null, Bac.betName(null, e.bet)), ' ', e.status ? t('admin.edge.' + e.status) : e.player_edge,
          e.hands ? h('span', { class: 'muted' }, ' ' + Bac.tn('admin.hands', e.hands)) : null))));
    }
    const runCheck = A.debounce(async () => {
      const s = spec();
      const key = JSON.stringify(s);
      if (key === last) return;
      last = key;
      try {
        const c = await api('POST', '/api/admin/tables/check', s);
        if (key !== last) return;
        if (typeof c.minor_units === 'number' && c.minor_units !== units) {
          units = c.minor_units;
          last = null;
        }
        showRanges(c.ranges);
        showMargins(c.ranges);
        showBetLimits(c.max_stakes);
        showEdge(c.player_edge, c.tournament_game);
        check.className = 'check ' + (c.ok ? 'check-ok' : 'check-bad');
        check.setAttribute('data-ok', c.ok ? 'true' : 'false');
        setText(check, c.ok ? t('admin.check_ok') : (c.problem && c.problem.message) || '');
      } catch (e) {
        check.className = 'check check-bad';
        check.setAttribute('data-ok', 'false');
        setText(check, Bac.errorText(e));
      }
    }, 250);
    form.addEventListener('input', runCheck);
    form.addEventListener('change', runCheck);
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const made = await A.act(() => api('POST', '/api/admin/tables', spec()), t('admin.table.made'));
      if (made) {
        form.hidden = true;
        form.reset();
        last = null;
        onMade(made);
      }
    });
    form.open = () => { form.hidden = false; last = null; runCheck(); f.id.focus(); };
    return form;
  }

  let built = null;
  A.register('tables', {
    roles: ['dealer', 'pit', 'admin'],
    async enter(root) {
      await loadGames().catch(() => null);
      if (!built) {
        const list = h('div', { id: 'tables-box' });
        const form = A.can('admin') ? tableForm(() => refresh()) : null;
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.tables')),
          form ? h('button', { class: 'btn btn-gold', type: 'button', id: 'new-table', onclick: () => form.open() }, t('admin.table.new')) : null),
        form, h('section', { class: 'panel' }, list));
        built = { list };
      }
      const refresh = async () => render(await api('GET', '/api/admin/tables'), built.list);
      built.refresh = refresh;
      A.every(3000, refresh);
    },
  });
  function refresh() { if (built && built.refresh) built.refresh(); }
})(window.Bac, window.BacAdmin);
