/* currency.js: money in the currency's own minor units. Amounts from the server are integer
   minor units of a currency with 0 (JPY), 2 (EUR, play money XXX) or 3 (BHD) decimals: the
   server says which as "minor_units" beside every "currency" (GET /api/tables/{id} "table",
   GET /api/tables, GET /api/me). This wraps BacI18n.fmtMoney, before app.js takes it, so that
   every amount a page formats uses the decimals of the page's currency: a table page's (and the
   dealer console's) is its table's (table.js and dealer.js set it from the stream's snapshot
   too), any other page's the player's wallet it shows. Load it after i18n.js and before app.js.
   BigInt inside, no floats.
   - BacCurrency.format(minor, units): the number alone, with given decimals (a page that
     shows amounts of several currencies: the lobby's limits).
   - BacCurrency.money(minor, units, currency): with the currency's sign as the page's language
     writes it (Intl, CLDR): en "¥101", "BHD 1.001", "$1.00"; zh-CN "JP¥101", "BHD 1.001",
     "US$1.00". Play money (XXX) and tournament chips have no sign: the number alone. Units and
     currency default to the page's.
   - BacCurrency.pin(units, currency): the page's currency, chosen by the page; answers read
     later do not change it. */
'use strict';
(function (global) {
  const I = global.BacI18n;
  let units = 2;
  let code = '';
  const onTable = /^\/(table|dealer)\//.test(global.location.pathname);

  function format(minor, decimals) {
    if (minor === null || minor === undefined || minor === '') return '—';
    let v;
    try { v = typeof minor === 'bigint' ? minor : BigInt(Math.trunc(Number(minor))); } catch (e) { return '—'; }
    const d = Math.max(0, Math.min(4, decimals === undefined || decimals === null ? units : decimals | 0));
    const neg = v < 0n;
    const a = neg ? -v : v;
    const scale = 10n ** BigInt(d);
    const text = String(a / scale) + (d > 0 ? '.' + String(a % scale).padStart(d, '0') : '');
    return (neg ? '-' : '') + I.fmtDecimalString(text);
  }

  // What the language writes before and after a number of this currency ("¥", "BHD\u00a0"),
  // learnt once from Intl; null where there is no sign to write.
  const affixes = new Map();
  function affix(cur, d) {
    const key = cur + ':' + d;
    if (affixes.has(key)) return affixes.get(key);
    let a = null;
    if (/^[A-Z]{3}$/.test(cur) && cur !== 'XXX') {
      try {
        const parts = new Intl.NumberFormat(I.lang, { style: 'currency', currency: cur, minimumFractionDigits: d, maximumFractionDigits: d }).formatToParts(1);
        const isNum = (p) => p.type === 'integer' || p.type === 'group' || p.type === 'decimal' || p.type === 'fraction';
        const first = parts.findIndex(isNum);
        let last = parts.length - 1;
        while (last >= 0 && !isNum(parts[last])) last--;
        if (first >= 0) {
          const text = (list) => list.filter((p) => p.type !== 'minusSign' && p.type !== 'plusSign').map((p) => p.value).join('');
          a = { pre: text(parts.slice(0, first)), post: text(parts.slice(last + 1)) };
        }
      } catch (e) { a = null; } // a code Intl does not take: the number alone
    }
    affixes.set(key, a);
    return a;
  }
  function money(minor, decimals, currency) {
    const d = decimals === undefined || decimals === null ? units : decimals | 0;
    const text = format(minor, d);
    const a = text === '—' ? null : affix(currency === undefined || currency === null ? code : String(currency), d);
    if (!a) return text;
    const neg = text.charAt(0) === '-';
    return (neg ? '-' : '') + a.pre + (neg ? text.slice(1) : text) + a.post;
  }
  // set changes the page's currency; what a page wrote before (an answer read first) it
  // writes again from onChange's callbacks.
  const listeners = [];
  function set(decimals, currency) {
    const was = units + ' ' + code;
    if (Number.isInteger(decimals) && decimals >= 0 && decimals <= 4) units = decimals;
    if (typeof currency === 'string') code = currency;
    if (was !== units + ' ' + code) for (const fn of listeners) { try { fn(); } catch (e) { setTimeout(() => { throw e; }); } }
  }
  function onChange(fn) { listeners.push(fn); }
  // pin is set for a page that chooses its currency itself (the account page's wallet): the
  // answers read after it (another script's GET /api/me, in the player's own currency) no
  // longer change it, whichever arrives last.
  let pinned = false;
  function pin(decimals, currency) {
    pinned = true;
    set(decimals, currency);
  }
  if (I) I.fmtMoney = (minor) => format(minor, units);

  // Learn the page's currency from the answers it reads: the table's on a table page.
  const fetch0 = global.fetch && global.fetch.bind(global);
  if (fetch0) {
    global.fetch = function (input, init) {
      const path = new URL(typeof input === 'string' ? input : input.url, global.location.href).pathname;
      const me = path === '/api/me';
      const table = /^\/api\/tables\/[^/]+$/.test(path);
      return fetch0(input, init).then((resp) => {
        if (!resp.ok || !(me && !onTable || table && onTable)) return resp;
        return resp.clone().json().then((body) => {
          const from = me ? body : body && body.table;
          if (from && !(me && pinned)) set(from.minor_units, from.currency);
          return resp;
        }, () => resp);
      });
    };
  }
  global.BacCurrency = { format, money, set, pin, onChange, units: () => units, currency: () => code };
})(window);
