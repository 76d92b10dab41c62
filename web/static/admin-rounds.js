/* admin-rounds.js: game recall (/admin/rounds?table=&round=, or &wager=, or ?tx=): a round
   looked up by its table and number, by a wager of the table, or by a ledger transaction's key
   or a wallet call's tx (GET /api/admin/rounds). It shows the round's cards in order, its
   shoe's commitment and, once the shoe is over, its revealed order (the round's cards marked)
   and the exact text whose SHA-256 is the commitment, every event with who did it, when and
   why, every wager and settlement, and the postings the books made. Needs admin.js and
   events.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api } = Bac;
  let box = null;

  function form(params) {
    const table = h('input', { name: 'table', id: 'rl-table', size: 16, value: params.get('table') || '', list: 'rl-tables', autocomplete: 'off' });
    const round = h('input', { name: 'round', id: 'rl-round', inputmode: 'numeric', size: 8, value: params.get('round') || '' });
    const wager = h('input', { name: 'wager', id: 'rl-wager', inputmode: 'numeric', size: 8, value: params.get('wager') || '' });
    const tx = h('input', { name: 'tx', id: 'rl-tx', size: 28, value: params.get('tx') || '', autocomplete: 'off' });
    const list = h('datalist', { id: 'rl-tables' });
    api('GET', '/api/admin/tables').then((ts) => A.put(list, ...ts.map((x) => h('option', { value: x.id }, x.name)))).catch(() => null);
    const f = h('form', { id: 'recall-form', class: 'admin-form' }, h('div', { class: 'form-row' },
      A.field(t('admin.col.table'), table), A.field(t('admin.rounds.round'), round), A.field(t('admin.rounds.wager'), wager),
      A.field(t('admin.rounds.tx'), tx, t('admin.rounds.tx_hint'))), list,
    h('button', { class: 'btn btn-gold', type: 'submit', id: 'recall-go' }, t('admin.rounds.find')));
    f.addEventListener('submit', (e) => {
      e.preventDefault();
      const q = new URLSearchParams();
      if (tx.value.trim()) q.set('tx', tx.value.trim());
      else {
        q.set('table', table.value.trim());
        if (wager.value.trim()) q.set('wager', wager.value.trim());
        else q.set('round', round.value.trim());
      }
      A.go('/admin/rounds?' + q.toString());
    });
    return f;
  }

  function shoeView(r) {
    const s = r.shoe;
    if (!s) return h('div', { class: 'muted' }, t('admin.rounds.no_shoe'));
    const parts = [h('div', null, t('admin.rounds.shoe_n', { n: s.number }), s.decks ? ' · ' + Bac.tn('admin.decks', s.decks) : '', s.live ? ' · ' + t('admin.rounds.live_shoe') : '')];
    if (s.commitment) parts.push(h('div', { class: 'mono wrap', id: 'recall-commitment', 'data-commitment': s.commitment }, t('admin.rounds.commitment'), ' ', h('code', null, s.commitment)));
    if (!s.revealed) {
      parts.push(h('div', { class: 'muted', id: 'recall-unrevealed' }, s.live ? t('admin.rounds.dealer_shoe') : t('admin.rounds.not_revealed')));
      return h('div', null, parts);
    }
    // The round's cards in the revealed order: a card dealt with `left` cards left behind it was
    // card number cards − left of the shoe.
    const total = s.cards || (s.order || []).length;
    const mine = new Set(r.cards.filter((c) => c.card && c.left !== undefined).map((c) => total - c.left - 1));
    parts.push(h('div', { id: 'recall-verified', 'data-verified': s.verified === true ? 'true' : s.verified === false ? 'false' : '' },
      s.verified === true ? t('admin.rounds.verified') : s.verified === false ? t('admin.rounds.not_verified') : ''));
    parts.push(h('div', { class: 'shoe-order', id: 'recall-order', 'data-cards': s.order.length }, s.order.map((c, i) => h('span', {
      class: 'card-inline' + (mine.has(i) ? ' mark' : ''), title: '#' + (i + 1) }, c))));
    parts.push(h('details', { class: 'small' }, h('summary', null, t('admin.rounds.hashed_text')),
      h('code', { class: 'mono wrap', id: 'recall-hashed' }, s.salt + ':' + s.order.join(''))));
    return h('div', null, parts);
  }

  function recall(r) {
    window.BacCurrency.set(r.minor_units, r.currency);
    const cash = (v) => A.money(v, r.minor_units, r.currency);
    const ctx = { game: null, me: null };
    const cards = h('div', { class: 'recall-cards', id: 'recall-cards', 'data-recall-cards': r.cards.map((c) => c.card).join(' ') },
      r.cards.map((c) => h('span', { class: 'recall-card' }, Bac.cardEl(c.card, c.position, { small: true }), h('small', null, c.position))));
    const events = A.grid([{ label: '#' }, { label: t('admin.col.when') }, { label: t('admin.col.what') }, { label: t('admin.col.who') }, { label: t('admin.col.why') }],
      r.events.map((e) => {
        let ev = {};
        try { ev = typeof e.event === 'string' ? JSON.parse(e.event) : e.event || {}; } catch (x) { ev = {}; }
        ev.seq = e.seq;
        return A.row({ 'data-seq': e.seq, 'data-type': e.type }, [A.num(String(e.seq)), h('td', { class: 'small nowrap' }, A.when(e.at)),
          Bac.describeEvent(ev, ctx), e.actor ? e.actor + (e.role ? ' (' + t('role.' + e.role) + ')' : '') : '—', e.reason ? Bac.humanize(e.reason) : '']);
      }), { id: 'recall-events' });
    const wagers = A.grid([{ label: t('admin.rounds.wager') }, { label: t('admin.col.player') }, { label: t('admin.live.bet') }, { label: t('admin.col.stake'), num: true }],
      r.wagers.map((w) => A.row({ 'data-wager': w.id }, [A.num(String(w.id)), w.player, Bac.betName(null, w.bet), A.num(cash(w.stake))])), { id: 'recall-wagers' });
    const settles = A.grid([{ label: t('admin.rounds.wager') }, { label: t('admin.col.player') }, { label: t('admin.live.bet') }, { label: t('admin.col.outcome') },
      { label: t('admin.col.stake'), num: true }, { label: t('admin.col.net'), num: true }, { label: t('admin.col.returned'), num: true }],
    r.settlements.map((s) => A.row({ 'data-wager': s.wager, 'data-outcome': s.outcome, 'data-net': s.net }, [A.num(String(s.wager)), s.player,
      Bac.betName(null, s.bet), t('outcome.' + s.outcome), A.num(cash(s.stake)), A.num(cash(s.net)), A.num(cash(s.returned))])), { id: 'recall-settlements' });
    const postings = (r.calls || []).length
      ? h('ul', { class: 'postings small', id: 'recall-calls' }, r.calls.map((c) => h('li', { 'data-call': c.tx, 'data-kind': c.kind, 'data-state': c.state },
        h('code', null, c.tx), ' ', c.kind + ' · ' + c.player + ' · ' + t('admin.rounds.wager') + ' ' + (c.table_wager || c.wager) + ': ',
        A.amount(c.amount, r.minor_units), ' · ' + c.state)))
      : h('ul', { class: 'postings small', id: 'recall-postings' }, r.postings.map((p) => h('li', { 'data-key': p.key },
        h('code', null, p.key), ' ', p.memo || '', ': ', p.postings.map((x) => x.account + ' ' + (x.amount > 0 ? '+' : '') + A.amount(x.amount, r.minor_units)).join(', '))));
    return h('div', { class: 'recall-full', id: 'recall', 'data-table': r.table, 'data-round': r.round, 'data-status': r.status },
      h('section', { class: 'panel' }, h('h2', null, t('admin.rounds.title', { table: r.name || r.table, n: r.round })),
        h('div', { class: 'facts' }, h('span', { 'data-status': r.status }, t('admin.rounds.status.' + r.status)),
          h('span', { class: 'mono' }, r.result || ''), h('span', null, A.when(r.at)), h('span', { class: 'muted' }, t('admin.rounds.found', { how: r.found }))),
        h('h2', null, t('recall.cards')), cards, r.cards.length ? null : h('div', { class: 'muted' }, t('none')),
        h('h2', null, t('admin.rounds.shoe')), shoeView(r)),
      h('section', { class: 'panel' }, h('h2', null, t('recall.steps')), events),
      h('section', { class: 'panel' }, h('h2', null, t('admin.rounds.wagers')), wagers, h('h2', null, t('admin.rounds.settlements')), settles,
        h('h2', null, (r.calls || []).length ? t('admin.rounds.calls') : t('admin.rounds.postings')), postings));
  }

  A.register('rounds', {
    roles: ['pit', 'admin'],
    async enter(root, arg, params) {
      box = h('div', { id: 'recall-box' });
      A.put(root, h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.rounds'))), h('section', { class: 'panel' }, form(params)), box);
      if (!params.get('tx') && !(params.get('table') && (params.get('round') || params.get('wager')))) return;
      A.put(box, h('div', { class: 'muted' }, t('admin.loading')));
      try {
        A.put(box, recall(await api('GET', '/api/admin/rounds?' + params.toString())));
      } catch (e) {
        A.put(box, h('div', { class: 'alert', id: 'recall-error', 'data-code': e.code }, Bac.errorText(e)));
      }
    },
  });
})(window.Bac, window.BacAdmin);
