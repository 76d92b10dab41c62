/* admin-reports.js: Reports (/admin/reports, admins): the tables' business over any range of
   days (GET /api/admin/reports, from the summaries the server keeps), grouped by table, game,
   day or only currency: rounds, voids, wagers, stakes, returns, the house's takings, hold
   against the theoretical edge of the bets actually settled, each bet's own figures; the
   tournaments' fees, refunds, prizes and the house's net (GET /api/admin/reports/tournaments);
   two charts drawn here as inline SVG (takings by day, hold against theory by day) for a
   currency; and both reports as CSV files. The page adds no money up: every figure is the
   server's. Needs admin.js. */
'use strict';
(function (Bac, A) {
  const { h, t, api, setText } = Bac;
  const SVG = 'http://www.w3.org/2000/svg';
  let box = null;

  function s(tag, attrs, ...kids) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    for (const k of kids) if (k !== null && k !== undefined) el.appendChild(typeof k === 'string' ? document.createTextNode(k) : k);
    return el;
  }
  const day = (d) => d.toISOString().slice(0, 10);

  // takingsChart: a bar a day, up for the house's takings, down for its losses.
  function takingsChart(rows, units, cur) {
    const W = 640, H = 200, L = 8, B = 24, T = 14;
    const vals = rows.map((r) => Number(r.takings));
    const top = Math.max(1, ...vals.map((v) => Math.max(v, 0)));
    const bottom = Math.min(0, ...vals);
    const span = top - bottom || 1;
    const y = (v) => T + ((top - v) * (H - T - B)) / span;
    const bw = (W - 2 * L) / Math.max(1, rows.length);
    const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'chart', role: 'img', 'aria-label': t('admin.rep.chart_takings'), 'data-bars': rows.length });
    svg.appendChild(s('line', { x1: L, x2: W - L, y1: y(0), y2: y(0), class: 'axis' }));
    rows.forEach((r, i) => {
      const v = vals[i];
      const x = L + i * bw + bw * 0.15;
      const bar = s('rect', { x, width: Math.max(1, bw * 0.7), y: Math.min(y(v), y(0)), height: Math.max(1, Math.abs(y(v) - y(0))),
        class: v >= 0 ? 'bar-up' : 'bar-down', 'data-day': r.day, 'data-takings': r.takings },
      s('title', null, r.day + ': ' + A.money(r.takings, units, cur)));
      svg.appendChild(bar);
      if (rows.length <= 31 || i % Math.ceil(rows.length / 12) === 0) svg.appendChild(s('text', { x: x + bw * 0.35, y: H - 8, class: 'tick' }, r.day.slice(5)));
    });
    svg.appendChild(s('text', { x: W - L, y: 11, class: 'tick end' }, A.money(top, units, cur)));
    return svg;
  }

  // holdChart: hold % and theory % by day, two lines.
  function holdChart(rows) {
    const W = 640, H = 200, L = 8, B = 24, T = 14;
    const hold = rows.map((r) => (r.hold ? Number(r.hold.percent) : null));
    const theory = rows.map((r) => (r.theory ? Number(r.theory.percent) : null));
    const all = hold.concat(theory).filter((v) => v !== null);
    const top = Math.max(1, ...all), bottom = Math.min(0, ...all);
    const span = top - bottom || 1;
    const y = (v) => T + ((top - v) * (H - T - B)) / span;
    const step = (W - 2 * L) / Math.max(1, rows.length - 1);
    const path = (vals) => vals.map((v, i) => (v === null ? '' : (i && vals[i - 1] !== null ? 'L' : 'M') + (L + i * step).toFixed(1) + ' ' + y(v).toFixed(1))).join(' ');
    const svg = s('svg', { viewBox: '0 0 ' + W + ' ' + H, class: 'chart', role: 'img', 'aria-label': t('admin.rep.chart_hold') });
    svg.appendChild(s('line', { x1: L, x2: W - L, y1: y(0), y2: y(0), class: 'axis' }));
    svg.appendChild(s('path', { d: path(theory), class: 'line-theory', 'data-line': 'theory' }));
    svg.appendChild(s('path', { d: path(hold), class: 'line-hold', 'data-line': 'hold' }));
    hold.forEach((v, i) => v !== null && svg.appendChild(s('circle', { cx: L + i * step, cy: y(v), r: 3, class: 'dot-hold' },
      s('title', null, rows[i].day + ': ' + Bac.fmtDecimal(rows[i].hold.percent) + '% / ' + (rows[i].theory ? Bac.fmtDecimal(rows[i].theory.percent) + '%' : '—')))));
    svg.appendChild(s('text', { x: W - L, y: 11, class: 'tick end' }, Bac.fmtDecimal(top.toFixed(2)) + '%'));
    return h('figure', { class: 'chart-box' }, svg, h('figcaption', { class: 'legend small' },
      h('span', { class: 'key key-hold' }, t('admin.rep.hold')), h('span', { class: 'key key-theory' }, t('admin.rep.theory'))));
  }

  function figuresCells(r) {
    const u = r.minor_units, c = r.currency;
    return [A.num(Bac.fmtInt(r.rounds)), A.num(Bac.fmtInt(r.voids)), A.num(Bac.fmtInt(r.wagers)), A.num(A.money(r.staked, u, c), { 'data-staked': r.staked }),
      A.num(A.money(r.settled, u, c), { 'data-settled': r.settled }), A.num(A.money(r.returned, u, c)), A.num(A.money(r.refunded, u, c)),
      A.num(A.money(r.takings, u, c), { 'data-takings': r.takings, class: 'num ' + (r.takings < 0 ? 'neg' : '') }),
      A.num(A.pct(r.hold), { 'data-hold': r.hold ? r.hold.percent : '' }), A.num(A.pct(r.theory), { 'data-theory': r.theory ? r.theory.percent : '' })];
  }
  const figureCols = () => [{ label: t('admin.col.rounds'), num: true }, { label: t('admin.col.voids'), num: true }, { label: t('admin.col.wagers'), num: true },
    { label: t('admin.col.staked'), num: true }, { label: t('admin.col.settled'), num: true }, { label: t('admin.col.returned'), num: true },
    { label: t('admin.col.refunded'), num: true }, { label: t('admin.col.takings'), num: true }, { label: t('admin.rep.hold'), num: true }, { label: t('admin.rep.theory'), num: true }];

  function betsTable(r) {
    const u = r.minor_units, c = r.currency;
    return A.grid([{ label: t('admin.live.bet') }, { label: t('admin.col.wagers'), num: true }, { label: t('admin.col.settled'), num: true },
      { label: t('admin.col.takings'), num: true }, { label: t('admin.rep.hold'), num: true }, { label: t('admin.rep.edge'), num: true }],
    r.bets.map((b) => A.row({ 'data-bet': b.bet }, [Bac.betName(null, b.bet), A.num(Bac.fmtInt(b.wagers)), A.num(A.money(b.settled, u, c)),
      A.num(A.money(b.takings, u, c)), A.num(A.pct(b.hold)), A.num(A.pct(b.edge))])), { class: 'grid small' });
  }

  function query() {
    const q = new URLSearchParams({ from: box.from.value, to: box.to.value, group: box.group.value });
    if (box.currency.value.trim()) q.set('currency', box.currency.value.trim().toUpperCase());
    if (box.table.value.trim()) q.set('table', box.table.value.trim());
    return q;
  }

  // load reads everything first and then draws it all at once: a page read again while an
  // earlier read is under way shows one read or the other, never a mix.
  let reads = 0;
  async function load() {
    const n = ++reads;
    const q = query();
    const v = await api('GET', '/api/admin/reports?' + q.toString());
    // The charts: by day, in one currency (the filter's, else the first of the totals).
    const cur = box.currency.value.trim().toUpperCase() || (v.totals[0] && v.totals[0].currency) || '';
    let d = null;
    if (cur) {
      const dq = new URLSearchParams(q);
      dq.set('group', 'day');
      dq.set('currency', cur);
      d = await api('GET', '/api/admin/reports?' + dq.toString());
    }
    const tv = await api('GET', '/api/admin/reports/tournaments?from=' + q.get('from') + '&to=' + q.get('to'));
    if (n !== reads) return;
    setText(box.status, v.behind ? t('admin.rep.behind', { n: v.behind }) : t('admin.rep.current'));
    A.put(box.totals, A.grid([{ label: t('admin.col.currency') }].concat(figureCols()),
      v.totals.map((r) => A.row({ 'data-currency': r.currency, 'data-takings': r.takings, 'data-settled': r.settled, 'data-staked': r.staked,
        'data-rounds': r.rounds, 'data-voids': r.voids, 'data-wagers': r.wagers }, [h('td', null, h('b', null, r.currency))].concat(figuresCells(r)))),
      { id: 'report-totals' }), ...v.totals.map((r) => h('details', { class: 'small' }, h('summary', null, t('admin.rep.bets_of', { cur: r.currency })), betsTable(r))));
    const keyCols = [];
    if (v.group.includes('day')) keyCols.push(['day', t('admin.col.day')]);
    if (v.group.includes('table')) keyCols.push(['table', t('admin.col.table')]);
    if (v.group.includes('game')) keyCols.push(['game', t('admin.col.game')]);
    A.put(box.rows, A.grid(keyCols.map((k) => ({ label: k[1] })).concat([{ label: t('admin.col.currency') }], figureCols()),
      v.rows.map((r) => A.row({ 'data-key': keyCols.map((k) => r[k[0]]).concat(r.currency).join('/'), 'data-takings': r.takings },
        keyCols.map((k) => r[k[0]] || '').concat([r.currency], figuresCells(r)))), { id: 'report-rows' }));
    if (d) {
      const units = d.totals[0] ? d.totals[0].minor_units : A.unitsOf(cur);
      A.put(box.charts, h('div', { class: 'chart-pair', id: 'report-charts', 'data-currency': cur },
        h('figure', { class: 'chart-box', id: 'chart-takings' }, h('figcaption', null, t('admin.rep.chart_takings') + ' · ' + cur), takingsChart(d.rows, units, cur)),
        h('div', { id: 'chart-hold' }, h('div', { class: 'small muted' }, t('admin.rep.chart_hold') + ' · ' + cur), holdChart(d.rows))));
    } else {
      A.put(box.charts);
    }
    A.put(box.tours, A.grid([{ label: t('admin.tour.name') }, { label: t('admin.col.currency') }, { label: t('admin.col.phase') },
      { label: t('admin.tour.entrants'), num: true }, { label: t('admin.rep.fees'), num: true }, { label: t('admin.rep.rebuys'), num: true },
      { label: t('admin.rep.refunds'), num: true }, { label: t('admin.rep.prizes'), num: true }, { label: t('admin.rep.top_up'), num: true }, { label: t('admin.rep.net'), num: true }],
    tv.tournaments.map((x) => {
      const m = (v2) => A.money(v2, x.minor_units, x.currency);
      return A.row({ 'data-tournament': x.tournament, 'data-net': x.net }, [x.name || x.tournament, x.currency, t('admin.tphase.' + x.phase),
        A.num(Bac.fmtInt(x.entries)), A.num(m(x.fees)), A.num(m(x.rebuys)), A.num(m(x.refunds)), A.num(m(x.prizes)), A.num(m(x.top_up)), A.num(m(x.net))]);
    }), { id: 'report-tournaments' }));
    box.root.setAttribute('data-loads', String(Number(box.root.getAttribute('data-loads') || 0) + 1)); // every part of it is drawn
  }

  async function csv(path, name) {
    const text = await A.act(() => A.fetchText(path));
    if (text !== undefined) {
      A.download(name, text);
      box.root.setAttribute('data-downloaded', name);
    }
  }

  A.register('reports', {
    roles: ['admin'],
    enter(root) {
      if (!box) {
        const today = new Date();
        const from = h('input', { type: 'date', id: 'rep-from', value: day(new Date(today.getTime() - 6 * 86400000)) });
        const to = h('input', { type: 'date', id: 'rep-to', value: day(today) });
        const group = A.select('group', [['table', t('admin.col.table')], ['game', t('admin.col.game')], ['day', t('admin.col.day')],
          ['day,table', t('admin.rep.day_table')], ['currency', t('admin.col.currency')]], 'table');
        group.id = 'rep-group';
        const preset = (days) => () => {
          const now = new Date();
          to.value = day(now);
          from.value = days === 'year' ? now.getUTCFullYear() + '-01-01' : day(new Date(now.getTime() - (days - 1) * 86400000));
          load().catch(Bac.toastError);
        };
        box = { root, from, to, group, currency: h('input', { id: 'rep-currency', size: 4, maxlength: 3, placeholder: 'EUR' }),
          table: h('input', { id: 'rep-table', size: 14 }), status: h('span', { class: 'muted small', id: 'rep-status' }),
          totals: h('div', { id: 'rep-totals-box' }), rows: h('div', { id: 'rep-rows-box' }), charts: h('div', { id: 'rep-charts-box' }),
          tours: h('div', { id: 'rep-tours-box' }) };
        const controls = h('form', { class: 'admin-form', id: 'report-form' }, h('div', { class: 'form-row' },
          A.field(t('admin.rep.from'), from), A.field(t('admin.rep.to'), to), A.field(t('admin.rep.group'), group),
          A.field(t('admin.col.currency'), box.currency), A.field(t('admin.col.table'), box.table)),
        h('div', { class: 'form-actions' }, h('button', { class: 'btn btn-gold', type: 'submit', id: 'report-load' }, t('admin.rep.load')),
          h('button', { class: 'btn btn-sm', type: 'button', onclick: preset(1) }, t('admin.rep.today')),
          h('button', { class: 'btn btn-sm', type: 'button', onclick: preset(7) }, t('admin.rep.days7')),
          h('button', { class: 'btn btn-sm', type: 'button', onclick: preset(30) }, t('admin.rep.days30')),
          h('button', { class: 'btn btn-sm', type: 'button', onclick: preset('year') }, t('admin.rep.year')),
          h('button', { class: 'btn btn-sm', type: 'button', id: 'report-csv', onclick: () => csv('/api/admin/reports?' + query().toString() + '&format=csv',
            'report-' + from.value + '-' + to.value + '.csv') }, t('admin.rep.csv')),
          h('button', { class: 'btn btn-sm', type: 'button', id: 'tournaments-csv', onclick: () => csv('/api/admin/reports/tournaments?from=' + from.value + '&to=' + to.value + '&format=csv',
            'tournaments-' + from.value + '-' + to.value + '.csv') }, t('admin.rep.csv_tournaments'))));
        controls.addEventListener('submit', (e) => { e.preventDefault(); load().catch(Bac.toastError); });
        root.append(h('div', { class: 'sec-head' }, h('h1', null, t('admin.nav.reports')), box.status), h('section', { class: 'panel' }, controls),
          h('section', { class: 'panel' }, h('h2', null, t('admin.rep.totals')), box.totals), box.charts,
          h('section', { class: 'panel' }, h('h2', null, t('admin.rep.rows')), box.rows),
          h('section', { class: 'panel' }, h('h2', null, t('admin.rep.tournaments')), box.tours));
      }
      load().catch(Bac.toastError);
    },
  });
})(window.Bac, window.BacAdmin);
