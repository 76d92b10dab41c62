/* admin-accounts.js: Accounts (/admin/accounts, admins): find an account by id or name (GET
   /api/admin/search/accounts), create staff and players (the answer's token is shown once, as
   a sign-in link), and for the account picked: assign tables to a dealer or pit, rename,
   disable or enable, revoke every token, issue another, credit or debit a player's wallet
   with a reason, the wallet's statement and the player's sessions. Every change carries a
   reason to the audit trail. Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  let box = null;

  function signInLink(token) {
    const url = location.origin + '/?token=' + encodeURIComponent(token);
    return h('div', { class: 'alert token', id: 'acct-token', 'data-token': token }, h('span', { class: 'grow' }, t('admin.acct.token_once')),
      h('code', { class: 'mono wrap' }, url), h('button', { class: 'btn btn-sm', type: 'button', onclick: () => Bac.copyText(url).then((ok) => ok && Bac.toast(t('admin.copied'))) }, t('admin.copy')));
  }

  function createForm() {
    const id = h('input', { name: 'id', id: 'acct-new-id', size: 14, required: true });
    const name = h('input', { name: 'name', id: 'acct-new-name', size: 18 });
    const role = A.select('role', ['player', 'dealer', 'pit', 'admin'].map((r) => [r, t('role.' + r)]), 'player');
    role.id = 'acct-new-role';
    const tables = h('input', { name: 'tables', id: 'acct-new-tables', size: 20, placeholder: 'tiger-1, tiger-2' });
    const reason = h('input', { name: 'reason', id: 'acct-new-reason', size: 20, maxlength: 500 });
    const out = h('div', { id: 'acct-new-out' });
    const f = h('form', { id: 'acct-form', class: 'admin-form', hidden: true }, h('div', { class: 'form-row' }, A.field(t('admin.acct.id'), id),
      A.field(t('admin.acct.name'), name), A.field(t('admin.acct.role'), role), A.field(t('admin.acct.tables'), tables, t('admin.acct.tables_hint')),
      A.field(t('admin.reason'), reason)), h('button', { class: 'btn btn-gold', type: 'submit', id: 'acct-create' }, t('admin.acct.create')), out);
    f.addEventListener('submit', async (e) => {
      e.preventDefault();
      const body = { id: id.value.trim(), name: name.value.trim(), role: role.value, reason: reason.value.trim() };
      const ts = tables.value.split(/[\s,]+/).filter(Boolean);
      if (ts.length) body.tables = ts;
      const a = await A.act(() => api('POST', '/api/admin/accounts', body), t('admin.acct.created', { id: body.id }));
      if (!a) return;
      A.put(out, signInLink(a.token));
      search(a.id);
      open(a.id);
    });
    return f;
  }

  async function search(q) {
    const list = await api('GET', '/api/admin/search/accounts?limit=100&q=' + A.enc(q || ''));
    A.put(box.list, A.grid([{ label: t('admin.acct.id') }, { label: t('admin.acct.name') }, { label: t('admin.acct.role') },
      { label: t('admin.acct.tables') }, { label: t('admin.acct.state') }],
    list.map((a) => A.row({ 'data-account': a.id, 'data-role': a.role, 'data-disabled': a.disabled ? 'true' : 'false', class: 'clickable',
      onclick: () => open(a.id) }, [h('td', null, h('button', { class: 'link strong', type: 'button' }, a.id)), a.name || '', t('role.' + a.role),
      (a.tables || []).join(', '), a.disabled ? t('admin.acct.disabled') : t('admin.acct.active')]))));
  }

  // open shows one account: its facts, its actions and, for a player, the wallet.
  async function open(id) {
    const a = await A.act(() => api('GET', '/api/admin/accounts/' + A.enc(id)));
    if (!a) return;
    const d = box.detail;
    const reason = h('input', { name: 'reason', id: 'acct-reason', size: 24, maxlength: 500, placeholder: t('admin.reason') });
    const why = () => reason.value.trim();
    const patch = async (body, done) => {
      const out = await A.act(() => api('PATCH', '/api/admin/accounts/' + A.enc(id), Object.assign({ reason: why() }, body)), done);
      if (out) { open(id); search(box.q.value); }
    };
    const name = h('input', { name: 'name', id: 'acct-name', size: 18, value: a.name || '' });
    const tables = h('input', { name: 'tables', id: 'acct-tables', size: 24, value: (a.tables || []).join(', ') });
    const staff = a.role === 'dealer' || a.role === 'pit';
    const tokenOut = h('div', { id: 'acct-token-out' });
    const actions = h('div', { class: 'form-row' },
      A.field(t('admin.acct.name'), name), h('button', { class: 'btn btn-sm', type: 'button', id: 'acct-rename', onclick: () => patch({ name: name.value.trim() }, t('admin.saved')) }, t('admin.save')),
      staff ? A.field(t('admin.acct.tables'), tables, t('admin.acct.tables_hint')) : null,
      staff ? h('button', { class: 'btn btn-sm', type: 'button', id: 'acct-assign', onclick: () => patch({ tables: tables.value.split(/[\s,]+/).filter(Boolean) }, t('admin.saved')) }, t('admin.acct.assign')) : null);
    const controls = h('div', { class: 'form-row' }, A.field(t('admin.reason'), reason),
      a.disabled ? h('button', { class: 'btn btn-sm', type: 'button', id: 'acct-enable', onclick: () => patch({ disabled: false }, t('admin.acct.enabled')) }, t('admin.acct.enable'))
        : A.confirmed(t('admin.acct.disable'), 'btn-danger', () => patch({ disabled: true }, t('admin.acct.disabled_done')), { id: 'acct-disable' }),
      A.confirmed(t('admin.acct.revoke'), 'btn-danger', async () => {
        const out = await A.act(() => api('POST', '/api/admin/accounts/' + A.enc(id) + '/revoke', { reason: why() }), t('admin.acct.revoked'));
        if (out) A.put(tokenOut, signInLink(out.token));
      }, { id: 'acct-revoke' }),
      h('button', { class: 'btn btn-sm', type: 'button', id: 'acct-new-token', disabled: a.disabled || null, onclick: async () => {
        const out = await A.act(() => api('POST', '/api/admin/accounts/' + A.enc(id) + '/token'));
        if (out) A.put(tokenOut, signInLink(out.token));
      } }, t('admin.acct.token')));
    A.put(d, h('section', { class: 'panel', id: 'acct-detail', 'data-account': a.id, 'data-disabled': a.disabled ? 'true' : 'false' },
      h('h2', null, a.name || a.id, ' · ', t('role.' + a.role), a.disabled ? h('span', { class: 'badge badge-warn' }, t('admin.acct.disabled')) : null),
      h('div', { class: 'muted small' }, t('admin.acct.created_at', { at: A.when(a.created) }), ' · ', t('admin.acct.epoch', { n: a.epoch })),
      actions, controls, tokenOut, a.role === 'player' ? wallet(a) : null));
    if (window.matchMedia('(max-width: 999px)').matches) d.scrollIntoView({ block: 'start' }); // one column: the account is below the list
  }

  // wallet: a player's balance, credit and debit, statement and sessions.
  function wallet(a) {
    const el = h('div', { id: 'acct-wallet' });
    (async () => {
      const cur0 = a.currency || 'XXX';
      const st = await api('GET', '/api/admin/accounts/' + A.enc(a.id) + '/statement?limit=1000&currency=' + A.enc(cur0));
      const units = st.minor_units;
      const curs = (st.wallets || [{ currency: cur0 }]).map((w) => w.currency);
      const cur = A.select('currency', curs.map((c) => [c, c]), cur0);
      cur.id = 'money-currency';
      const amount = h('input', { name: 'amount', id: 'money-amount', inputmode: 'decimal', size: 12 });
      const why = h('input', { name: 'reason', id: 'money-reason', size: 24, maxlength: 500 });
      const move = async (kind) => {
        const u = cur.value === st.currency ? units : A.unitsOf(cur.value);
        const v = A.parseMajor(amount.value, u);
        if (!v) return Bac.toast(t('admin.bad_amount'), { kind: 'error' });
        const out = await A.act(() => api('POST', '/api/admin/accounts/' + A.enc(a.id) + '/' + kind, { amount: v, currency: cur.value, key: Bac.uuid(), reason: why.value.trim() }),
          t(kind === 'credit' ? 'admin.acct.credited' : 'admin.acct.debited', { amount: A.money(v, u, cur.value) }));
        if (out) { amount.value = ''; why.value = ''; open(a.id); }
      };
      const entries = (st.entries || []).slice(-50).reverse();
      A.put(el, 
        h('h2', null, t('admin.acct.wallet')),
        h('div', { class: 'balance-line', id: 'acct-balance', 'data-balance': a.balance, 'data-currency': a.currency },
          t('admin.acct.balance'), ' ', h('b', null, A.money(a.balance, units, a.currency || st.currency))),
        h('form', { class: 'admin-form', id: 'money-form', onsubmit: (e) => e.preventDefault() }, h('div', { class: 'form-row' },
          A.field(t('admin.col.currency'), cur), A.field(t('admin.acct.amount'), amount), A.field(t('admin.reason'), why)),
        h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-gold btn-sm', type: 'button', id: 'money-credit', onclick: () => move('credit') }, t('admin.acct.credit')),
          A.confirmed(t('admin.acct.debit'), 'btn-danger', () => move('debit'), { id: 'money-debit' }))),
        h('h2', null, t('admin.acct.statement')),
        A.grid([{ label: '#' }, { label: t('admin.col.when') }, { label: t('admin.col.what') }, { label: t('admin.acct.amount'), num: true }, { label: t('admin.acct.balance'), num: true }],
          entries.map((e) => A.row({ 'data-seq': e.seq, 'data-memo': e.memo }, [A.num(String(e.seq)), h('td', { class: 'small nowrap' }, A.when(e.at)),
            h('td', null, e.memo || '', e.table && e.round ? [' · ', A.link('/admin/rounds?table=' + A.enc(e.table) + '&round=' + e.round, e.table + ' #' + e.round)] : ''),
            A.num(A.amount(e.amount, units)), A.num(A.amount(e.balance, units))])), { id: 'acct-statement' }),
        h('h2', null, t('admin.acct.sessions')), h('div', { id: 'acct-sessions-box' }));
      const ss = await api('GET', '/api/admin/accounts/' + A.enc(a.id) + '/sessions');
      el.querySelector('#acct-sessions-box').replaceChildren(A.grid([{ label: t('admin.col.table') }, { label: t('admin.col.day') }, { label: t('admin.acct.first') },
        { label: t('admin.acct.last') }, { label: t('admin.col.wagers'), num: true }, { label: t('admin.col.staked'), num: true }],
      ss.map((s) => A.row({ 'data-session': s.table + '/' + s.day }, [s.table, s.day, A.when(s.first), A.when(s.last), A.num(Bac.fmtInt(s.wagers)),
        A.num(A.money(s.staked, undefined, s.currency))])), { id: 'acct-sessions' }));
    })().catch((e) => A.put(el, h('div', { class: 'alert' }, Bac.errorText(e))));
    return el;
  }

  A.register('accounts', {
    roles: ['admin'],
    enter(root, arg, params) {
      if (!box) {
        const q = h('input', { type: 'search', id: 'acct-q', size: 24, placeholder: t('admin.acct.find'), 'aria-label': t('admin.acct.find') });
        const form = createForm();
        box = { q, list: h('div', { id: 'acct-list-box' }), detail: h('div', { id: 'acct-detail-box' }) };
        q.addEventListener('input', A.debounce(() => search(q.value).catch(Bac.toastError), 250));
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.accounts')),
          h('button', { class: 'btn btn-gold', type: 'button', id: 'new-account', onclick: () => { form.hidden = !form.hidden; } }, t('admin.acct.new'))),
        form, h('div', { class: 'two-col' }, h('section', { class: 'panel' }, q, box.list), box.detail));
      }
      search(box.q.value).catch(Bac.toastError);
      if (params.get('id')) open(params.get('id'));
    },
  });
})(window.Bac, window.BacAdmin);
