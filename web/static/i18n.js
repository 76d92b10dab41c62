/* i18n.js: the pages' languages. Loaded first on every page: it picks the language (?lang=,
   then the one remembered in localStorage, then the browser's), loads the translation files
   (i18n/en.json always, as the fallback, and the chosen one), and gives t() for every visible
   string, plural forms, and numbers, money and dates formatted for the language. Money is
   integer minor units formatted with BigInt: no float arithmetic. Switching language stores the
   choice and reloads the page. Classic script: everything hangs off window.BacI18n. */
'use strict';
(function (global) {
  const KEY = 'baccarat.lang';
  // The languages the pages speak, each named in itself; a seventh is a line here and one
  // i18n/<id>.json with every key of en.json (web's TestEveryLanguageHasEveryKeyWithItsPlaceholders
  // checks it). English is the fallback for a key a file lacks.
  const LANGS = [
    { id: 'en', name: 'English' },
    { id: 'zh-CN', name: '简体中文' },
    { id: 'zh-TW', name: '繁體中文' },
    { id: 'ko', name: '한국어' },
    { id: 'th', name: 'ไทย' },
    { id: 'vi', name: 'Tiếng Việt' },
  ];

  // A language tag as we have it, read loosely (any case, _ or -): Traditional Chinese by its
  // script or its region (zh-Hant, zh-Hant-*, zh-TW, zh-HK, zh-MO) is 繁體中文; any other
  // Chinese one (zh, zh-CN, zh-SG, zh-Hans, zh-Hans-HK, cn) 简体中文; ko*, th*, vi*, en* their
  // language; '' for a language we do not have (ja, pt-BR…).
  function norm(s) {
    s = String(s || '').trim().toLowerCase().replace(/_/g, '-');
    const parts = s.split('-');
    const base = parts[0];
    if (s === 'cn') return 'zh-CN';
    if (base === 'zh') {
      if (parts.includes('hant')) return 'zh-TW';
      if (parts.includes('hans')) return 'zh-CN';
      return parts.some((p) => p === 'tw' || p === 'hk' || p === 'mo') ? 'zh-TW' : 'zh-CN';
    }
    for (const l of ['en', 'ko', 'th', 'vi']) if (base === l) return l;
    return '';
  }
  function stored() {
    try { return localStorage.getItem(KEY) || ''; } catch (e) { return ''; }
  }
  function remember(lang) {
    try { localStorage.setItem(KEY, lang); } catch (e) { /* private mode: this page only */ }
  }
  // ?lang= wins and is remembered (then taken out of the address, as the sign-in token is);
  // else the remembered one (the switch's, or the language an operator's launch gave); else
  // the browser's first language we have; else English. A language asked for that we do not
  // have (?lang=fr, an operator's "ja") is English, not a guess from the browser.
  function pick() {
    const url = new URL(global.location.href);
    const q = url.searchParams.get('lang');
    if (q !== null) {
      url.searchParams.delete('lang');
      global.history.replaceState(null, '', url.pathname + url.search + url.hash);
      const l = norm(q);
      if (l) { remember(l); return l; }
      if (q.trim()) return 'en';
    }
    const st = stored().trim();
    if (st) return norm(st) || 'en';
    for (const l of global.navigator.languages || [global.navigator.language]) {
      const n = norm(l);
      if (n) return n;
    }
    return 'en';
  }

  const lang = pick();
  let dict = {};
  let en = {};
  document.documentElement.lang = lang;

  async function load(id) {
    try {
      const res = await fetch('/static/i18n/' + id + '.json', { cache: 'no-cache' });
      return res.ok ? await res.json() : {};
    } catch (e) { return {}; }
  }

  // t('phase.betting') → "Place your bets"; t('hands', {n: 3}) fills {n}.
  function t(key, vars) {
    let s = dict[key];
    if (s === undefined) s = en[key];
    if (s === undefined) return key;
    if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined || vars[k] === null ? m : String(vars[k])));
    return s;
  }
  // tn('n_tables', 3) picks "n_tables.one" or "n_tables.other" by the language's plural rules.
  let plural = null;
  function tn(key, n, vars) {
    if (!plural) plural = new Intl.PluralRules(lang);
    const k = key + '.' + plural.select(Number(n));
    const v = Object.assign({ n: fmtInt(n) }, vars || {});
    return t(dict[k] !== undefined || en[k] !== undefined ? k : key + '.other', v);
  }
  // has(key): the key is translated (else callers keep the server's words).
  function has(key) { return dict[key] !== undefined || en[key] !== undefined; }
  // byId(key, text): words the server sends that have a stable id (a game's, a bet's, a pay
  // tier's, a rule line's), looked up by the key their id makes ('tier.banker_on_six'), so that
  // rewording the English loses no translation; the server's own text where no file has the key.
  // (The operator's words, such as a tournament's round names, come with their own "names".)
  function byId(key, text) { return has(key) ? t(key) : text; }

  // ---- numbers, money and dates ---------------------------------------------------------
  let intFmt = null;
  let decimal = '.';
  function fmtInt(n) {
    if (!intFmt) {
      intFmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
      const p = new Intl.NumberFormat(lang).formatToParts(1.5).find((x) => x.type === 'decimal');
      if (p) decimal = p.value;
    }
    try { return intFmt.format(typeof n === 'bigint' ? n : BigInt(Math.trunc(Number(n)))); } catch (e) { return String(n); }
  }
  function toBig(minor) {
    if (typeof minor === 'bigint') return minor;
    if (minor === null || minor === undefined || minor === '') return null;
    const n = Number(minor);
    if (!Number.isFinite(n)) return null;
    return BigInt(Math.trunc(n)); // JSON integers up to 2^53 arrive exact
  }
  // fmtMoney(100000000) → "1,000,000.00" (minor units; 2 decimals).
  function fmtMoney(minor) {
    const v = toBig(minor);
    if (v === null) return '—';
    fmtInt(0); // sets the decimal separator
    const a = v < 0n ? -v : v;
    return (v < 0n ? '-' : '') + fmtInt(a / 100n) + decimal + String(a % 100n).padStart(2, '0');
  }
  // Percentages the server sent as decimal strings ("85.6426"): only the separators change.
  function fmtDecimalString(s) {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(s || ''));
    if (!m) return String(s || '');
    fmtInt(0);
    return m[1] + fmtInt(BigInt(m[2])) + (m[3] ? decimal + m[3] : '');
  }
  let dateFmt = null;
  function fmtDate(iso) {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return '';
    if (!dateFmt) dateFmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
    return dateFmt.format(d);
  }

  // ---- the page's own text ---------------------------------------------------------------
  // data-i18n="key" sets the text; data-i18n-title, -aria, -placeholder set those attributes.
  function apply(root) {
    root = root || document;
    const pt = document.body && document.body.getAttribute('data-page-title');
    if (root === document && pt) document.title = t(pt) + ' · Baccarat';
    for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.getAttribute('data-i18n'));
    for (const [attr, name] of [['data-i18n-title', 'title'], ['data-i18n-aria', 'aria-label'], ['data-i18n-placeholder', 'placeholder']]) {
      for (const el of root.querySelectorAll('[' + attr + ']')) el.setAttribute(name, t(el.getAttribute(attr)));
    }
  }
  // The language switch: a select that remembers the choice and reloads the page in it.
  function switcher() {
    const sel = document.createElement('select');
    sel.id = 'lang';
    sel.className = 'lang';
    sel.setAttribute('aria-label', t('lang.label'));
    sel.title = t('lang.label');
    for (const l of LANGS) {
      const o = document.createElement('option');
      o.value = l.id;
      o.textContent = l.name;
      o.lang = l.id;
      if (l.id === lang) o.selected = true;
      sel.appendChild(o);
    }
    sel.addEventListener('change', () => setLang(sel.value));
    return sel;
  }
  function setLang(l) {
    l = norm(l) || 'en';
    remember(l);
    global.location.reload();
  }

  const ready = Promise.all([load('en'), lang === 'en' ? Promise.resolve(null) : load(lang)]).then(([e, d]) => {
    en = e || {};
    dict = d || en;
    apply(document);
    for (const slot of document.querySelectorAll('[data-lang-slot]')) slot.appendChild(switcher());
  });

  global.BacI18n = { lang, LANGS, ready, t, tn, byId, has, fmtInt, fmtMoney, fmtDecimalString, fmtDate, apply, switcher, setLang, norm };
})(window);
