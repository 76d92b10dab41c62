/* admin-tournaments.js: Tournaments (/admin/tournaments, admins): the tournaments (GET
   /api/tournaments, every 3 s) with their phase, entrants and pool; one watched live (GET
   /api/tournaments/{id}: entrants, tables, leaderboard, pool); a tournament cancelled with a
   reason (every entrant refunded); and a new one made from a form or a saved template. The
   form writes the spec (POST /api/admin/tournaments' body, shown and editable in full as JSON
   for the fields the form leaves out) and checks it as the server does as it is filled in
   (POST /api/admin/tournaments/check). Amounts are typed in the currency's major units; times
   are the browser's local times, sent as UTC. Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  let box = null;
  const STRATS = ['flat', 'martingale', 'random', 'dragon'];

  // A datetime-local value for a time, and back.
  const local = (d) => {
    const x = new Date(d.getTime() - d.getTimezoneOffset() * 60000);
    return x.toISOString().slice(0, 16);
  };
  const fromLocal = (v) => (v ? new Date(v).toISOString() : '');

  function defaults() {
    const now = new Date();
    now.setSeconds(0, 0);
    const opens = new Date(now.getTime() + 60000);
    const start = new Date(now.getTime() + 30 * 60000);
    return { config: { id: '', name: '', game: 'mbs-tournament', currency: 'XXX', entry_fee: 1000, starting_chips: 10000,
      registration_opens: opens.toISOString(), registration_closes: start.toISOString(), start: start.toISOString(),
      min_entrants: 2, max_entrants: 12, table_size: 6, stakes: { min: 100, max: 2000, required: true },
      rounds: [{ hands: 10, advance: 3 }, { hands: 10 }], prizes: [6000, 3000, 1000] }, schedule: { betting: '15s' }, bots: [] };
  }

  function form() {
    let spec = defaults();
    const f = {};
    const inp = (name, attrs) => (f[name] = h('input', Object.assign({ name, autocomplete: 'off' }, attrs || {})));
    const json = h('textarea', { id: 'tour-json', rows: 12, spellcheck: 'false', class: 'mono' });
    const check = h('div', { id: 'tour-check', class: 'check', role: 'status', 'aria-live': 'polite' });
    const tplSel = h('select', { id: 'tour-template' });
    const tplName = h('input', { id: 'tour-template-name', size: 14, placeholder: t('admin.tour.template_name') });
    f.game = A.select('game', [['mbs-tournament', 'MBS Baccarat Tournament'], ['rws-no-commission', 'RWS Non-Commission'], ['mbs-dragon', 'MBS Dragon']], spec.config.game);
    f.wallet = A.select('wallet', [['', t('admin.tour.wallet_default')], ['internal', t('admin.tour.wallet_internal')], ['seamless', t('admin.tour.wallet_seamless')]], '');
    const units = () => A.unitsOf((f.currency.value || 'XXX').toUpperCase());
    // fill writes a spec into the form's fields.
    function fill(s) {
      const c = s.config || {};
      const u = A.unitsOf(c.currency || 'XXX');
      f.id.value = c.id || '';
      f.name.value = c.name || '';
      f.game.value = c.game || 'mbs-tournament';
      f.currency.value = c.currency || 'XXX';
      f.fee.value = A.toMajor(c.entry_fee || 0, u);
      f.guarantee.value = c.guarantee ? A.toMajor(c.guarantee, u) : '';
      f.chips.value = c.starting_chips || '';
      f.opens.value = c.registration_opens ? local(new Date(c.registration_opens)) : '';
      f.closes.value = c.registration_closes ? local(new Date(c.registration_closes)) : '';
      f.start.value = c.start ? local(new Date(c.start)) : '';
      f.min_entrants.value = c.min_entrants || '';
      f.max_entrants.value = c.max_entrants || '';
      f.table_size.value = c.table_size || '';
      f.stake_min.value = (c.stakes && c.stakes.min) || '';
      f.stake_max.value = (c.stakes && c.stakes.max) || '';
      f.rounds.value = (c.rounds || []).map((r) => (r.hands ? r.hands : r.duration || '') + (r.advance ? ':' + r.advance : '')).join(', ');
      f.prizes.value = (c.prizes || []).join(', ');
      f.bots.value = (s.bots || []).length || '';
      f.betting.value = (s.schedule && s.schedule.betting) || '';
      f.wallet.value = s.wallet || '';
    }
    // read turns the fields into the spec, keeping what the form has no field for.
    function read() {
      const c = Object.assign({}, spec.config);
      const u = units();
      const intv = (el) => (el.value.trim() === '' ? 0 : Number(el.value.trim()));
      c.id = f.id.value.trim();
      c.name = f.name.value.trim();
      c.game = f.game.value;
      c.currency = (f.currency.value.trim() || 'XXX').toUpperCase();
      c.entry_fee = A.parseMajor(f.fee.value || '0', u);
      c.guarantee = f.guarantee.value.trim() ? A.parseMajor(f.guarantee.value, u) : 0;
      if (!c.guarantee) delete c.guarantee;
      c.starting_chips = intv(f.chips);
      c.registration_opens = fromLocal(f.opens.value);
      c.registration_closes = fromLocal(f.closes.value);
      c.start = fromLocal(f.start.value);
      c.min_entrants = intv(f.min_entrants);
      c.max_entrants = intv(f.max_entrants);
      c.table_size = intv(f.table_size);
      c.stakes = Object.assign({}, c.stakes || {}, { min: intv(f.stake_min), max: intv(f.stake_max) });
      const old = c.rounds || [];
      c.rounds = f.rounds.value.split(',').map((x) => x.trim()).filter(Boolean).map((x, i) => {
        const [len, adv] = x.split(':');
        const r = Object.assign({}, old[i] || {});
        delete r.hands;
        delete r.duration;
        if (/^\d+$/.test(len)) r.hands = Number(len); else r.duration = len;
        if (adv) r.advance = Number(adv); else delete r.advance;
        return r;
      });
      c.prizes = f.prizes.value.split(',').map((x) => x.trim()).filter(Boolean).map(Number);
      const s = Object.assign({}, spec, { config: c });
      const nb = intv(f.bots);
      s.bots = Array.from({ length: nb }, (_, i) => ({ id: 'bot.house-' + (i + 1), strategy: STRATS[i % STRATS.length] }));
      s.schedule = Object.assign({}, spec.schedule || {});
      if (f.betting.value.trim()) s.schedule.betting = f.betting.value.trim(); else delete s.schedule.betting;
      if (f.wallet.value) s.wallet = f.wallet.value; else delete s.wallet;
      return s;
    }
    let lastKey = null;
    const runCheck = A.debounce(async () => {
      const key = JSON.stringify(spec);
      if (key === lastKey) return;
      lastKey = key;
      try {
        const c = await api('POST', '/api/admin/tournaments/check', spec);
        if (key !== lastKey) return;
        check.className = 'check ' + (c.ok ? 'check-ok' : 'check-bad');
        check.setAttribute('data-ok', c.ok ? 'true' : 'false');
        setText(check, c.ok ? t('admin.check_ok') : (c.problem && c.problem.message) || '');
      } catch (e) {
        check.className = 'check check-bad';
        check.setAttribute('data-ok', 'false');
        setText(check, Bac.errorText(e));
      }
    }, 250);
    const fromFields = () => {
      const s = read();
      if (s.config.entry_fee === null || s.config.guarantee === null) {
        check.className = 'check check-bad';
        setText(check, t('admin.bad_amount'));
        return;
      }
      spec = s;
      json.value = JSON.stringify(spec, null, 1);
      runCheck();
    };
    json.addEventListener('input', () => {
      try { spec = JSON.parse(json.value); fill(spec); runCheck(); } catch (e) { check.className = 'check check-bad'; setText(check, t('admin.tour.bad_json')); }
    });
    const fields = h('div', { class: 'tour-fields' },
      h('div', { class: 'form-row' }, A.field(t('admin.tour.id'), inp('id', { id: 'tour-id', size: 14 })), A.field(t('admin.tour.name'), inp('name', { id: 'tour-name', size: 20 })),
        A.field(t('admin.col.game'), f.game), A.field(t('admin.col.currency'), inp('currency', { size: 4, maxlength: 3 })), A.field(t('admin.tour.wallet'), f.wallet)),
      h('div', { class: 'form-row' }, A.field(t('admin.tour.fee'), inp('fee', { id: 'tour-fee', inputmode: 'decimal', size: 9 })),
        A.field(t('admin.tour.guarantee'), inp('guarantee', { inputmode: 'decimal', size: 9 })),
        A.field(t('admin.tour.chips'), inp('chips', { inputmode: 'numeric', size: 9 }), t('admin.range', { from: 1, to: '10^15' })),
        A.field(t('admin.tour.stake_min'), inp('stake_min', { inputmode: 'numeric', size: 7 })), A.field(t('admin.tour.stake_max'), inp('stake_max', { inputmode: 'numeric', size: 7 }))),
      h('div', { class: 'form-row' }, A.field(t('admin.tour.opens'), inp('opens', { type: 'datetime-local', id: 'tour-opens' })),
        A.field(t('admin.tour.closes'), inp('closes', { type: 'datetime-local', id: 'tour-closes' })),
        A.field(t('admin.tour.start'), inp('start', { type: 'datetime-local', id: 'tour-start' }), t('admin.tour.start_hint'))),
      h('div', { class: 'form-row' }, A.field(t('admin.tour.min_entrants'), inp('min_entrants', { inputmode: 'numeric', size: 6 }), t('admin.range', { from: 2, to: '100,000' })),
        A.field(t('admin.tour.max_entrants'), inp('max_entrants', { inputmode: 'numeric', size: 7 })),
        A.field(t('admin.tour.table_size'), inp('table_size', { inputmode: 'numeric', size: 5 }), t('admin.range', { from: 2, to: 1000 })),
        A.field(t('admin.tour.bots'), inp('bots', { inputmode: 'numeric', size: 4, id: 'tour-bots' }))),
      h('div', { class: 'form-row' }, A.field(t('admin.tour.rounds'), inp('rounds', { size: 24, id: 'tour-rounds' }), t('admin.tour.rounds_hint')),
        A.field(t('admin.tour.prizes'), inp('prizes', { size: 20, id: 'tour-prizes' }), t('admin.tour.prizes_hint')),
        A.field(t('admin.tour.betting'), inp('betting', { size: 6, placeholder: '15s' }), t('admin.tour.betting_hint'))));
    fields.addEventListener('input', fromFields);
    fields.addEventListener('change', fromFields);
    const loadTemplates = async () => {
      const list = await api('GET', '/api/admin/tournament-templates');
      A.put(tplSel, h('option', { value: '' }, t('admin.tour.no_template')), ...list.map((x) => h('option', { value: x.name, 'data-spec': JSON.stringify(x.spec) }, x.name)));
    };
    tplSel.addEventListener('change', () => {
      const o = tplSel.selectedOptions[0];
      if (!o || !o.value) return;
      spec = JSON.parse(o.getAttribute('data-spec'));
      fill(spec);
      tplName.value = o.value;
      json.value = JSON.stringify(spec, null, 1);
      runCheck();
    });
    const el = h('form', { id: 'tour-form', class: 'admin-form', hidden: true },
      h('div', { class: 'form-row' }, A.field(t('admin.tour.template'), tplSel), A.field(t('admin.tour.template_name'), tplName),
        h('button', { class: 'btn btn-sm', type: 'button', id: 'tour-save-template', onclick: async () => {
          if (await A.act(() => api('PUT', '/api/admin/tournament-templates/' + A.enc(tplName.value.trim()), spec), t('admin.tour.template_saved'))) loadTemplates();
        } }, t('admin.tour.save_template'))),
      fields, h('details', null, h('summary', null, t('admin.tour.json')), json), check,
      h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-gold', type: 'submit', id: 'tour-create' }, t('admin.tour.create')),
        h('button', { class: 'btn', type: 'button', onclick: () => { el.hidden = true; } }, t('admin.cancel'))));
    el.addEventListener('submit', async (e) => {
      e.preventDefault();
      const made = await A.act(() => api('POST', '/api/admin/tournaments', spec), t('admin.tour.made'));
      if (made) { el.hidden = true; list(); }
    });
    el.open = () => {
      el.hidden = false;
      spec = defaults();
      fill(spec);
      json.value = JSON.stringify(spec, null, 1);
      lastKey = null;
      runCheck();
      loadTemplates().catch(() => null);
    };
    return el;
  }

  async function list() {
    const ts = await api('GET', '/api/tournaments');
    A.put(box.list, A.grid([{ label: t('admin.tour.name') }, { label: t('admin.col.game') }, { label: t('admin.col.phase') },
      { label: t('admin.tour.entrants'), num: true }, { label: t('admin.tour.pool'), num: true }, { label: t('admin.tour.start') }, { label: '' }],
    ts.map((x) => {
      const ended = x.phase === 'finished' || x.phase === 'cancelled';
      return A.row({ 'data-tournament': x.id, 'data-phase': x.phase, 'data-cancelling': x.cancelling ? 'true' : null }, [
        h('td', null, h('b', null, x.name || x.id), h('div', { class: 'muted small' }, x.id)), Bac.gameName(x.game), t('admin.tphase.' + x.phase) + (x.cancelling ? ' …' : ''),
        A.num(Bac.fmtInt((x.state.entrants || []).length)), A.num(A.money(x.state.pool && x.state.pool.total, x.minor_units, x.config.currency)),
        h('td', { class: 'small nowrap' }, A.when(x.config.start)),
        h('td', { class: 'actions' }, h('button', { class: 'btn btn-sm', type: 'button', 'data-watch': x.id, onclick: () => watch(x.id) }, t('admin.tour.watch')),
          ended ? null : cancelButton(x.id))]);
    }), { id: 'tour-list' }));
  }

  function cancelButton(id) {
    return A.confirmed(t('admin.tour.cancel'), 'btn-danger', async () => {
      const why = (box.reason.value || '').trim();
      if (!why) {
        Bac.toast(t('admin.tour.reason_needed'), { kind: 'error' });
        box.reason.focus();
        return;
      }
      if (await A.act(() => api('POST', '/api/admin/tournaments/' + A.enc(id) + '/cancel', { reason: why }), t('admin.tour.cancelled'))) {
        box.reason.value = '';
        list();
      }
    }, { 'data-cancel': id });
  }

  let watching = null;
  function watch(id) {
    watching = id;
    const draw = async () => {
      if (watching !== id) return;
      const x = await api('GET', '/api/tournaments/' + A.enc(id));
      const cash = (v) => A.money(v, x.minor_units, x.config.currency);
      const st = x.state || {};
      A.put(box.watch, h('section', { class: 'panel', id: 'tour-watch', 'data-tournament': id, 'data-phase': x.phase },
        h('h2', null, x.name || x.id, ' · ', t('admin.tphase.' + x.phase), h('span', { class: 'spacer' }), h('a', { href: '/tournament/' + A.enc(id), class: 'btn btn-sm' }, t('admin.tour.page'))),
        h('div', { class: 'facts' }, h('span', { 'data-entrants': (st.entrants || []).length }, Bac.tn('admin.tour.n_entrants', (st.entrants || []).length)),
          h('span', { 'data-pool': st.pool && st.pool.total }, t('admin.tour.pool') + ': ' + cash(st.pool && st.pool.total)),
          x.cancelling ? h('span', { class: 'badge badge-warn' }, t('admin.tour.cancelling')) : null),
        h('h2', null, t('admin.tour.tables')), h('ul', { class: 'kv small' }, (x.tables || []).map((tb) => h('li', null,
          tb.table_id ? A.link('/admin/table/' + A.enc(tb.table_id), t('admin.tour.table_n', { n: tb.table })) : t('admin.tour.table_n', { n: tb.table }),
          h('span', null, (tb.players || []).join(', '))))),
        h('h2', null, t('admin.tour.leaderboard')), A.grid([{ label: '#', num: true }, { label: t('admin.col.player') }, { label: t('admin.tour.chips'), num: true }],
          (st.leaderboard || []).slice(0, 20).map((s) => A.row({ 'data-player': s.player }, [A.num(String(s.rank)), s.player, A.num(Bac.fmtInt(s.chips))])))));
    };
    A.every(3000, draw);
  }

  A.register('tournaments', {
    roles: ['admin'],
    enter(root) {
      if (!box) {
        const f = form();
        box = { list: h('div', { id: 'tour-list-box' }), watch: h('div', { id: 'tour-watch-box' }), form: f,
          reason: h('input', { id: 'tour-cancel-reason', size: 30, maxlength: 500, placeholder: t('admin.tour.cancel_reason') }) };
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.tournaments')),
          h('button', { class: 'btn btn-gold', type: 'button', id: 'new-tournament', onclick: () => f.open() }, t('admin.tour.new'))),
        f, h('section', { class: 'panel' }, h('div', { class: 'form-row' }, A.field(t('admin.tour.cancel_reason'), box.reason)), box.list), box.watch);
      }
      A.every(3000, list);
      if (watching) watch(watching);
    },
  });
})(window.Bac, window.BacAdmin);
