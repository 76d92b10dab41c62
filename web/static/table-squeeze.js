/* table-squeeze.js: the squeeze on the player's table (SPEC §4, Tiger 3.8 Method A, online).
   While state.squeeze names a hand, the stage shows its two cards large and face down. The
   player who squeezes it (the highest main-bet stake on it) peels them: a drag lifts a card
   from its bottom-right corner (mouse, pen or finger), or the keys do: 1/2 or ←/→ pick a card,
   ↑/↓ (W/S) lift it by 10%, Enter or Space reveal. Every change of a lift goes to POST /peel,
   about six a second at most; both cards lifted all the way, or Reveal, sends POST /reveal.
   Everyone else follows the same peel from the stream's "peel" messages, over a blank face:
   the card reaches them only with the reveal (squeeze_ended). While the player squeezes, the
   panel has the keyboard (S.squeezing: the betting keys stand aside). The squeezer is named by
   their public handle and shown by their display name (events.js personName): a page knows its
   own player's handle from /api/me ("public"), never another player's account id. Needs app.js
   and events.js. */
'use strict';
(function (Bac) {
  const { api, h, setText, setAttr, toggle, show, clock, cardEl, positionName, winnerName, toastError, t } = Bac;

  const STEP = 10; // a key lifts a card by 10%
  const PEEL_EVERY = 170; // ms between peels sent: about six a second, well inside the rate limit
  const POSITIONS = { player: ['P1', 'P2'], banker: ['B1', 'B2'] }; // a hand's two cards in deal order
  const clamp = (n) => Math.max(0, Math.min(100, Math.round(n)));
  // How the stream names this page's player: their handle (their id where the server shows ids).
  const meAs = (me) => (me ? (me.public && me.public.handle) || me.id : '');

  // ctx: {S, tableId, invalidate()}
  Bac.createSqueeze = function (ctx) {
    const S = ctx.S;
    const path = (what) => '/api/tables/' + encodeURIComponent(ctx.tableId) + '/' + what;
    const el = {
      box: document.getElementById('squeeze'),
      title: h('span', { class: 'squeeze-title', id: 'squeeze-title' }),
      clock: h('span', { class: 'squeeze-clock', id: 'squeeze-clock', 'aria-label': t('squeeze.clock') }),
      note: h('span', { class: 'squeeze-note muted', id: 'squeeze-note' }),
      reveal: h('button', { type: 'button', class: 'btn btn-gold', id: 'squeeze-reveal', onclick: () => reveal() }, t('squeeze.reveal')),
    };
    const cards = [0, 1].map(peelCard);
    Bac.append(el.box, [
      h('div', { class: 'squeeze-head' }, el.title, el.clock),
      h('div', { class: 'squeeze-cards' }, cards.map((c) => c.node)),
      h('div', { class: 'squeeze-foot' }, el.note, el.reveal),
    ]);

    let key = ''; // the squeeze shown: round, side, squeezer and viewer ('' for none)
    let mine = false; // this page's player squeezes the hand
    let lifts = [0, 0]; // how far each card is lifted, in %
    let selected = 0; // the card the keys lift
    let revealing = false;
    let timer = 0; // the countdown's
    let drag = null; // {id, i, x, y, w, h, from}: a pointer peeling card i
    let sent = [0, 0]; // the lifts the server has been told
    let sending = false;
    let sendTimer = 0;
    let lastSent = 0;

    // ---- a peelable card: its face under its back, the back clipped away from a corner ------
    function peelCard(i) {
      const node = h('div', { class: 'peel', 'data-index': i, 'data-lift': 0, role: 'slider', 'aria-valuemin': 0, 'aria-valuemax': 100 },
        h('div', { class: 'peel-face' }), h('div', { class: 'peel-back', 'aria-hidden': 'true' }), h('div', { class: 'peel-flap', 'aria-hidden': 'true' }));
      node.addEventListener('pointerdown', (e) => startDrag(e, i));
      node.addEventListener('pointermove', moveDrag);
      node.addEventListener('pointerup', endDrag);
      node.addEventListener('pointercancel', endDrag);
      return { node, face: node.firstChild, shows: null };
    }
    function draw(i) {
      const n = cards[i].node;
      n.style.setProperty('--lift', String(lifts[i] / 100));
      setAttr(n, 'data-lift', lifts[i]);
      setAttr(n, 'aria-valuenow', lifts[i]);
      setAttr(n, 'aria-valuetext', t('squeeze.lifted', { n: lifts[i] }));
    }
    // The face under the back: the card to its squeezer, a blank to everyone else.
    function paintFaces(st, sq) {
      POSITIONS[sq.side].forEach((pos, i) => {
        const dealt = (st.cards || []).find((c) => c.position === pos);
        const value = mine && dealt ? dealt.card || '' : '';
        const c = cards[i];
        setAttr(c.node, 'aria-label', positionName(pos));
        if (c.shows === value) return;
        c.shows = value;
        c.face.textContent = '';
        c.face.appendChild(value ? cardEl(value, pos) : h('div', { class: 'card card-blank' }));
      });
    }

    // ---- render from state ------------------------------------------------------------------
    function update() {
      const st = S.state;
      const sq = st && st.squeeze;
      const k = sq ? [st.round, sq.side, sq.squeezer, meAs(S.me)].join(':') : '';
      if (k !== key) begin(k, sq);
      S.squeezing = mine && !S.offline;
      if (!sq) return;
      paintFaces(st, sq);
      el.reveal.disabled = revealing || S.offline;
      setText(el.reveal, revealing ? t('squeeze.revealing') : t('squeeze.reveal'));
      tick();
    }
    // begin shows a new squeeze (or none): lifts at 0, the first card picked.
    function begin(k, sq) {
      key = k;
      mine = !!(sq && S.me && meAs(S.me) === sq.squeezer);
      lifts = [0, 0];
      sent = [0, 0];
      selected = 0;
      revealing = false;
      drag = null;
      show(el.box, !!sq);
      clearInterval(timer);
      if (!sq) return;
      timer = setInterval(tick, 250);
      const side = winnerName(sq.side);
      setAttr(el.box, 'data-side', sq.side);
      setAttr(el.box, 'data-mode', mine ? 'squeezer' : 'watcher');
      setText(el.title, mine ? t('squeeze.yours', { side }) : t('squeeze.watching', { who: Bac.personName(sq.squeezer), side }));
      setText(el.note, mine ? t('squeeze.keys') : t('squeeze.watch_note'));
      show(el.reveal, mine);
      cards.forEach((c, i) => {
        setAttr(c.node, 'tabindex', mine ? '0' : null);
        setAttr(c.node, 'aria-readonly', mine ? null : 'true');
        draw(i);
      });
      select(0);
      if (mine) cards[0].node.focus({ preventScroll: true });
    }
    function tick() {
      const sq = S.state && S.state.squeeze;
      const s = sq ? clock.secondsLeft(sq.until) : null;
      setText(el.clock, s === null ? '' : String(Math.ceil(s)));
      toggle(el.clock, 'urgent', s !== null && s <= 3);
    }

    // ---- the squeezer peels -------------------------------------------------------------------
    function select(i) {
      selected = i;
      cards.forEach((c, j) => setAttr(c.node, 'data-selected', mine && j === i ? 'true' : null));
    }
    function setLift(i, value) {
      const v = clamp(value);
      if (!mine || revealing || v === lifts[i]) return;
      lifts[i] = v;
      draw(i);
      sendSoon();
      if (lifts[0] === 100 && lifts[1] === 100) reveal();
    }
    // A drag lifts from where the card was: across the card, corner to corner, is 100%.
    function startDrag(e, i) {
      if (!mine || revealing || e.button > 0) return;
      e.preventDefault();
      select(i);
      const node = cards[i].node;
      node.focus({ preventScroll: true });
      node.setPointerCapture(e.pointerId);
      const r = node.getBoundingClientRect();
      drag = { id: e.pointerId, i, x: e.clientX, y: e.clientY, w: r.width, h: r.height, from: lifts[i] };
    }
    function moveDrag(e) {
      if (!drag || e.pointerId !== drag.id) return;
      const across = ((drag.x - e.clientX) / drag.w + (drag.y - e.clientY) / drag.h) / 2;
      setLift(drag.i, drag.from + across * 100);
    }
    function endDrag(e) {
      if (drag && e.pointerId === drag.id) drag = null;
    }

    const KEYS = {
      1: () => select(0), 2: () => select(1), ArrowLeft: () => select(0), ArrowRight: () => select(1),
      ArrowUp: () => setLift(selected, lifts[selected] + STEP), w: () => setLift(selected, lifts[selected] + STEP),
      ArrowDown: () => setLift(selected, lifts[selected] - STEP), s: () => setLift(selected, lifts[selected] - STEP),
      Enter: () => reveal(), ' ': () => reveal(),
    };
    document.addEventListener('keydown', (e) => {
      if (!S.squeezing || e.ctrlKey || e.metaKey || e.altKey) return;
      const tg = e.target;
      if (tg && (tg.tagName === 'INPUT' || tg.tagName === 'TEXTAREA' || tg.tagName === 'SELECT')) return;
      const fn = KEYS[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (!fn) return;
      e.preventDefault();
      fn();
    });

    // Peels go one at a time, PEEL_EVERY apart, each the latest lift of a card that changed
    // since it was last sent: a fast drag sends a few peels, not one per pointer move.
    function sendSoon() {
      if (sending || sendTimer) return;
      sendTimer = setTimeout(sendPeel, Math.max(0, lastSent + PEEL_EVERY - Date.now()));
    }
    async function sendPeel() {
      sendTimer = 0;
      const i = lifts[selected] !== sent[selected] ? selected : lifts[0] !== sent[0] ? 0 : lifts[1] !== sent[1] ? 1 : -1;
      if (i < 0 || !mine || revealing) return;
      const at = key;
      const lift = lifts[i];
      sending = true;
      lastSent = Date.now();
      try {
        await api('POST', path('peel'), { card: i, lift });
      } catch (e) {
        // 409: the hand was revealed meanwhile (by the dealer, or its time ran out).
        if (e.status !== 409 && key === at) toastError(e);
      } finally {
        sending = false;
      }
      if (key !== at) return;
      sent[i] = lift; // a refused lift is not sent again: the next change is
      if (lifts[0] !== sent[0] || lifts[1] !== sent[1]) sendSoon();
    }

    async function reveal() {
      if (!mine || revealing) return;
      revealing = true;
      ctx.invalidate();
      try {
        await api('POST', path('reveal')); // the stream's squeeze_ended turns the cards up
      } catch (e) {
        revealing = false;
        if (e.status !== 409) toastError(e); // 409: already revealed
        ctx.invalidate();
      }
    }

    // A "peel" message: how far the squeezer has lifted a card (never which card it is).
    function onPeel(m) {
      const p = m && m.peel;
      const sq = S.state && S.state.squeeze;
      if (!p || !sq || mine || p.side !== sq.side || p.squeezer !== sq.squeezer || (p.card !== 0 && p.card !== 1)) return;
      lifts[p.card] = clamp(p.lift);
      draw(p.card);
    }

    return { update, onPeel };
  };
})(window.Bac);
