/* dealer.js: the dealer console at /dealer/{id}. The next position to fill, big; a card input
   for keyboard or scanner (7h ↵); every table command with its keyboard shortcut; a log of the
   table's events. Errors stay inline and the typed text stays so the dealer can fix it. While
   a player squeezes a hand, a banner says who, which hand and for how long, with Reveal now.
   Needs i18n.js, app.js, events.js and state.js; starts once the language is loaded. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, toggle, show, clock, cardEl, handTotal, phaseText, describeEvent,
    positionName, betName, fmtCash, t } = Bac;

  const tableId = Bac.pathId('dealer');
  const S = { me: null, table: null, game: null, state: null };
  const el = {
    tableName: $('#table-name'), gameName: $('#game-name'), conn: $('#conn'), who: $('#who'),
    next: $('#next-position'), nextLabel: $('#next-label'), phase: $('#dealer-phase'), roundNo: $('#round-no'),
    shoeNo: $('#shoe-no'), shoeLeft: $('#shoe-left'), countdown: $('#countdown'), shoeFlags: $('#shoe-flags'),
    form: $('#card-form'), input: $('#card-input'), cut: $('#cut-flag'), error: $('#card-error'), alert: $('#dealer-alert'),
    playerCards: $('#player-cards'), bankerCards: $('#banker-cards'), playerTotal: $('#player-total'),
    bankerTotal: $('#banker-total'), seq: $('#dealt-seq'), totals: $('#totals'), log: $('#dealer-log'),
    voidReason: $('#void-reason'), correctCards: $('#correct-cards'), correctReason: $('#correct-reason'),
    simCards: $('#sim-cards'), simKnown: $('#sim-known'), resumeCards: $('#resume-cards'),
    interruptReason: $('#interrupt-reason'), resetReason: $('#reset-reason'),
    squeeze: $('#squeeze-pause'), squeezeText: $('#squeeze-pause-text'), squeezeClock: $('#squeeze-pause-clock'),
  };
  const cmdButton = (cmd) => document.querySelector('[data-cmd="' + cmd + '"]');
  const cardsOf = (text) => String(text || '').trim().split(/[\s,]+/).filter(Boolean);
  const post = (body) => api('POST', '/api/tables/' + encodeURIComponent(tableId) + '/commands', body);

  // ---- render from state ------------------------------------------------------------------
  let dirty = false;
  function invalidate() {
    if (!dirty) { dirty = true; requestAnimationFrame(render); }
  }
  let cardsKey = '';
  function render() {
    dirty = false;
    const st = S.state;
    if (!st) return;
    const pos = st.next_position && st.next_position !== 'none' ? st.next_position : '';
    setText(el.next, pos || '—');
    setAttr(el.next, 'data-side', pos ? pos.charAt(0) : '');
    setAttr(el.next, 'data-position', pos || 'none');
    let label;
    if (pos) label = t('dealer.next', { pos: positionName(pos) });
    else if (st.squeeze) label = t('dealer.squeeze_wait');
    else if (st.interrupted) label = t('dealer.interrupted');
    else if (st.phase === 'betting') label = t('dealer.betting');
    else if (st.phase === 'settled' || st.phase === 'void' || st.phase === 'idle') label = st.shoe && !st.shoe.active ? t('dealer.no_shoe') : t('dealer.round_over');
    else label = t('dealer.no_card');
    setText(el.nextLabel, label);
    setText(el.phase, phaseText(st, S.game));
    setAttr(el.phase, 'data-phase', st.phase);
    setText(el.roundNo, st.round || '–');
    const shoe = st.shoe || {};
    setText(el.shoeNo, shoe.number || '–');
    setText(el.shoeLeft, shoe.left !== undefined ? shoe.left : '–');
    const flags = [];
    if (shoe.ending) flags.push(t('dealer.cut_out'));
    if (!shoe.active) flags.push(t('dealer.no_shoe_flag'));
    if (shoe.active && !shoe.live) flags.push(t('dealer.rng_shoe'));
    const fk = flags.join('|');
    if (el.shoeFlags.dataset.k !== fk) {
      el.shoeFlags.dataset.k = fk;
      el.shoeFlags.textContent = '';
      for (const f of flags) el.shoeFlags.appendChild(h('span', { class: 'badge badge-warn' }, f));
    }
    // Cards so far, by hand and in deal order.
    const cards = st.cards || [];
    const key = cards.map((c) => c.position + c.card).join(',');
    if (key !== cardsKey) {
      cardsKey = key;
      el.playerCards.textContent = '';
      el.bankerCards.textContent = '';
      el.seq.textContent = '';
      const P = [], B = [];
      for (const c of cards) {
        const side = String(c.position).charAt(0);
        (side === 'P' ? el.playerCards : el.bankerCards).appendChild(cardEl(c.card, c.position, { small: false }));
        (side === 'P' ? P : B).push(c.card);
        el.seq.appendChild(h('span', { 'data-position': c.position }, c.position + ' ', Bac.cardInline(c.card)));
      }
      setText(el.playerTotal, P.length ? handTotal(P) : '');
      setText(el.bankerTotal, B.length ? handTotal(B) : '');
    }
    // Wagers on the table this round.
    const totals = st.totals || {};
    const tk = JSON.stringify(totals);
    if (el.totals.dataset.k !== tk) {
      el.totals.dataset.k = tk;
      el.totals.textContent = '';
      const ids = Object.keys(totals).filter((k) => totals[k]);
      if (!ids.length) el.totals.appendChild(h('span', { class: 'muted' }, t('none')));
      for (const id of ids) el.totals.appendChild(h('span', { 'data-bet': id }, betName(S.game, id) + ' ', h('b', null, fmtCash(totals[id]))));
    }
    renderAlert();
    renderSqueeze();
    tick();
  }
  // The squeeze pause: cards typed now are refused (extra_card) until the hand is revealed.
  function renderSqueeze() {
    const sq = S.state && S.state.squeeze;
    show(el.squeeze, !!sq);
    setAttr(el.squeeze, 'data-side', sq ? sq.side : null);
    if (sq) setText(el.squeezeText, t('dealer.squeeze', { who: Bac.personName(sq.squeezer), side: Bac.winnerName(sq.side) }));
  }
  function renderAlert() {
    const st = S.state;
    const msgs = [];
    if (!S.me) msgs.push(t('dealer.not_signed_in'));
    else if (S.me.role === 'player') msgs.push(t('dealer.as_player'));
    if (S.table && S.table.mode === 'auto') msgs.push(t('dealer.auto'));
    if (st && st.closed) msgs.push(t('dealer.table_closed'));
    else if (st && st.paused) msgs.push(t(['betting', 'closed', 'dealing'].includes(st.phase) ? 'dealer.paused_last' : 'dealer.paused'));
    if (st && st.interrupted) msgs.push(t(st.withdrawal_window ? 'dealer.interrupted_window' : 'dealer.interrupted_resume'));
    else if (st && st.withdrawal_window) msgs.push(t('dealer.window'));
    if (st && st.pending && st.pending.length) msgs.push(t('dealer.pending', { cards: st.pending.join(' ') }));
    setText(el.alert, msgs.join(' '));
    show(el.alert, msgs.length > 0);
  }
  function tick() {
    const st = S.state;
    let text = '';
    if (st && st.bet_open) {
      const s = clock.secondsLeft(st.until);
      text = s === null ? t('dealer.open') : t('lobby.seconds', { n: Math.ceil(s) });
    } else if (st) text = t('dealer.closed');
    setText(el.countdown, text);
    const sq = st && st.squeeze;
    const left = sq ? clock.secondsLeft(sq.until) : null;
    setText(el.squeezeClock, left === null ? '' : t('lobby.seconds', { n: Math.ceil(left) }));
  }
  setInterval(tick, 500);

  // ---- the log ----------------------------------------------------------------------------
  const MAX_LOG = 300;
  // A refusal's code, small and muted after its sentence, for support: never the text itself.
  const codeTag = (code) => h('code', { class: 'toast-code' }, '[' + code + ']');
  // code: a refusal's code (codeTag).
  function logLine(text, cls, seq, at, code) {
    const d = at ? new Date(at) : new Date();
    const time = Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(Bac.lang, { hour12: false });
    el.log.insertBefore(h('li', { class: cls || '', 'data-code': code || null }, h('span', { class: 's' }, seq ? '#' + seq : ''), h('span', { class: 't' }, time),
      h('span', null, text, code ? [' ', codeTag(code)] : null)), el.log.firstChild);
    while (el.log.children.length > MAX_LOG) el.log.lastChild.remove();
  }
  $('#log-clear').addEventListener('click', () => { el.log.textContent = ''; focusCard(); });

  // ---- commands -----------------------------------------------------------------------------
  // An error under the card input, in the console's language: the server's refusal as its
  // code's sentence (Bac.errorText) with the code small after it, or the console's own words
  // (err.text: a command's field left empty).
  function showError(err) {
    el.error.textContent = '';
    setAttr(el.error, 'data-code', (err && err.code) || null);
    if (err) el.error.append(err.text || Bac.errorText(err), ...(err.code ? [' ', codeTag(err.code)] : []));
    toggle(el.input, 'bad', !!err);
  }
  // A card the server refused names the token typed, which the server's params may lack.
  function cardError(e, card) {
    if (e && e.code === 'bad_card' && !(e.params && e.params.card)) e.params = Object.assign({}, e.params, { card });
    return e;
  }
  function focusCard() {
    if (document.activeElement !== el.input) el.input.focus({ preventScroll: true });
  }
  async function run(body, label) {
    try {
      const res = await post(body);
      if (res && Array.isArray(res.events) && !S.streamLive) for (const e of res.events) logLine(describeEvent(e, { game: S.game, me: S.me }), 'ok', e.seq, e.at);
      return true;
    } catch (e) {
      logLine(t('dealer.refused', { what: label || body.cmd, why: Bac.errorText(e) }), 'refused', 0, null, e.code);
      Bac.toastError(e);
      return false;
    }
  }

  // The card input: one card or several separated by spaces; stops at the first refusal and
  // leaves it (and what follows) in the input, selected, for the dealer to fix.
  let sending = false;
  async function submitCards() {
    if (sending) return;
    const tokens = cardsOf(el.input.value);
    if (!tokens.length) return;
    sending = true;
    try {
      while (tokens.length) {
        const card = tokens[0];
        const body = { cmd: 'card', card };
        if (el.cut.checked) body.cut = true;
        try {
          await post(body);
        } catch (e) {
          el.input.value = tokens.join(' ');
          cardError(e, card);
          showError(e);
          logLine(t('dealer.refused', { what: card, why: Bac.errorText(e) }), 'refused', 0, null, e.code);
          el.input.focus();
          el.input.setSelectionRange(0, card.length);
          return;
        }
        tokens.shift();
        el.cut.checked = false;
        el.input.value = tokens.join(' ');
      }
      showError(null);
    } finally {
      sending = false;
    }
  }
  el.form.addEventListener('submit', (e) => { e.preventDefault(); submitCards(); });
  el.input.addEventListener('input', () => { if (el.error.textContent) showError(null); });

  const COMMANDS = {
    open: () => ({ cmd: 'open' }),
    close: () => ({ cmd: 'close' }),
    resume: () => {
      const cards = cardsOf(el.resumeCards.value);
      return cards.length ? { cmd: 'resume', cards } : { cmd: 'resume' };
    },
    end_shoe: () => ({ cmd: 'end_shoe' }),
    new_shoe: () => ({ cmd: 'new_shoe' }),
    end_session: () => ({ cmd: 'end_session' }),
    void: () => ({ cmd: 'void', reason: el.voidReason.value }),
    correct: () => {
      const cards = cardsOf(el.correctCards.value);
      if (!cards.length) throw new Error(t('dealer.need_cards'));
      const b = { cmd: 'correct', cards };
      if (el.correctReason.value.trim()) b.reason = el.correctReason.value.trim();
      return b;
    },
    simultaneous_draw: () => {
      const cards = cardsOf(el.simCards.value);
      if (cards.length < 2) throw new Error(t('dealer.need_sim_cards'));
      return { cmd: 'simultaneous_draw', cards, known: el.simKnown.checked };
    },
    interrupt: () => ({ cmd: 'interrupt', reason: el.interruptReason.value.trim() || 'dealer' }),
    device_reset: () => ({ cmd: 'device_reset', reason: el.resetReason.value.trim() || 'device reset' }),
    reveal: () => ({ cmd: 'reveal' }),
  };
  const CLEAR_AFTER = { correct: [el.correctCards, el.correctReason], simultaneous_draw: [el.simCards], resume: [el.resumeCards],
    interrupt: [el.interruptReason], device_reset: [el.resetReason] };

  // Commands marked data-confirm need a second press within 3 s.
  let armed = null;
  let armTimer = 0;
  function disarm() {
    if (!armed) return;
    armed.classList.remove('armed');
    armed.innerHTML = armed.dataset.label;
    armed = null;
    clearTimeout(armTimer);
  }
  async function command(cmd, fromKey) {
    const btn = cmdButton(cmd);
    if (btn && btn.dataset.confirm && armed !== btn) {
      disarm();
      armed = btn;
      btn.dataset.label = btn.innerHTML;
      btn.classList.add('armed');
      btn.textContent = fromKey ? t('dealer.press_again') : t('dealer.click_again');
      armTimer = setTimeout(disarm, 3000);
      return;
    }
    disarm();
    let body;
    try {
      body = COMMANDS[cmd]();
    } catch (e) {
      showError({ text: e.message });
      return;
    }
    if (btn) btn.disabled = true;
    // The log names the command as its button does, in the console's language.
    const label = btn ? ((btn.querySelector('[data-i18n]') || btn).textContent || '').trim() : '';
    const ok = await run(body, label || cmd.replace(/_/g, ' '));
    if (btn) btn.disabled = false;
    if (ok) {
      for (const i of CLEAR_AFTER[cmd] || []) { if (i.type === 'checkbox') i.checked = false; else i.value = ''; }
      if (cmd === 'simultaneous_draw') el.simKnown.checked = false;
    }
    focusCard();
  }
  for (const btn of document.querySelectorAll('[data-cmd]')) {
    btn.addEventListener('click', () => command(btn.dataset.cmd, false));
  }
  // Enter in a command's own field runs that command.
  const FIELD_CMD = [[el.voidReason, 'void'], [el.correctCards, 'correct'], [el.correctReason, 'correct'], [el.simCards, 'simultaneous_draw'],
    [el.resumeCards, 'resume'], [el.interruptReason, 'interrupt'], [el.resetReason, 'device_reset']];
  for (const [field, cmd] of FIELD_CMD) {
    field.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') { e.preventDefault(); command(cmd, true); }
    });
  }

  // ---- keyboard shortcuts ---------------------------------------------------------------------
  const KEYS = {
    o: () => command('open', true),
    c: () => command('close', true),
    r: () => command('resume', true),
    e: () => command('end_shoe', true),
    n: () => command('new_shoe', true),
    v: () => el.voidReason.focus(),
    x: () => el.correctCards.focus(),
    s: () => el.simCards.focus(),
    i: () => el.interruptReason.focus(),
    d: () => el.resetReason.focus(),
  };
  // A shortcut typed in the card input must not also land in it as text.
  let swallow = false;
  const eat = (e) => { if (swallow) { e.preventDefault(); swallow = false; } };
  el.input.addEventListener('keypress', eat);
  el.input.addEventListener('beforeinput', eat);
  document.addEventListener('keyup', () => { swallow = false; });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      disarm();
      showError(null);
      if (document.activeElement === el.input) el.input.value = '';
      focusCard();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey || e.key.length !== 1) return;
    const tg = e.target;
    const inCard = tg === el.input;
    const inField = !inCard && tg && (tg.tagName === 'INPUT' || tg.tagName === 'TEXTAREA' || tg.tagName === 'SELECT');
    if (inField) return;
    // A card starts with its rank (A 2-9 1 T J Q K): none of the command letters.
    if (inCard && el.input.value !== '') return;
    const fn = KEYS[e.key.toLowerCase()];
    if (!fn) {
      if (!inCard && /^[0-9atjqk]$/i.test(e.key)) focusCard(); // typing a card anywhere goes to the input
      return;
    }
    e.preventDefault();
    if (inCard) swallow = true;
    fn();
  });

  // ---- Method C: hand the shoe to a player (Tiger 3.9.4.1, the pit's discretion) -------------
  // At a table whose state has method_c, who holds the shoe (by name, as the stream shows
  // players) and a field to hand it to a player by account id (this round's bettors, as
  // staff's view of the wagers names them, offered), POST /hand-shoe.
  const shoe = (() => {
    const list = h('datalist', { id: 'hand-shoe-players' });
    const input = h('input', { id: 'hand-shoe-player', class: 'input', list: 'hand-shoe-players', autocomplete: 'off', spellcheck: 'false' });
    const holder = h('span', { class: 'muted', id: 'hand-shoe-holder', role: 'status' });
    const button = h('button', { type: 'button', class: 'btn', id: 'hand-shoe' });
    const label = h('label', { for: 'hand-shoe-player' });
    const box = h('div', { class: 'row hand-shoe', id: 'hand-shoe-row', hidden: true }, label, input, list, button, holder);
    const commands = document.querySelector('[data-i18n-aria="dealer.commands"]');
    if (commands) commands.appendChild(box);
    let offered = '';
    async function hand() {
      const player = input.value.trim();
      if (!player) { input.focus(); return; }
      button.disabled = true;
      try {
        await api('POST', '/api/tables/' + encodeURIComponent(tableId) + '/hand-shoe', { player });
        logLine(t('shoe.handed', { who: player }), 'ok');
        input.value = '';
      } catch (e) {
        logLine(t('dealer.refused', { what: t('shoe.hand'), why: Bac.errorText(e) }), 'refused', 0, null, e.code);
        Bac.toastError(e);
      } finally {
        button.disabled = false;
      }
    }
    button.addEventListener('click', hand);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); hand(); } });
    return function render() {
      const mc = S.state && S.state.method_c;
      show(box, !!mc);
      if (!mc) return;
      setText(label, t('shoe.hand_to'));
      setAttr(input, 'placeholder', t('shoe.hand_player'));
      setText(button, t('shoe.hand'));
      setText(holder, mc.holder ? t('shoe.holds', { who: Bac.personName(mc.holder) }) : t('shoe.nobody'));
      const players = [...new Set((S.state.wagers || []).map((w) => w.player))].filter(Boolean);
      if (players.join(' ') !== offered) {
        offered = players.join(' ');
        list.replaceChildren(...players.map((p) => h('option', { value: p })));
      }
    };
  })();
  setInterval(() => shoe(), 500);

  // ---- the stream ---------------------------------------------------------------------------
  function onMessage(m) {
    if (m.names) Bac.rememberNames(m.names); // the squeezer by name (web/API.md, "Display names")
    switch (m.type) {
      case 'snapshot':
        if (m.server_time) clock.sync(m.server_time);
        if (m.table) {
          S.table = m.table;
          // Amounts in the table's currency (its decimals) before the log writes any.
          if (window.BacCurrency) window.BacCurrency.set(m.table.minor_units, m.table.currency);
          setAttr(el.totals, 'data-currency', m.table.currency || null);
        }
        if (m.game) S.game = m.game;
        setText(el.tableName, t('dealer.title', { name: Bac.nameOf(S.table, tableId) }));
        setText(el.gameName, S.game ? Bac.gameName(S.game.id, S.game.name) : '');
        document.title = t('dealer.title', { name: Bac.nameOf(S.table, tableId) });
        show(cmdButton('end_session'), !!(S.game && (S.game.bets || []).some((b) => b.kind === 'dragon')));
        S.state = m.state;
        if (!m.polled) logLine(t('dealer.connected', { n: m.state ? m.state.round : '?', phase: phaseText(m.state, S.game) }), 'ok', m.state && m.state.seq);
        break;
      case 'event':
        if (m.event) {
          logLine(describeEvent(m.event, { game: S.game, me: S.me }), '', m.event.seq, m.event.at);
          if (S.state) Bac.foldEvent(S.state, m.event, S.game);
          // The next position follows the Table of Play: the server's snapshot says it.
          scheduleResync();
        }
        break;
      case 'mine':
        if (m.event && S.state) Bac.foldMine(S.state, m.event, S.game);
        break;
      case 'totals':
        Bac.foldTotals(S.state, m);
        break;
      case 'state': // a server that sends whole states
        S.state = m.state;
        break;
      default:
        break;
    }
    invalidate();
  }
  // Re-reads the snapshot (the next position, the state after irregular events) once the
  // events of a burst are in; the console is one client per table, so it may ask every time.
  let resyncTimer = 0;
  let resyncTries = 0;
  function scheduleResync() {
    clearTimeout(resyncTimer);
    resyncTimer = setTimeout(resync, 120);
  }
  async function resync() {
    try {
      const snap = await api('GET', '/api/tables/' + encodeURIComponent(tableId));
      if (snap && snap.state && (!S.state || snap.state.seq >= S.state.seq || ++resyncTries > 5)) {
        resyncTries = 0;
        Bac.rememberNames(snap.names);
        S.state = snap.state;
        if (snap.server_time) clock.sync(snap.server_time);
        invalidate();
      } else {
        scheduleResync(); // events overtook the snapshot: ask again
      }
    } catch (e) { /* the stream keeps the console going */ }
  }
  let lastStatus = '';
  function onStatus(s, info) {
    S.streamLive = s === 'live';
    if (s === 'reconnecting' && lastStatus === 'live') logLine(t('dealer.lost'), 'refused');
    if (s === 'live' && info && info.resumed) scheduleResync();
    lastStatus = s;
    setAttr(el.conn, 'data-status', s);
    setText(el.conn.querySelector('.conn-text'), Bac.has('conn.' + s) ? t('conn.' + s) : s);
  }

  async function start() {
    focusCard();
    if (!tableId) { setText(el.nextLabel, t('dealer.no_table')); return; }
    const stream = new Bac.TableStream(tableId, {
      onMessage, onStatus,
      poll: () => api('GET', '/api/tables/' + encodeURIComponent(tableId)),
      onMissing: () => { setText(el.nextLabel, t('table.missing', { id: tableId })); onStatus('gone'); },
    });
    stream.connect();
    S.me = await Bac.loadMe();
    Bac.renderWho(el.who, S.me);
    invalidate();
  }
  start();
  window.BacDealer = { S };
})(window.Bac));
