/* app.js: what every page shares. The API client (bearer token), sign-in from ?token=, money
   formatting, toasts and refusals in words, a tiny DOM helper, the server clock, and the top
   bar's sign-in and wallet. Classic script: everything hangs off window.Bac (game.js adds the
   cards and game data, stream.js the table WebSocket). No build step, no dependencies.
   Needs i18n.js (every visible string goes through t()). */
'use strict';
(function (global) {
  const TOKEN_KEY = 'baccarat.token';
  const I = global.BacI18n;
  const { t } = I;

  // ---- sign-in -------------------------------------------------------------------------
  // A sign-in link is http://host/?token=…: keep the token, then strip it from the URL so it
  // is neither bookmarked nor shown over a shoulder.
  function adoptTokenFromURL() {
    const url = new URL(global.location.href);
    const tok = url.searchParams.get('token');
    if (tok === null) return;
    try {
      if (tok) localStorage.setItem(TOKEN_KEY, tok);
      else localStorage.removeItem(TOKEN_KEY);
    } catch (e) { /* private mode: the token lives for this page only */ memToken = tok; }
    url.searchParams.delete('token');
    global.history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  let memToken = '';
  function token() {
    try { return localStorage.getItem(TOKEN_KEY) || memToken || ''; } catch (e) { return memToken; }
  }
  function signOut() {
    try { localStorage.removeItem(TOKEN_KEY); } catch (e) { /* ignore */ }
    memToken = '';
  }
  // A token past half its life comes back renewed in X-Token-Refresh (tokens expire: 12 hours
  // for a player, 24 for staff, web/API.md): keep the new one, so a page in use stays signed
  // in, unless this page signed in as someone else meanwhile. Streams take it when they
  // reconnect.
  function adoptRefreshed(sent, res) {
    const fresh = res.headers.get('X-Token-Refresh');
    if (!fresh || !sent || token() !== sent) return;
    try { localStorage.setItem(TOKEN_KEY, fresh); } catch (e) { /* private mode */ memToken = fresh; }
  }

  // ---- the API client ------------------------------------------------------------------
  class ApiError extends Error {
    constructor(status, code, message, params) {
      super(message || code || 'request failed');
      this.status = status;
      this.code = code || '';
      this.params = params || null; // what a refusal names (errorText)
    }
  }
  const STATUS_CODES = { 401: 'unauthenticated', 403: 'not_authorized', 404: 'not_found', 429: 'rate_limited', 503: 'busy' };

  async function api(method, path, body) {
    const headers = { Accept: 'application/json' };
    const tok = token();
    if (tok) headers.Authorization = 'Bearer ' + tok;
    const init = { method, headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network', t('err.network'));
    }
    adoptRefreshed(tok, res);
    const text = await res.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch (e) { data = null; }
    }
    if (!res.ok) {
      const code = (data && data.code) || STATUS_CODES[res.status] || 'http_' + res.status;
      const msg = (data && data.message) || (res.status === 401 ? t('err.signin') : res.statusText || code);
      // Every refusal is told to whoever listens (limits.js: a reality check due, a session ended).
      global.dispatchEvent(new CustomEvent('bac:refused', { detail: { status: res.status, code, path } }));
      throw new ApiError(res.status, code, msg, data && data.params);
    }
    api.lastDate = res.headers.get('Date');
    return data;
  }

  // ---- money: integer minor units in, text out; never arithmetic on floats ---------------
  // fmtMoney(100000000) → "1,000,000.00", grouped for the page's language (BigInt inside), in
  // the decimals of the page's currency (currency.js): ¥101 is "101", 1.001 BHD "1.001".
  const fmtMoney = I.fmtMoney;
  const C = global.BacCurrency;
  const toBig = (minor) => (typeof minor === 'bigint' ? minor : BigInt(Math.trunc(Number(minor) || 0)));
  function fmtSigned(minor) {
    const v = toBig(minor);
    return (v > 0n ? '+' : '') + fmtMoney(v);
  }
  // fmtCash: an amount with the page's currency sign where it stands alone (a payout, a toast,
  // a chip's value): "¥50", "BHD 0.500"; play money as fmtMoney.
  function fmtCash(minor) { return C ? C.money(minor) : fmtMoney(minor); }
  function fmtCashSigned(minor) {
    const v = toBig(minor);
    return (v > 0n ? '+' : '') + fmtCash(v);
  }
  // A chip's face in the page's currency, short for the language: at 2 decimals 100 → "1",
  // 2500 → "25", 100000 → "1K", 150 → "1.50"; at JPY's 0, 5000 → "5K" (zh-CN, zh-TW "5000";
  // ko "5천") and 25000 → "25K" ("2.5万", "2.5萬", "2.5만"); a part of the major unit in full
  // (1001 at BHD's 3: "1.001"). Compact only where it is exact (three significant digits at
  // most), else grouped. The language's own compact form (Intl, CLDR) where it fits on a chip
  // and is how its players count: Chinese 万/萬, Korean 천/만, Thai's is K/M already. Vietnamese
  // chips say K/M with the language's decimal comma ("2,5K"), as prices are written there:
  // CLDR's "25 N" and "1 Tr" carry a space, are wider, and are not what a chip says.
  let compactFmt = null;
  function chipLabel(minor) {
    const v = toBig(minor);
    const one = 10n ** BigInt(C ? C.units() : 2);
    if (v <= 0n || v % one !== 0n) return fmtMoney(v);
    const major = v / one;
    let sig = major;
    while (sig % 10n === 0n) sig /= 10n;
    if (sig >= 1000n || major > BigInt(Number.MAX_SAFE_INTEGER)) return I.fmtInt(major);
    const kM = I.lang === 'vi';
    if (!compactFmt) compactFmt = new Intl.NumberFormat(kM ? 'en' : I.lang, { notation: 'compact', maximumSignificantDigits: 3 });
    const face = compactFmt.format(Number(major));
    return kM ? face.replace(/^[\d.]+/, (n) => I.fmtDecimalString(n)) : face;
  }

  // ---- request ids: crypto.randomUUID needs a secure context; a phone on the LAN has none --
  function uuid() {
    const c = global.crypto;
    if (c && typeof c.randomUUID === 'function') {
      try { return c.randomUUID(); } catch (e) { /* insecure context */ }
    }
    const b = new Uint8Array(16);
    if (c && c.getRandomValues) c.getRandomValues(b);
    else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const x = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
    return x.slice(0, 8) + '-' + x.slice(8, 12) + '-' + x.slice(12, 16) + '-' + x.slice(16, 20) + '-' + x.slice(20);
  }

  // ---- DOM ------------------------------------------------------------------------------
  // h('div', {class: 'x', 'data-bet': 'tie', onclick: fn}, 'text', child, [more])
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        const v = attrs[k];
        if (v === null || v === undefined || v === false) continue;
        if (k === 'class') el.className = v;
        else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'text') el.textContent = v;
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    append(el, kids);
    return el;
  }
  function append(el, kids) {
    for (const k of kids) {
      if (k === null || k === undefined || k === false) continue;
      if (Array.isArray(k)) append(el, k);
      else el.appendChild(k instanceof Node ? k : document.createTextNode(String(k)));
    }
  }
  // Writes only what changed: re-rendering from state costs no layout when nothing moved.
  function setText(el, text) {
    if (!el) return;
    text = text === null || text === undefined ? '' : String(text);
    if (el.textContent !== text) el.textContent = text;
  }
  function setAttr(el, name, value) {
    if (!el) return;
    if (value === null || value === undefined || value === false) {
      if (el.hasAttribute(name)) el.removeAttribute(name);
    } else {
      const v = value === true ? '' : String(value);
      if (el.getAttribute(name) !== v) el.setAttribute(name, v);
    }
  }
  function toggle(el, cls, on) {
    if (el && el.classList.contains(cls) !== !!on) el.classList.toggle(cls, !!on);
  }
  function show(el, on) { setAttr(el, 'hidden', !on); }
  const $ = (sel, root) => (root || document).querySelector(sel);

  // ---- toasts ---------------------------------------------------------------------------
  function toast(message, opts) {
    opts = opts || {};
    let box = document.getElementById('toasts');
    if (!box) {
      box = h('div', { id: 'toasts', 'aria-live': 'polite', role: 'status' });
      document.body.appendChild(box);
    }
    // A refusal's code is for support and tests (data-code), never shown: players read the
    // sentence in their language.
    const el = h('div', { class: 'toast toast-' + (opts.kind || 'info') }, h('span', { class: 'toast-msg' }, message));
    if (opts.code) el.setAttribute('data-code', opts.code);
    el.addEventListener('click', () => el.remove());
    box.appendChild(el);
    while (box.children.length > 4) box.firstChild.remove();
    setTimeout(() => el.classList.add('toast-out'), opts.ms || 4200);
    setTimeout(() => el.remove(), (opts.ms || 4200) + 400);
    return el;
  }
  // A refusal in the page's language: the sentence of its code (i18n "err.<code>") with the
  // params the server sent formatted for the page (web/API.md, "Errors"): amounts in their
  // currency, bets by name, times as dates. A code whose refusals can name things also has
  // "err.<code>.bare", said when the params did not come (an older server, another path); a
  // few have variants chosen by their params (ERR_VARIANT). An English page keeps the
  // server's message where the sentence names nothing (a bad_request's message says what was
  // wrong, which a sentence for every bad_request cannot). A code the page does not know is
  // "err.unknown"; the code itself is only ever shown after the sentence, small (toast).
  // The rule numbers the server's messages cite for staff and the docs ("(RWS 3.3)",
  // "(Tiger 5.18)", "(SPEC §4)") mean nothing to a player and are left out.
  const RULE_CITE = /\s*\((?:(?:RWS|MBS|Tiger|Dragon|SPEC|Bet on Baccarat)\s*[§]?\s*[0-9][0-9.]*(?:[;,]\s*)?)+\)/g;
  const ERR_MONEY = new Set(['min', 'max', 'have', 'stake', 'available', 'after', 'limit', 'staked', 'left', 'exposure']);
  const ERR_TIME = new Set(['until', 'opens', 'closed']);
  const ERR_VARIANT = {
    above_maximum: (p) => (toBig(p.have || 0) > 0n ? 'have' : ''),
    limit_reached: (p) => p.kind || '',
    registration_closed: (p) => (p.opens ? 'opens' : ''),
    no_rebuys_left: (p) => (p.max !== undefined && Number(p.max) === 0 ? 'none' : ''),
  };
  function errParams(p) {
    const out = {};
    const money = p.currency !== undefined && p.currency !== null;
    for (const k of Object.keys(p)) {
      const v = p[k];
      if (v === null || v === undefined) continue;
      if (money && ERR_MONEY.has(k) && /^-?\d+$/.test(String(v))) out[k] = C ? C.money(v, p.minor_units, p.currency) : fmtMoney(v);
      else if (k === 'bet' || k === 'side') out[k] = global.Bac.refusalBetName(v);
      else if (ERR_TIME.has(k)) out[k] = I.fmtDate(v) || String(v);
      else if (k === 'reason') out[k] = global.Bac.humanize(v);
      else if (typeof v === 'number') out[k] = I.fmtInt(v);
      else out[k] = String(v);
    }
    return out;
  }
  const unfilled = (s) => /\{\w+\}/.test(s);
  function errorText(err) {
    if (!err || typeof err !== 'object') return err ? String(err) : t('err.unknown');
    const code = err.code || '';
    // No code: the page's own error (already in its words), or a script's.
    if (!code) return err.message ? String(err.message) : t('err.unknown');
    const base = 'err.' + code;
    if (!I.has(base)) return I.lang === 'en' && err.message ? String(err.message).replace(RULE_CITE, '') : t('err.unknown');
    const p = err.params && typeof err.params === 'object' ? err.params : {};
    const v = ERR_VARIANT[code] ? ERR_VARIANT[code](p) : '';
    const key = v && I.has(base + '.' + v) ? base + '.' + v : base;
    const named = unfilled(I.t(key));
    if (I.lang === 'en' && !named && err.message) return String(err.message).replace(RULE_CITE, '');
    const text = t(key, errParams(p));
    if (!unfilled(text)) return text;
    if (I.lang === 'en' && err.message) return String(err.message).replace(RULE_CITE, '');
    return I.has(base + '.bare') ? t(base + '.bare') : t('err.unknown');
  }
  function toastError(err) {
    return toast(errorText(err), { kind: 'error', code: (err && err.code) || '' });
  }

  // ---- copy to clipboard (navigator.clipboard needs a secure context) -------------------
  async function copyText(text) {
    try {
      if (navigator.clipboard && global.isSecureContext) {
        await navigator.clipboard.writeText(text);
        return true;
      }
    } catch (e) { /* fall through */ }
    const ta = h('textarea', { class: 'offscreen', readonly: true });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    ta.remove();
    return ok;
  }

  // ---- the server clock: countdowns run on the server's time ----------------------------
  const clock = {
    offset: 0,
    sync(iso) {
      const ms = Date.parse(iso);
      if (!Number.isNaN(ms)) this.offset = ms - Date.now();
    },
    // From an HTTP Date header (whole seconds): only trusted when the skew is clearly real.
    syncHeader(date) {
      const ms = Date.parse(date || '');
      if (Number.isNaN(ms)) return;
      const off = ms - Date.now();
      if (Math.abs(off) > 1500) this.offset = off;
    },
    now() { return Date.now() + this.offset; },
    // Seconds until iso (never negative), or null when there is no deadline.
    secondsLeft(iso) {
      if (!iso) return null;
      const ms = Date.parse(iso);
      if (Number.isNaN(ms) || ms < 946684800000) return null; // Go's zero time
      return Math.max(0, (ms - this.now()) / 1000);
    },
  };

  // ---- page helpers ---------------------------------------------------------------------
  // The id in /table/{id} or /dealer/{id}; ?table= works too (for a page opened as a file).
  function pathId(prefix) {
    const q = new URLSearchParams(global.location.search).get('table');
    if (q) return q;
    const parts = global.location.pathname.split('/').filter(Boolean);
    const i = parts.indexOf(prefix);
    return i >= 0 && parts[i + 1] ? decodeURIComponent(parts[i + 1]) : '';
  }

  // Fills the header's sign-in area: the account name, balance and a sign-out link.
  async function loadMe() {
    if (!token()) return null;
    try {
      return await api('GET', '/api/me');
    } catch (e) {
      if (e.status === 401) {
        toast(t('signin.invalid'), { kind: 'error', code: e.code });
        signOut();
      }
      return null;
    }
  }
  function renderWho(el, me) {
    if (!el) return;
    el.textContent = '';
    if (me) {
      append(el, [h('span', { class: 'who-name', title: me.id + ' (' + t('role.' + me.role) + ')' }, me.name || me.id),
        h('span', { class: 'who-role' }, t('role.' + me.role)),
        h('button', { class: 'link', type: 'button', onclick: () => { signOut(); global.location.reload(); } }, t('signout'))]);
    } else {
      append(el, [h('span', { class: 'who-guest', title: t('watching.title') }, t('watching'))]);
    }
  }
  // The wallet shows for players (and for anyone not signed in, as "—"): staff have no balance.
  function renderBalance(el, minor, currency, me) {
    if (!el) return;
    const wallet = el.closest('.wallet');
    if (wallet) show(wallet, !me || !me.role || me.role === 'player');
    setText(el, minor === null || minor === undefined ? '—' : fmtMoney(minor));
    const cur = el.parentElement && el.parentElement.querySelector('.currency');
    if (cur) setText(cur, currency || '');
  }

  // The controls every page's top bar carries: the language switch and, where asked, sound.
  function topbarTools(el, opts) {
    if (!el) return;
    if (opts && opts.sound && global.BacSound) el.appendChild(global.BacSound.button(t));
  }

  adoptTokenFromURL();

  global.Bac = {
    TOKEN_KEY, token, signOut, api, ApiError, fmtMoney, fmtSigned, fmtCash, fmtCashSigned, chipLabel, uuid, h, append, setText, setAttr,
    toggle, show, $, toast, toastError, errorText, copyText, clock, pathId, loadMe, renderWho, renderBalance, topbarTools,
    t, tn: I.tn, byId: I.byId, has: I.has, fmtInt: I.fmtInt, fmtDate: I.fmtDate, fmtDecimal: I.fmtDecimalString, lang: I.lang,
    ready: I.ready, sound: global.BacSound || { chip() {}, card() {}, win() {} },
  };
})(window);
