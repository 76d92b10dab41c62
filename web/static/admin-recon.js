/* admin-recon.js: Reconciliation (/admin/reconciliation, admins): for the internal wallet,
   the books' own totals by currency (GET /api/admin/books: the house, the wallets and the
   tables' in-play money, which sum to zero in books that balance); for the operator's wallet,
   the day's (or any period's) report (GET /api/admin/reconciliation): totals per currency,
   every call not yet delivered, and every call the operator refused for good, each resent or
   settled by hand with a reason here (POST …/calls/{tx}/resend, …/settle). Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  let box = null;

  function callsTable(list, id, actions) {
    return A.grid([{ label: 'tx' }, { label: t('admin.rec.kind') }, { label: t('admin.col.player') }, { label: t('admin.col.table') },
      { label: t('admin.col.amount'), num: true }, { label: t('admin.rec.state') }, { label: t('admin.col.when') }, { label: '' }],
    list.map((c) => A.row({ 'data-call': c.tx, 'data-state': c.state, 'data-kind': c.kind }, [h('td', { class: 'mono small' }, c.tx), c.kind, c.player,
      c.table ? A.link('/admin/rounds?table=' + A.enc(c.table) + '&round=' + c.round, c.table + ' #' + c.round) : '',
      A.num(A.money(c.amount, undefined, c.currency)), c.state + (c.error ? ' · ' + c.error : '') + (c.resolution ? ' · ' + c.resolution.by + ': ' + (c.resolution.reason || '') : ''),
      h('td', { class: 'small nowrap' }, A.when(c.created)), h('td', { class: 'actions' }, actions ? actions(c) : null)])), { id });
  }

  function resolveButtons(c) {
    const go = async (kind) => {
      const reason = box.reason.value.trim();
      if (kind === 'settle' && !reason) {
        Bac.toast(t('admin.rec.reason_needed'), { kind: 'error' });
        box.reason.focus();
        return;
      }
      if (await A.act(() => api('POST', '/api/admin/reconciliation/calls/' + A.enc(c.tx) + '/' + kind, { reason }), t('admin.rec.done_' + kind))) {
        box.reason.value = '';
        load();
      }
    };
    return [h('button', { class: 'btn btn-sm', type: 'button', 'data-action': 'resend', onclick: () => go('resend') }, t('admin.rec.resend')),
      A.confirmed(t('admin.rec.settle'), 'btn-danger', () => go('settle'), { 'data-action': 'settle' })];
  }

  async function load() {
    const books = await api('GET', '/api/admin/books');
    A.put(box.books, A.grid([{ label: t('admin.col.currency') }, { label: t('admin.rec.house'), num: true }, { label: t('admin.rec.wallets'), num: true },
      { label: t('admin.rec.in_play'), num: true }, { label: t('admin.rec.accounts'), num: true }, { label: t('admin.rec.balanced') }],
    books.map((b) => A.row({ 'data-currency': b.currency, 'data-balanced': b.balanced ? 'true' : 'false', 'data-house': b.house, 'data-wallets': b.wallets },
      [h('td', null, h('b', null, b.currency), b.seamless ? h('span', { class: 'badge' }, t('admin.rec.seamless')) : null),
        A.num(A.money(b.house, b.minor_units, b.currency)), A.num(A.money(b.wallets, b.minor_units, b.currency)),
        A.num(A.money(b.in_play, b.minor_units, b.currency)), A.num(Bac.fmtInt(b.accounts)),
        h('td', { class: b.balanced ? 'ok' : 'bad' }, b.balanced ? t('admin.rec.yes') : t('admin.rec.no'))])), { id: 'books' }));
    const q = new URLSearchParams();
    if (box.from.value) q.set('from', box.from.value);
    if (box.to.value) q.set('to', box.to.value);
    let r;
    try {
      r = await api('GET', '/api/admin/reconciliation?' + q.toString());
    } catch (e) {
      A.put(box.report, h('div', { class: 'muted' }, Bac.errorText(e)));
      return;
    }
    const totals = Object.entries(r.totals || {});
    A.put(box.report, 
      h('h2', null, t('admin.rec.operator', { from: A.when(r.from), to: A.when(r.to) })),
      totals.length ? A.grid([{ label: t('admin.col.currency') }, { label: t('admin.rec.debited'), num: true }, { label: t('admin.rec.credited'), num: true },
        { label: t('admin.rec.rolled_back'), num: true }, { label: t('admin.rec.outstanding'), num: true }, { label: t('admin.rec.refused'), num: true },
        { label: t('admin.rec.by_hand'), num: true }, { label: t('admin.rec.net'), num: true }],
      totals.map(([cur, x]) => A.row({ 'data-currency': cur }, [cur, A.num(A.money(x.debited, undefined, cur)), A.num(A.money(x.credited, undefined, cur)),
        A.num(A.money(x.rolled_back, undefined, cur)), A.num(A.money(x.outstanding, undefined, cur)), A.num(A.money(x.refused, undefined, cur)),
        A.num(A.money(x.settled_by_hand, undefined, cur)), A.num(A.money(x.net_to_players, undefined, cur))])), { id: 'rec-totals' })
        : h('div', { class: 'muted', id: 'rec-none' }, t('admin.rec.no_calls')),
      h('h2', null, t('admin.rec.failed'), ' ', h('span', { class: 'badge' + ((r.failed || []).length ? ' badge-warn' : '') }, String((r.failed || []).length))),
      callsTable(r.failed || [], 'rec-failed', resolveButtons),
      h('h2', null, t('admin.rec.undelivered')), callsTable(r.undelivered || [], 'rec-open'),
      h('h2', null, t('admin.rec.resolved')), callsTable(r.resolved || [], 'rec-resolved'),
      (r.tournaments || []).length ? h('div', null, h('h2', null, t('admin.rec.tournaments')), A.grid([{ label: t('admin.tour.name') }, { label: t('admin.col.currency') },
        { label: t('admin.rep.fees'), num: true }, { label: t('admin.rep.refunds'), num: true }, { label: t('admin.rep.prizes'), num: true }, { label: t('admin.rec.problems') }],
      r.tournaments.map((x) => A.row({ 'data-tournament': x.tournament }, [x.tournament, x.currency, A.num(A.money(x.paid, undefined, x.currency)),
        A.num(A.money(x.refunded, undefined, x.currency)), A.num(A.money(x.prizes, undefined, x.currency)), (x.problems || []).join('; ') || '—'])))) : null);
  }

  A.register('reconciliation', {
    roles: ['admin'],
    enter(root) {
      if (!box) {
        box = { from: h('input', { type: 'date', id: 'rec-from' }), to: h('input', { type: 'date', id: 'rec-to' }),
          reason: h('input', { id: 'rec-reason', size: 30, maxlength: 500 }), books: h('div', { id: 'books-box' }), report: h('div', { id: 'rec-report' }) };
        const f = h('form', { class: 'admin-form', id: 'rec-form' }, h('div', { class: 'form-row' }, A.field(t('admin.rep.from'), box.from),
          A.field(t('admin.rep.to'), box.to), A.field(t('admin.reason'), box.reason, t('admin.rec.reason_hint'))),
        h('button', { class: 'btn btn-gold', type: 'submit' }, t('admin.rep.load')));
        f.addEventListener('submit', (e) => { e.preventDefault(); load().catch(Bac.toastError); });
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.reconciliation'))),
          h('section', { class: 'panel' }, h('h2', null, t('admin.rec.books')), box.books), h('section', { class: 'panel' }, f, box.report));
      }
      load().catch(Bac.toastError);
    },
  });
})(window.Bac, window.BacAdmin);
