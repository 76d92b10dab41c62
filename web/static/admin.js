/* admin.js: the back office's shell (/admin, /admin/{section}, /admin/table/{id}): who is
   signed in, the sections their role may open, the way between them (one page, the path names
   the section), and what every section shares: money in a row's own currency (every amount is
   integer minor units from the server; an amount typed in a form is read in the currency's
   major units and turned into minor units as text, never through a float), tables, forms, a
   button that asks twice, timers stopped when a section is left. The sections are
   admin-*.js; admin-start.js starts the page. Needs i18n.js, currency.js and app.js. */
'use strict';
(function (Bac) {
  const sections = {};
  const C = window.BacCurrency;
  let current = null;
  let timers = [];

  // ---- money ------------------------------------------------------------------------------
  // unitsOf: a currency's decimals where the server did not say (a form's currency): ISO 4217's
  // from Intl; play money 2; chips 0.
  function unitsOf(cur) {
    if (!cur || cur === 'XXX') return 2;
    if (String(cur).startsWith('CHIPS:')) return 0;
    try { return new Intl.NumberFormat('en', { style: 'currency', currency: cur }).resolvedOptions().maximumFractionDigits; } catch (e) { return 2; }
  }
  const money = (minor, units, cur) => C.money(minor, units === undefined ? unitsOf(cur) : units, cur || '');
  const amount = (minor, units) => C.format(minor, units);
  // parseMajor('1,234.5', 2) → 123450; null for anything that is not an amount of the currency.
  function parseMajor(text, units) {
    const s = String(text === undefined || text === null ? '' : text).replace(/[\s,_]/g, '');
    const m = /^(\d+)(?:\.(\d*))?$/.exec(s);
    if (!m || (m[2] || '').length > units) return null;
    const v = BigInt(m[1]) * 10n ** BigInt(units) + BigInt((m[2] || '').padEnd(units, '0') || '0');
    return v > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(v);
  }
  // toMajor(123450, 2) → '1234.50': an amount as a form's field holds it.
  function toMajor(minor, units) {
    const v = BigInt(Math.trunc(Number(minor) || 0));
    const neg = v < 0n;
    const a = neg ? -v : v;
    const scale = 10n ** BigInt(units);
    return (neg ? '-' : '') + String(a / scale) + (units > 0 ? '.' + String(a % scale).padStart(units, '0') : '');
  }
  const pct = (f) => (f && f.percent !== undefined ? Bac.fmtDecimal(f.percent) + '%' : '—');

  // ---- DOM helpers ------------------------------------------------------------------------
  const { h, t } = Bac;
  // grid(columns, rows): a table; columns are [key, label] pairs, rows {cells, attrs}.
  function grid(cols, rows, attrs) {
    return h('div', { class: 'grid-wrap' }, h('table', Object.assign({ class: 'grid' }, attrs || {}),
      h('thead', null, h('tr', null, cols.map((c) => h('th', { scope: 'col', class: c.num ? 'num' : null }, c.label)))),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td', { colspan: cols.length, class: 'muted' }, t('admin.empty'))))));
  }
  function row(attrs, cells) {
    return h('tr', attrs, cells.map((c) => (c instanceof Node && c.tagName === 'TD' ? c : h('td', null, c))));
  }
  // put replaces an element's children with kids (null and false left out, arrays flattened).
  function put(el, ...kids) {
    el.textContent = '';
    Bac.append(el, kids);
  }
  const num = (content, attrs) => h('td', Object.assign({ class: 'num' }, attrs || {}), content);
  function field(label, input, hint) {
    return h('label', { class: 'field' }, h('span', { class: 'field-label' }, label), input, hint ? h('small', { class: 'field-hint' }, hint) : null);
  }
  function select(name, options, value) {
    const sel = h('select', { name });
    for (const o of options) {
      const opt = h('option', { value: o[0] }, o[1]);
      if (String(o[0]) === String(value)) opt.selected = true;
      sel.appendChild(opt);
    }
    return sel;
  }
  // confirmed: a button that acts on a second press within 3 s (destructive actions).
  function confirmed(label, cls, fn, attrs) {
    const b = h('button', Object.assign({ type: 'button', class: 'btn btn-sm ' + (cls || 'btn-danger'), 'data-confirm': 'true' }, attrs || {}), label);
    let armed = 0;
    b.addEventListener('click', async () => {
      if (!armed) {
        b.classList.add('armed');
        b.textContent = t('admin.press_again');
        armed = setTimeout(() => { armed = 0; b.classList.remove('armed'); b.textContent = label; }, 3000);
        return;
      }
      clearTimeout(armed);
      armed = 0;
      b.classList.remove('armed');
      b.textContent = label;
      b.disabled = true;
      try { await fn(); } finally { b.disabled = false; }
    });
    return b;
  }
  // act runs an API call, toasts its refusal, and returns its answer (undefined on refusal).
  async function act(fn, done) {
    try {
      const out = await fn();
      if (done) Bac.toast(done, { kind: 'win' });
      return out;
    } catch (e) {
      Bac.toastError(e);
      return undefined;
    }
  }
  function debounce(fn, ms) {
    let tm = 0;
    return (...args) => { clearTimeout(tm); tm = setTimeout(() => fn(...args), ms); };
  }
  // every runs fn now and then every ms while the section is shown.
  function every(ms, fn) {
    let stopped = false;
    let tm = 0;
    const tick = async () => {
      if (stopped) return;
      try { await fn(); } catch (e) { /* the next tick tries again */ }
      if (!stopped) tm = setTimeout(tick, ms);
    };
    tick();
    const stop = () => { stopped = true; clearTimeout(tm); };
    timers.push(stop);
    return stop;
  }
  // download saves text as a file (the API needs the bearer token, so a plain link will not do).
  function download(name, text, type) {
    const url = URL.createObjectURL(new Blob([text], { type: type || 'text/csv' }));
    const a = h('a', { href: url, download: name, class: 'offscreen' });
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(url); a.remove(); }, 1000);
  }
  // fetchText is GET with the bearer token, answering text (a CSV).
  async function fetchText(path) {
    const res = await fetch(path, { headers: { Authorization: 'Bearer ' + Bac.token() }, cache: 'no-store' });
    const text = await res.text();
    if (!res.ok) {
      let e = {};
      try { e = JSON.parse(text); } catch (x) { /* not JSON */ }
      throw new Bac.ApiError(res.status, e.code || 'http_' + res.status, e.message || res.statusText);
    }
    return text;
  }
  const when = (iso) => (iso && !String(iso).startsWith('0001') ? Bac.fmtDate(iso) : '—');
  const enc = encodeURIComponent;

  // ---- the sections -----------------------------------------------------------------------
  function register(name, def) { sections[name] = def; }
  const can = (...roles) => !!A.me && roles.includes(A.me.role);
  function allowed(name) {
    const def = sections[name];
    return !!def && (!def.roles || can(...def.roles));
  }
  // route shows the section the path names: /admin, /admin/{section}, /admin/table/{id}.
  function route() {
    const parts = location.pathname.split('/').filter(Boolean);
    let name = parts[1] || 'tables';
    let arg = null;
    if (name === 'table') arg = decodeURIComponent(parts[2] || '');
    if (!sections[name] || (name === 'table' && !arg)) name = 'tables';
    for (const stop of timers) stop();
    timers = [];
    if (current && sections[current].leave) sections[current].leave();
    for (const sec of document.querySelectorAll('.admin-sec')) Bac.show(sec, false);
    for (const a of document.querySelectorAll('[data-nav]')) {
      Bac.setAttr(a, 'aria-current', a.getAttribute('data-nav') === (name === 'table' ? 'tables' : name) ? 'page' : null);
    }
    const ok = allowed(name);
    Bac.show(Bac.$('#admin-forbidden'), !ok);
    current = ok ? name : null;
    if (!ok) return;
    const root = Bac.$('#sec-' + name);
    Bac.show(root, true);
    Bac.setText(Bac.$('#admin-sub'), t('admin.nav.' + (name === 'table' ? 'tables' : name)));
    sections[name].enter(root, arg, new URLSearchParams(location.search));
  }
  function go(path) {
    history.pushState(null, '', path);
    route();
    window.scrollTo(0, 0);
  }
  // link is an anchor that opens another section without reloading the page.
  function link(path, text, attrs) {
    const a = h('a', Object.assign({ href: path }, attrs || {}), text);
    a.addEventListener('click', (e) => {
      if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
      e.preventDefault();
      go(path);
    });
    return a;
  }

  async function start() {
    A.me = await Bac.loadMe();
    Bac.renderWho(Bac.$('#who'), A.me);
    const staff = !!A.me && A.me.role !== 'player';
    Bac.show(Bac.$('#admin-signin'), !staff);
    Bac.show(Bac.$('#admin-nav'), staff);
    if (!staff) return;
    for (const a of document.querySelectorAll('[data-nav]')) {
      const roles = (a.getAttribute('data-roles') || '').split(' ').filter(Boolean);
      Bac.show(a, !roles.length || roles.includes(A.me.role));
      a.addEventListener('click', (e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        go(a.getAttribute('href'));
      });
    }
    window.addEventListener('popstate', route);
    route();
  }

  const A = window.BacAdmin = {
    me: null, register, start, go, link, can, route, put, unitsOf, money, amount, parseMajor, toMajor, pct, grid, row, num, field, select,
    confirmed, act, debounce, every, download, fetchText, when, enc,
  };
})(window.Bac);
