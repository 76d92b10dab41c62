/* admin-audit.js: the audit trail (/admin/audit, admins): every staff action, newest first
   (GET /api/admin/audit): who, when, what, to what and why, with what it changed; searched by
   member of staff, kind of action, target, words, and time, and paged back. Entries come from
   the back office's own actions (written with the action) and from the tables' journals (a
   dealer's or pit's voids, limits and corrections); none can be changed. Below it, the players'
   responsible-gaming record (GET /api/admin/limit-events?before=…): limits set, sessions,
   reality checks, limits reached and exclusions, newest first, for the player the target
   names or everyone's. Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api } = Bac;
  const KINDS = ['account', 'wallet', 'table', 'tournament', 'template', 'reconciliation', 'player'];
  let box = null;
  let oldest = 0;
  let oldestRG = 0;

  // rgText: a responsible-gaming event's particulars in a line.
  function rgText(e) {
    const parts = [];
    if (e.reason) parts.push(e.reason);
    if (e.breach) parts.push(e.breach);
    if (e.message) parts.push(e.message);
    if (e.limits) parts.push(JSON.stringify(e.limits));
    if (e.exclusion) parts.push(e.exclusion.kind + ' → ' + A.when(e.exclusion.until));
    if (e.played_minutes !== undefined && e.kind === 'session_ended') parts.push(e.played_minutes + ' min');
    return parts.join(' · ');
  }

  function rgLine(e) {
    const kind = 'admin.audit.rg_kind_' + e.kind;
    const told = e.delivery ? t('admin.audit.rg_' + e.delivery) : '';
    return A.row({ 'data-seq': e.seq, 'data-kind': e.kind, 'data-player': e.player }, [
      h('td', { class: 'small nowrap' }, A.when(e.at)), h('td', null, h('b', null, e.player)), Bac.has(kind) ? t(kind) : e.kind,
      e.by, h('td', { class: 'small' }, rgText(e)), h('td', { class: 'small muted' }, told)]);
  }

  async function loadRG(more) {
    const q = new URLSearchParams({ limit: '100', before: more && oldestRG ? String(oldestRG) : '0' });
    const target = box.f.target.value.trim();
    if (target) q.set('player', target);
    let list;
    try {
      list = await api('GET', '/api/admin/limit-events?' + q.toString());
    } catch (err) {
      if (err && err.code === 'not_found') { Bac.show(box.rg, false); return; } // a store that keeps no limits
      throw err;
    }
    Bac.show(box.rg, true);
    oldestRG = list.length ? list[list.length - 1].seq : 0;
    const rows = list.map(rgLine);
    if (more) {
      const body = box.rgList.querySelector('tbody');
      for (const r of rows) body.appendChild(r);
    } else {
      A.put(box.rgList, A.grid([{ label: t('admin.col.when') }, { label: t('admin.audit.rg_player') }, { label: t('admin.col.what') },
        { label: t('admin.col.who') }, { label: t('admin.audit.detail') }, { label: t('admin.audit.rg_operator') }], rows, { id: 'audit-rg-list' }));
    }
    Bac.show(box.rgMore, list.length === 100);
  }

  // detailText: what an entry changed, in a line.
  function detailText(e) {
    const d = e.detail || {};
    const parts = [];
    if (d.amount !== undefined && d.currency) parts.push(A.money(d.amount, undefined, d.currency));
    if (d.bet) parts.push(Bac.betName(null, d.bet) + (d.limit ? ' ' + d.limit.min + '–' + d.limit.max : ''));
    if (d.round) parts.push(t('admin.live.round_n', { n: d.round }));
    if (d.note) parts.push(d.note);
    if (d.before && d.after) {
      for (const k of ['name', 'tables', 'disabled', 'epoch']) {
        const a = JSON.stringify(d.before[k]), b = JSON.stringify(d.after[k]);
        if (a !== b) parts.push(k + ': ' + (a || '—') + ' → ' + (b || '—'));
      }
    }
    if (!parts.length && e.detail) parts.push(JSON.stringify(e.detail).slice(0, 160));
    return parts.join(' · ');
  }

  function actionName(a) {
    const k = 'admin.act.' + String(a).replace('.', '_');
    return Bac.has(k) ? t(k) : a;
  }

  function line(e) {
    const round = e.detail && e.detail.round;
    const onTable = String(e.action).startsWith('table') && round;
    return A.row({ 'data-seq': e.seq, 'data-action': e.action, 'data-actor': e.actor, 'data-target': e.target, 'data-source': e.source }, [
      h('td', { class: 'small nowrap' }, A.when(e.at)), h('td', null, h('b', null, e.actor), e.role ? h('div', { class: 'muted small' }, e.role) : null),
      actionName(e.action), onTable ? A.link('/admin/rounds?table=' + A.enc(e.target) + '&round=' + round, e.target) : e.target,
      e.reason ? Bac.humanize(e.reason) : '', h('td', { class: 'small' }, detailText(e)),
      h('td', { class: 'small muted' }, t('admin.audit.source_' + e.source), e.ref ? h('div', { class: 'mono' }, e.ref) : null)]);
  }

  async function load(more) {
    const q = new URLSearchParams({ limit: '100' });
    for (const [k, el] of Object.entries(box.f)) if (el.value.trim()) q.set(k, el.value.trim());
    if (more && oldest) q.set('before', String(oldest));
    const list = await api('GET', '/api/admin/audit?' + q.toString());
    oldest = list.length ? list[list.length - 1].seq : 0;
    const rows = list.map(line);
    if (more) {
      const body = box.list.querySelector('tbody');
      for (const r of rows) body.appendChild(r);
    } else {
      A.put(box.list, A.grid([{ label: t('admin.col.when') }, { label: t('admin.col.who') }, { label: t('admin.col.what') }, { label: t('admin.audit.target') },
        { label: t('admin.col.why') }, { label: t('admin.audit.detail') }, { label: t('admin.audit.source') }], rows, { id: 'audit-list' }));
    }
    Bac.show(box.more, list.length === 100);
  }

  A.register('audit', {
    roles: ['admin'],
    enter(root, arg, params) {
      if (!box) {
        const action = A.select('action', [['', t('admin.audit.any')]].concat(KINDS.map((k) => [k + '.', t('admin.audit.kind_' + k)])), '');
        action.id = 'audit-action';
        box = { f: { actor: h('input', { id: 'audit-actor', size: 12 }), action, target: h('input', { id: 'audit-target', size: 14 }),
          q: h('input', { type: 'search', id: 'audit-q', size: 18 }), from: h('input', { type: 'date', id: 'audit-from' }), to: h('input', { type: 'date', id: 'audit-to' }) },
        list: h('div', { id: 'audit-box' }), more: h('button', { class: 'btn', type: 'button', id: 'audit-more', hidden: true, onclick: () => load(true).catch(Bac.toastError) }, t('admin.audit.older')),
        rgList: h('div', { id: 'audit-rg-box' }), rgMore: h('button', { class: 'btn', type: 'button', id: 'audit-rg-more', hidden: true, onclick: () => loadRG(true).catch(Bac.toastError) }, t('admin.audit.older')) };
        box.rg = h('section', { class: 'panel', id: 'audit-rg' }, h('h2', null, t('admin.audit.rg_title')), h('p', { class: 'muted small' }, t('admin.audit.rg_note')), box.rgList, box.rgMore);
        const f = h('form', { class: 'admin-form', id: 'audit-form' }, h('div', { class: 'form-row' }, A.field(t('admin.col.who'), box.f.actor),
          A.field(t('admin.col.what'), action), A.field(t('admin.audit.target'), box.f.target), A.field(t('admin.audit.words'), box.f.q),
          A.field(t('admin.rep.from'), box.f.from), A.field(t('admin.rep.to'), box.f.to)),
        h('button', { class: 'btn btn-gold', type: 'submit', id: 'audit-search' }, t('admin.audit.search')));
        f.addEventListener('submit', (e) => { e.preventDefault(); load(false).catch(Bac.toastError); loadRG(false).catch(Bac.toastError); });
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.audit'))), h('p', { class: 'muted small' }, t('admin.audit.note')),
          h('section', { class: 'panel' }, f), h('section', { class: 'panel' }, box.list, box.more), box.rg);
      }
      if (params.get('target')) box.f.target.value = params.get('target');
      load(false).catch(Bac.toastError);
      loadRG(false).catch(Bac.toastError);
    },
  });
})(window.Bac, window.BacAdmin);
