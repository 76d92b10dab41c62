/* admin-pit.js: the pit view (/admin/pit): every table the signed-in member of staff may act
   on, live (GET /api/admin/floor every 2 s): phase, round, the stakes in play, the
   differential against its limit, health, the last result and the largest win; and the
   alerts: a table stalled, a large win, a differential near its limit, a round voided, the
   operator's outbox backing up. The thresholds are the page's (remembered in this browser);
   an alert not seen before flashes. Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  const KEY = 'baccarat.pit';
  const seen = new Set();

  function settings() {
    try { return Object.assign({ large_win_x: 100, differential_pct: 80 }, JSON.parse(localStorage.getItem(KEY) || '{}')); } catch (e) { return { large_win_x: 100, differential_pct: 80 }; }
  }

  function alertText(a, tables) {
    const tb = tables[a.table] || {};
    const cash = (v) => A.money(v, tb.minor_units, tb.currency);
    switch (a.kind) {
      case 'stalled': return t('admin.alert.stalled', { table: a.table, at: A.when(a.since) });
      case 'large_win': return t('admin.alert.large_win', { table: a.table, round: a.round, player: a.player, amount: cash(a.amount), bet: Bac.betName(null, a.reason) });
      case 'differential': return t('admin.alert.differential', { table: a.table, amount: cash(a.amount), limit: cash(a.limit) });
      case 'voided': return t('admin.alert.voided', { table: a.table, round: a.round, why: Bac.humanize(a.reason) });
      case 'outbox': return t('admin.alert.outbox', { n: a.amount, at: A.when(a.since) });
      default: return a.kind;
    }
  }

  function tableCard(ft) {
    const cash = (v) => A.money(v, ft.minor_units, ft.currency);
    const share = ft.differential_limit ? Math.min(100, Math.round((ft.differential * 100) / ft.differential_limit)) : 0;
    const win = (ft.largest_wins || [])[0];
    const last = ft.last;
    return h('article', { class: 'floor-card health-' + ft.health.status, 'data-floor-table': ft.id, 'data-phase': ft.phase, 'data-health': ft.health.status },
      h('div', { class: 'floor-head' }, A.link('/admin/table/' + A.enc(ft.id), ft.name || ft.id, { class: 'strong' }),
        h('span', { class: 'badge' }, t('admin.phase.' + ft.phase)), h('span', { class: 'badge health-' + ft.health.status }, t('admin.health.' + ft.health.status))),
      h('div', { class: 'floor-facts' },
        h('span', null, t('stage.round') + ' ' + Bac.fmtInt(ft.round)),
        h('span', { 'data-staked': ft.staked }, t('admin.floor.staked', { amount: cash(ft.staked) })),
        h('span', null, Bac.tn('admin.players', ft.players))),
      ft.differential_limit ? h('div', { class: 'diff', 'data-diff': ft.differential, 'data-limit': ft.differential_limit },
        h('small', null, t('admin.live.differential') + ': ' + cash(ft.differential) + ' / ' + cash(ft.differential_limit)),
        h('div', { class: 'bar' + (share >= 80 ? ' bar-hot' : '') }, h('span', { style: 'width:' + share + '%' }))) : null,
      last ? h('div', { class: 'small' }, t('admin.live.last', { n: last.round, what: last.void ? t('phase.void') + ' (' + Bac.humanize(last.void) + ')' : last.result || '' }),
        last.void ? null : h('span', { class: 'muted' }, ' · ' + t('admin.floor.takings', { amount: cash(last.takings) }))) : null,
      win ? h('div', { class: 'small', 'data-largest-win': win.net }, t('admin.floor.largest_win', { player: win.player, amount: cash(win.net), round: win.round })) : null);
  }

  let box = null;
  A.register('pit', {
    roles: ['dealer', 'pit', 'admin'],
    enter(root) {
      if (!box) {
        const s = settings();
        const x = h('input', { name: 'large_win_x', inputmode: 'numeric', size: 6, value: s.large_win_x, id: 'pit-large-win' });
        const d = h('input', { name: 'differential_pct', inputmode: 'numeric', size: 4, value: s.differential_pct, id: 'pit-diff-pct' });
        const save = () => { try { localStorage.setItem(KEY, JSON.stringify({ large_win_x: Number(x.value) || 100, differential_pct: Number(d.value) || 80 })); } catch (e) { /* private mode */ } };
        x.addEventListener('change', save);
        d.addEventListener('change', save);
        box = { alerts: h('ul', { id: 'alerts', class: 'alerts', 'aria-live': 'polite' }), floor: h('div', { id: 'floor', class: 'floor' }),
          outbox: h('span', { id: 'pit-outbox', class: 'muted small' }), at: h('span', { class: 'muted small', id: 'pit-at' }) };
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.pit')), box.at),
          h('section', { class: 'panel' }, h('h2', null, t('admin.floor.alerts'), h('span', { class: 'spacer' }), box.outbox), box.alerts,
            h('details', { class: 'small' }, h('summary', null, t('admin.floor.thresholds')), h('div', { class: 'form-row' },
              A.field(t('admin.floor.large_win_x'), x), A.field(t('admin.floor.diff_pct'), d)))),
          box.floor);
      }
      A.every(2000, async () => {
        const s = settings();
        const v = await api('GET', '/api/admin/floor?large_win_x=' + s.large_win_x + '&differential_pct=' + s.differential_pct);
        const tables = {};
        for (const ft of v.tables) tables[ft.id] = ft;
        A.put(box.floor, ...v.tables.map(tableCard));
        A.put(box.alerts, ...(v.alerts.length ? v.alerts.map((a) => {
          const key = [a.kind, a.table, a.round, a.player, a.amount].join('/');
          const li = h('li', { class: 'alert-' + a.kind + (seen.has(key) ? '' : ' fresh'), 'data-alert': a.kind, 'data-table': a.table || null, 'data-round': a.round || null },
            alertText(a, tables));
          seen.add(key);
          return li;
        }) : [h('li', { class: 'muted', 'data-alert': 'none' }, t('admin.floor.no_alerts'))]));
        setText(box.outbox, A.can('admin') ? t('admin.floor.outbox', { n: v.outbox.calls }) : '');
        setText(box.at, A.when(v.at));
      });
    },
  });
})(window.Bac, window.BacAdmin);
