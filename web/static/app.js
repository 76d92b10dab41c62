/* app.js: what every page shares. The API client (bearer token), sign-in from ?token=, money
   formatting, toasts, a tiny DOM helper, the server clock, cards, and the table WebSocket with
   reconnect. Classic script: everything hangs off window.Bac. No build step, no dependencies.
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
  let errGame = null; // the game betName last named a bet of, for a refusal's bet
  function errParams(p) {
    const out = {};
    const money = p.currency !== undefined && p.currency !== null;
    for (const k of Object.keys(p)) {
      const v = p[k];
      if (v === null || v === undefined) continue;
      if (money && ERR_MONEY.has(k) && /^-?\d+$/.test(String(v))) out[k] = C ? C.money(v, p.minor_units, p.currency) : fmtMoney(v);
      else if (k === 'bet' || k === 'side') out[k] = betName(errGame, v);
      else if (ERR_TIME.has(k)) out[k] = I.fmtDate(v) || String(v);
      else if (k === 'reason') out[k] = humanize(v);
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

  // ---- cards ----------------------------------------------------------------------------
  const SUITS = { c: '♣', d: '♦', h: '♥', s: '♠' };
  const suitName = (s) => (SUITS[s] ? t('suit.' + s) : '?');
  function parseCard(text) {
    const s = String(text || '').trim();
    const suit = s.slice(-1).toLowerCase();
    let rank = s.slice(0, -1).toUpperCase();
    if (rank === '10') rank = 'T';
    return { text: s, rank, suit, label: rank === 'T' ? '10' : rank, symbol: SUITS[suit] || '?', red: suit === 'd' || suit === 'h' };
  }
  function cardValue(text) {
    const r = parseCard(text).rank;
    if (r === 'A') return 1;
    const n = parseInt(r, 10);
    return n >= 2 && n <= 9 ? n : 0;
  }
  // A hand's total for display while cards arrive; the settled result carries the server's.
  function handTotal(cards) {
    let sum = 0;
    for (const c of cards) sum += cardValue(c);
    return sum % 10;
  }
  // A card, or its back when there is no value: a squeezed card is face down to all but its
  // squeezer (and a face-down card has no data-card).
  function cardEl(text, position, opts) {
    const size = (opts && opts.small ? ' card-sm' : '') + (position === 'P3' || position === 'B3' ? ' card-third' : '');
    const where = position ? ' (' + positionName(position) + ')' : '';
    if (!text) {
      const name = t('card.face_down');
      return h('div', { class: 'card card-back' + size, 'data-position': position || null, title: name + where, role: 'img', 'aria-label': name });
    }
    const c = parseCard(text);
    const name = t('card.name', { rank: c.label, suit: suitName(c.suit) });
    return h('div', { class: 'card' + (c.red ? ' red' : '') + size, 'data-card': c.text, 'data-position': position || null,
      title: name + where, role: 'img', 'aria-label': name },
    h('span', { class: 'card-corner' }, h('span', { class: 'card-rank' }, c.label), h('span', { class: 'card-suit' }, c.symbol)),
    h('span', { class: 'card-pip' }, c.symbol));
  }
  function cardInline(text) {
    if (!text) return h('span', { class: 'card-inline card-inline-back', title: t('card.face_down') }, '▮▮');
    const c = parseCard(text);
    return h('span', { class: 'card-inline' + (c.red ? ' red' : ''), 'data-card': c.text }, c.label + c.symbol);
  }
  // "Player, 1st card" for P1.
  function positionName(pos) { return I.has('pos.' + pos) ? t('pos.' + pos) : String(pos || ''); }

  // ---- game data ------------------------------------------------------------------------
  function betOf(game, id) {
    if (game && Array.isArray(game.bets)) for (const b of game.bets) if (b.id === id) return b;
    return null;
  }
  // A bet's name in the page's language (庄 for banker), else the server's.
  function betName(game, id) {
    if (game) errGame = game;
    if (I.has('bet.' + id)) return t('bet.' + id);
    const b = betOf(game, id);
    if (b && b.name) return b.name;
    const s = String(id || '').replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }
  // A game's name in the page's language by its id ('game.mbs-tiger'), else the name the
  // server sent, else the id.
  function gameName(id, name) { return id ? I.byId('game.' + id, name || id) : name || ''; }
  // A pay tier's event ({id, event} of a game's or a rules answer's tiers) in the page's
  // language by its id ('tier.banker_on_six'), else the server's English.
  function tierEvent(tier) {
    const text = String((tier && tier.event) || '');
    return tier && tier.id ? I.byId('tier.' + tier.id, text) : text;
  }
  // Bet on Baccarat bets are paid at the decimal odds locked when placed.
  function isDecimal(bet) {
    if (!bet) return false;
    if (bet.decimal === true) return true;
    const tiers = bet.tiers || [];
    return tiers.length > 0 && tiers.every((x) => /decimal/i.test(String(x.pays || '')));
  }
  function gameHasDecimal(game) {
    return !!(game && (game.bets || []).some(isDecimal));
  }
  // Prices arrive as {bet, offered, odds}; accept Go's untagged field names too.
  function normPrices(list) {
    const out = {};
    for (const p of list || []) {
      const bet = p.bet !== undefined ? p.bet : p.Bet;
      if (!bet) continue;
      const odds = p.odds !== undefined ? p.odds : p.Odds;
      const offered = p.offered !== undefined ? p.offered : p.Offered;
      out[bet] = { bet, offered: !!offered, odds: odds === null || odds === undefined ? '' : String(odds) };
    }
    return out;
  }
  const WINNER_KEYS = { banker: 'B', player: 'P', tie: 'T', B: 'B', P: 'P', T: 'T' };
  // winnerName('banker') or ('B') → "Banker" (庄).
  function winnerName(w) { return WINNER_KEYS[w] ? t('side.' + WINNER_KEYS[w]) : humanize(w); }
  // A code (a void reason, an event type) in words: its translation, else the code spelled out.
  function humanize(code) {
    if (I.has('reason.' + code)) return t('reason.' + code);
    const s = String(code || '').replace(/_/g, ' ');
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  // The phase a player reads in the banner. A table the pit paused says so once the round
  // under way (which goes on to its end) is over; a closed one says so.
  function phaseText(state, game) {
    if (!state) return t('phase.connecting');
    if (state.closed) return t('phase.table_closed');
    if (state.paused && !['betting', 'closed', 'dealing'].includes(state.phase)) return t('phase.paused');
    if (state.interrupted) return t('phase.interrupted');
    if (state.squeeze) return t('phase.squeeze', { side: winnerName(state.squeeze.side) });
    const multi = gameHasDecimal(game);
    switch (state.phase) {
      case 'betting': return t('phase.betting');
      case 'closed': return t('phase.closed');
      case 'dealing':
        if (state.bet_open) return multi ? t('phase.betting_round', { n: state.betting_round }) : t('phase.betting');
        return t('phase.dealing');
      case 'settled': return t('phase.settled');
      case 'void': return t('phase.void');
      case 'idle':
      default:
        if (state.shoe && !state.shoe.active) return t('phase.shoe_change');
        return t('phase.idle');
    }
  }

  // A table's name in the page's language: its "names" entry for the language (GET
  // /api/tables), else its name.
  function nameOf(x, fallback) {
    const own = x && x.names && x.names[I.lang];
    return own || (x && x.name) || fallback || '';
  }
  // A tournament's name as the pages show it: the one for the page's language (its config's
  // "names"), else its name. Older demo tournaments carry their start as a UTC time in the
  // name ("… · 15:04 UTC"): the pages show that start in the viewer's local time instead, as
  // they show every date.
  function tournamentName(x) {
    const own = x && x.config && x.config.names && x.config.names[I.lang];
    if (own) return own;
    const name = String((x && x.name) || '');
    const m = /\s*·\s*\d{1,2}:\d{2}\s*UTC$/.exec(name);
    if (!m) return name;
    const d = new Date(x.config && x.config.start);
    return name.slice(0, m.index) + (Number.isNaN(d.getTime()) ? '' : ' · ' + d.toLocaleTimeString(I.lang, { hour: '2-digit', minute: '2-digit' }));
  }

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
    toggle, show, $, toast, toastError, errorText, copyText, clock, parseCard, cardValue, handTotal, cardEl, cardInline,
    positionName, betOf, betName, gameName, tierEvent, isDecimal, gameHasDecimal, normPrices, winnerName, humanize, phaseText,
    pathId, loadMe, renderWho, renderBalance, topbarTools, tournamentName, nameOf,
    t, tn: I.tn, ts: I.ts, has: I.has, fmtInt: I.fmtInt, fmtDate: I.fmtDate, fmtDecimal: I.fmtDecimalString, lang: I.lang,
    ready: I.ready, sound: global.BacSound || { chip() {}, card() {}, win() {} },
  };
})(window);
