/* table-shoe.js: Method C on the player's table (Tiger 3.11). At a table whose state has
   method_c, a panel on the stage says who holds the shoe: "you", their display name, or "a
   player" where the page knows no name (events.js personName; the stream names players by
   their public handle, and a page knows its own from /api/me "public"). While a card waits
   for the holder (method_c.due) the holder gets a big Draw button with the seconds left
   (method_c.until) before the table draws the card itself, and everyone else sees whose draw
   it is; the holder may give the shoe up at any time. Draw is POST /draw, Give up POST
   /give-up-shoe; the cards come on the stream face up, as any card.
   The page's state follows the stream (state.js): this file adds the Method C events to the
   fold (shoe_passed names the new holder; every event restarts the holder's draw window, as
   the server counts it from the table's last event), and toasts each change of holder (events.js
   words shoe_passed for every page's event lines). It reads the table page's state (window.BacTable, table.js) a few times a second:
   it changes nothing else on the page. Needs app.js, events.js, state.js. */
'use strict';
(function (Bac) {
  const DEALING = { closed: true, dealing: true };
  const meAs = (me) => (me ? (me.public && me.public.handle) || me.id : '');

  // The Method C part of the fold, after state.js's own (which set st.seq to the event's).
  function foldShoe(st, e) {
    const mc = st && st.method_c;
    if (!mc) return;
    if (e.type === 'shoe_passed') mc.holder = e.player || '';
    mc.due = !!mc.holder && !!DEALING[st.phase] && !st.interrupted && !st.withdrawal_window && !st.squeeze;
    const at = Date.parse(e.at || '');
    mc.until = mc.due && !Number.isNaN(at) ? new Date(at + (mc.draw_seconds || 0) * 1000).toISOString() : undefined;
  }
  const fold = Bac.foldEvent;
  Bac.foldEvent = function (st, e, game) {
    const before = st && st.seq;
    const resync = fold(st, e, game);
    if (st && e && st.seq !== before) foldShoe(st, e);
    return resync;
  };

  // A player as this page may name them: "you", their name, or "a player".
  function nameOf(who, me) {
    if (!who) return '';
    if (me && meAs(me) === who) return Bac.t('shoe.you');
    const n = Bac.personName(who);
    return n && n !== who ? n : Bac.t('shoe.a_player');
  }

  Bac.ready.then(() => {
    const { api, h, setText, setAttr, show, clock, toast, toastError, t } = Bac;
    const box = document.getElementById('shoe-panel');
    if (!box) return;
    const tableId = Bac.pathId('table');
    const path = (what) => '/api/tables/' + encodeURIComponent(tableId) + '/' + what;
    const el = {
      title: h('span', { class: 'shoe-title', id: 'shoe-title' }),
      holder: h('span', { class: 'shoe-holder', id: 'shoe-holder', role: 'status', 'aria-live': 'polite' }),
      clock: h('span', { class: 'shoe-clock', id: 'shoe-clock' }),
      draw: h('button', { type: 'button', class: 'btn btn-gold shoe-draw', id: 'shoe-draw', onclick: () => draw() }),
      giveUp: h('button', { type: 'button', class: 'btn btn-sm shoe-give-up', id: 'shoe-give-up', onclick: () => giveUp() }),
      note: h('span', { class: 'shoe-note muted', id: 'shoe-note' }),
    };
    Bac.append(box, [
      h('div', { class: 'shoe-head' }, el.title, el.holder, el.clock),
      h('div', { class: 'shoe-foot' }, el.draw, el.note, el.giveUp),
    ]);

    let busy = false; // a draw or a give-up on its way
    let shown = ''; // what the panel shows now, to repaint only what changed
    let drawnAt = ''; // the window (until) of the card last drawn, not drawn twice
    let holderShown = null; // the holder last painted: a change is also a toast
    let gaveUp = false; // this page gave the shoe up: its own toast said so

    function view() {
      const T = window.BacTable;
      const S = T && T.S;
      const mc = S && S.state && S.state.method_c;
      return mc ? { S, mc, mine: !!(mc.holder && S.me && meAs(S.me) === mc.holder) } : null;
    }
    function paint() {
      const v = view();
      show(box, !!v);
      if (!v) return;
      const { S, mc, mine } = v;
      const due = !!mc.due;
      if (holderShown !== null && holderShown !== (mc.holder || '') && !S.offline) {
        if (!gaveUp) toast(mc.holder ? t('shoe.ev_passed', { who: nameOf(mc.holder, S.me) }) : t('shoe.ev_nobody'));
        gaveUp = false;
      }
      holderShown = mc.holder || '';
      const key = [mc.holder, mine, due, mc.until, busy, S.offline].join('|');
      tick(v);
      if (key === shown) return;
      shown = key;
      setAttr(box, 'data-holder', mine ? 'me' : mc.holder ? 'other' : 'none');
      setAttr(box, 'data-due', due ? 'true' : null);
      setText(el.title, t('shoe.title'));
      setText(el.holder, !mc.holder ? t('shoe.nobody') : mine ? t('shoe.you_hold') : t('shoe.holds', { who: nameOf(mc.holder, S.me) }));
      setText(el.draw, t('shoe.draw'));
      setText(el.giveUp, t('shoe.give_up'));
      show(el.draw, mine && due);
      el.draw.disabled = busy || S.offline || drawnAt === mc.until;
      show(el.giveUp, mine);
      el.giveUp.disabled = busy || S.offline;
      setText(el.note, mine && due ? t('shoe.your_draw') : due ? t('shoe.waiting', { who: nameOf(mc.holder, S.me) }) : mine ? t('shoe.keep_note') : '');
    }
    function tick(v) {
      const s = v.mc.due ? clock.secondsLeft(v.mc.until) : null;
      setText(el.clock, s === null ? '' : t('shoe.seconds', { n: Math.ceil(s) }));
      setAttr(el.clock, 'aria-label', s === null ? null : t('shoe.clock'));
      el.clock.classList.toggle('urgent', s !== null && s <= 3);
    }

    async function draw() {
      const v = view();
      if (!v || !v.mine || busy) return;
      busy = true;
      drawnAt = v.mc.until || '';
      paint();
      try {
        await api('POST', path('draw')); // the card comes on the stream
      } catch (e) {
        drawnAt = '';
        // 409: the table drew the card itself meanwhile, or the round ended; 403: the shoe passed.
        if (e.status !== 409 && e.status !== 403) toastError(e);
      } finally {
        busy = false;
        paint();
      }
    }
    async function giveUp() {
      const v = view();
      if (!v || !v.mine || busy) return;
      busy = true;
      paint();
      try {
        await api('POST', path('give-up-shoe'));
        gaveUp = true;
        toast(t('shoe.given_up'));
      } catch (e) {
        if (e.status !== 403) toastError(e);
      } finally {
        busy = false;
        paint();
      }
    }
    setInterval(paint, 200);
    paint();
  });
})(window.Bac);
