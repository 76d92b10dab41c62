/* currency.js: money in the currency's own minor units. Amounts from the server are integer
   minor units of a currency with 0 (JPY), 2 (EUR, play money XXX) or 3 (BHD) decimals: the
   server says which as "minor_units" beside every "currency" (GET /api/tables/{id} "table",
   GET /api/tables, GET /api/me). This wraps BacI18n.fmtMoney, before app.js takes it, so that
   every amount a page formats uses the decimals of the page's currency: a table page's (and the
   dealer console's) is its table's, any other page's the player's. Load it after i18n.js and before app.js. BigInt
   inside, no floats. BacCurrency.format(minor, units) formats with given decimals, for a page
   that shows amounts of several currencies (the lobby's limits). */
'use strict';
(function (global) {
  const I = global.BacI18n;
  let units = 2;
  const onTable = /^\/(table|dealer)\//.test(global.location.pathname);

  function format(minor, decimals) {
    if (minor === null || minor === undefined || minor === '') return '—';
    let v;
    try { v = typeof minor === 'bigint' ? minor : BigInt(Math.trunc(Number(minor))); } catch (e) { return '—'; }
    const d = Math.max(0, Math.min(4, decimals === undefined ? units : decimals | 0));
    const neg = v < 0n;
    const a = neg ? -v : v;
    const scale = 10n ** BigInt(d);
    const text = String(a / scale) + (d > 0 ? '.' + String(a % scale).padStart(d, '0') : '');
    return (neg ? '-' : '') + I.fmtDecimalString(text);
  }
  function set(decimals) {
    if (Number.isInteger(decimals) && decimals >= 0 && decimals <= 4) units = decimals;
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
          set(me ? body.minor_units : body && body.table && body.table.minor_units);
          return resp;
        }, () => resp);
      });
    };
  }
  global.BacCurrency = { format, set, units: () => units };
})(window);
