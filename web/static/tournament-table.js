/* tournament-table.js: what a tournament table's page adds (table.html includes it after
   table.js). At a table that plays a tournament's session (GET /api/tables/{id} says
   "tournament"), a panel above the coup shows the player's chips, rank and the hands left in
   one line (a phone's first screen keeps the cards and the bets, the session's Dragon bets
   too); its button opens the rest: the tournament, the round, table and session and the
   table's standings (open on a wide screen). It follows the tournament with its long poll
   (GET /api/tournaments/{id}?after=SEQ). The wallet in the top bar shows the player's chips at
   this table, as the table's own messages do.
   When the session ends, the player's moment shows over the table: advanced (to round N, to
   the final), out with their place, the final place and prize, or the session's end while the
   round goes on, with a link to the tournament's page; the chips and rank stay the session's
   (not the next round's). A session table retires after its session: a 404 of one (the stream
   gone, or the page opened afterwards: its id says the tournament, round, table and session)
   shows that the session is over, with the link, instead of a blank table. At any other
   table it does nothing. Every visible string goes through t() (keys tournament.*).
   Needs app.js and table.js. */
'use strict';
window.Bac.ready.then(() => (function (Bac) {
  const { api, h, $, setText, setAttr, show, t } = Bac;
  // The wallet's unit at a chip table; the page's player record carries it, and a money
  // unit there means table.js read the account again and showed money.
  const CHIPS = t('tournament.wallet.unit');
  const tableId = Bac.pathId('table');
  if (!tableId) return;
  // A session table's id: <tournament>-r<round>t<table>s<session> (web/API.md).
  const SESSION_ID = /^(.+)-r(\d+)t(\d+)s(\d+)$/;
  let session = null;
  let panel = null;
  let dialog = null;
  let chipsNow = null;
  let seated = false;
  let lastRank = null;
  let missing = false; // the table is gone (404): its session is over
  let closedFor = ''; // the moment the player closed the dialog on; a new one shows again
  let view = null;

  function ensurePanel() {
    if (panel) return panel;
    const toggle = h('button', { type: 'button', class: 'btn btn-sm t-toggle', id: 't-panel-toggle', 'aria-expanded': 'false',
      'aria-controls': 't-panel-more', 'aria-label': t('tournament.panel.more'), title: t('tournament.panel.more') }, '▾');
    panel = h('section', { class: 'panel t-panel', id: 't-panel', 'aria-label': t('tournament.panel.aria') },
      h('div', { class: 't-me t-line' },
        h('span', null, h('small', null, t('tournament.panel.chips')), ' ', h('b', { id: 't-chips' }, '–')),
        h('span', null, h('small', null, t('tournament.me.rank')), ' ', h('b', { id: 't-rank' }, '–'), h('span', { id: 't-of' })),
        h('span', null, h('small', null, t('tournament.panel.hands_left')), ' ', h('b', { id: 't-hands-left' }, '–')),
        h('span', { class: 'spacer' }), toggle),
      h('div', { class: 't-more', id: 't-panel-more' },
        h('h2', null, h('a', { id: 't-panel-name', href: '/tournament/' + encodeURIComponent(session.tournament) }, t('tournament.panel.aria')),
          h('span', { class: 'badge badge-gold', id: 't-panel-where' })),
        h('span', { class: 'muted', id: 't-status' }),
        h('table', { class: 't-list', id: 't-standings' }, h('tbody'))));
    toggle.addEventListener('click', () => setOpen(!panel.classList.contains('open')));
    const main = $('.col-main') || document.body;
    main.insertBefore(panel, main.firstChild);
    setOpen(window.matchMedia('(min-width: 900px)').matches);
    return panel;
  }
  function setOpen(open) {
    panel.classList.toggle('open', open);
    setAttr($('#t-panel-toggle'), 'aria-expanded', open ? 'true' : 'false');
    setText($('#t-panel-toggle'), open ? '▴' : '▾');
  }

  // The wallet shows chips here: the player's chip wallet, which the table's answers and
  // balance messages keep up to date afterwards.
  function showChips(available) {
    const T = window.BacTable;
    chipsNow = available;
    if (T && T.S) {
      T.S.balance = available;
      if (T.S.me) T.S.me.currency = CHIPS;
    }
    const label = $('#wallet .label');
    if (label) setText(label, t('tournament.wallet.label'));
    Bac.renderBalance($('#balance'), available, CHIPS, T && T.S ? T.S.me : null);
  }

  // A live session's hands left, or the time a timed one ends.
  function handsLeft(tv) {
    if (tv.hands_left) return Bac.fmtInt(tv.hands_left);
    if (!tv.ends_at) return '–';
    const d = new Date(tv.ends_at);
    return Number.isNaN(d.getTime()) ? '–' : t('tournament.panel.until', { time: d.toLocaleTimeString(Bac.lang) });
  }

  // This table's session record in the tournament's state.
  function record(v) {
    return (v.state.sessions || []).find((s) => s.round === session.round && s.table === session.table && s.session === session.session) || null;
  }
  // Whether this table's session is over: ended, its round over, the tournament over, or the
  // table gone.
  function sessionOver(v) {
    const rec = record(v);
    return missing || !!(rec && rec.ended) || v.state.round > session.round || v.phase === 'finished' || v.phase === 'cancelled';
  }

  // A player by name: the view names players by handle, with names (web/API.md, "Display
  // names"); a handle without a name (a staff view's id) as it is.
  function nameOf(v, p) {
    const n = v.names && v.names[p];
    if (!n) return p;
    return n.name || (n.number ? t('name.player_n', { n: n.number }) : p);
  }

  function render(v, force) {
    view = v;
    ensurePanel();
    setText($('#t-panel-name'), Bac.tournamentName(v));
    setText($('#t-panel-where'), t('tournament.panel.where', { round: session.round, table: session.table, session: session.session }));
    const tv = (v.tables || []).find((x) => x.table_id === tableId);
    const over = sessionOver(v);
    const live = !over && tv && tv.live && v.state.round === session.round;
    setText($('#t-hands-left'), live ? handsLeft(tv) : over ? '0' : '–');
    setText($('#t-status'), over ? t('tournament.panel.over') : '');
    const me = v.me && v.me.registered ? v.me : null;
    const inSession = !!(me && session.players.includes(me.player));
    // Once the session is over the panel keeps its chips (the next round's start anew).
    const rec = record(v);
    const seat = rec && me && (rec.seats || []).find((s) => s.player === me.player);
    let chips = me ? me.chips : null;
    if (over && seat && rec.ended) chips = seat.end;
    setText($('#t-chips'), chips === null ? '–' : Bac.fmtInt(chips));
    if (me && me.rank && !over) lastRank = me.rank;
    const rank = me && (me.out || me.eliminated) && me.place ? me.place : over ? lastRank : me && me.rank;
    setText($('#t-rank'), rank || '–');
    const of = me && (me.out || me.eliminated) && me.of ? me.of : v.state.leaderboard ? v.state.leaderboard.length : 0;
    setText($('#t-of'), of ? t('tournament.me.of', { n: of }) : '');
    seated = !!(inSession && live);
    if (seated && (force || chipsNow !== me.available)) showChips(me.available);
    const body = $('#t-standings tbody');
    body.textContent = '';
    if (v.state.round === session.round) {
      for (const s of (v.state.leaderboard || []).filter((x) => session.players.includes(x.player))) {
        body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.chips, class: me && s.player === me.player ? 'me' : null },
          h('td', { class: 'num' }, s.rank),
          h('td', null, h('span', { class: 'player', 'data-player': s.player }, nameOf(v, s.player)), v.bots.includes(s.player) ? h('span', { class: 'badge badge-bot', title: t('tournament.bot_title') }, t('tournament.bot')) : null),
          h('td', { class: 'num' }, Bac.fmtInt(s.chips)),
          h('td', { class: 'muted' }, s.eliminated ? t('tournament.status.eliminated') : s.advances ? t('tournament.status.advances') : '')));
      }
    } else if (rec) {
      // The round is over: the session's chips at its end.
      for (const s of rec.seats || []) {
        body.appendChild(h('tr', { 'data-player': s.player, 'data-chips': s.end, class: me && s.player === me.player ? 'me' : null },
          h('td', { class: 'num' }, ''),
          h('td', null, h('span', { class: 'player', 'data-player': s.player }, nameOf(v, s.player)), v.bots.includes(s.player) ? h('span', { class: 'badge badge-bot', title: t('tournament.bot_title') }, t('tournament.bot')) : null),
          h('td', { class: 'num' }, Bac.fmtInt(s.end)), h('td')));
      }
    }
    if (over) showMoment(v, inSession ? me : null, seat);
  }

  // The player's moment at the session's end: {id, title, text, out}.
  function momentOf(v, me, seat) {
    const n = (v.state.entrants || []).length;
    const rounds = v.config.rounds.length;
    if (!me) return { id: 'over', title: t('tournament.moment.session_over'), text: t('tournament.moment.see_tournament') };
    const r = me.result;
    if (r) {
      const out = !!(r.eliminated || r.round < v.state.round || (v.out || []).some((o) => o.player === me.player));
      return { id: 'result', out,
        title: out ? t('tournament.moment.out', { place: r.rank, n }) : t('tournament.moment.finished', { place: r.rank, n }),
        text: r.prize ? t('tournament.moment.prize', { prize: (window.BacCurrency ? window.BacCurrency.format(r.prize, v.minor_units) : Bac.fmtMoney(r.prize)) + (v.config.currency && v.config.currency !== 'XXX' ? ' ' + v.config.currency : '') })
          : t('tournament.moment.see_tournament') };
    }
    if (me.out || me.eliminated) {
      return { id: 'out', out: true, title: me.place ? t('tournament.moment.out', { place: me.place, n: me.of || n }) : t('tournament.me.eliminated'),
        text: t('tournament.moment.see_tournament') };
    }
    if ((me.reached || 0) > session.round && v.state.round > session.round) {
      return { id: 'advanced-' + me.reached, title: me.reached === rounds ? t('tournament.moment.advanced_final') : t('tournament.moment.advanced', { n: me.reached }),
        text: t('tournament.moment.next_table') };
    }
    const chips = seat && seat.end !== undefined ? seat.end : me.chips;
    return { id: 'session', title: t('tournament.moment.session_over'),
      text: t('tournament.moment.session_chips', { chips: Bac.fmtInt(chips) }) + ' ' + t('tournament.moment.round_goes_on') };
  }

  function ensureDialog() {
    if (dialog) return dialog;
    dialog = h('div', { class: 't-moment-dialog', id: 't-moment', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 't-moment-title', hidden: true },
      h('div', { class: 't-moment-box', id: 't-moment-box' },
        h('h2', { id: 't-moment-title' }),
        h('p', { id: 't-moment-text' }),
        h('div', { class: 'actions' },
          h('a', { class: 'btn btn-gold', id: 't-moment-next', hidden: true }, t('tournament.me.play')),
          h('a', { class: 'btn btn-gold', id: 't-moment-link', href: '/tournament/' + encodeURIComponent(session.tournament) }, t('tournament.moment.to_tournament')),
          h('button', { type: 'button', class: 'btn', id: 't-moment-close' }, t('tournament.moment.close')))));
    document.body.appendChild(dialog);
    $('#t-moment-close').addEventListener('click', () => {
      closedFor = dialog.dataset.moment || '';
      show(dialog, false);
    });
    return dialog;
  }
  function showMoment(v, me, seat) {
    const m = momentOf(v, me, seat);
    ensureDialog();
    setAttr(dialog, 'data-moment', m.id);
    $('#t-moment-box').classList.toggle('out', !!m.out);
    setText($('#t-moment-title'), m.title);
    setText($('#t-moment-text'), m.text);
    // Advanced with a table already seated: straight on to it.
    const next = /^advanced/.test(m.id) && me && me.table_id && me.table_id !== tableId ? '/table/' + encodeURIComponent(me.table_id) : '';
    setAttr($('#t-moment-next'), 'href', next || null);
    show($('#t-moment-next'), !!next);
    if (closedFor === m.id) return;
    const was = !dialog.hidden;
    show(dialog, true);
    if (!was) $('#t-moment-link').focus({ preventScroll: true });
  }

  async function follow() {
    let after = null;
    for (;;) {
      try {
        const v = await api('GET', '/api/tournaments/' + encodeURIComponent(session.tournament) + (after === null ? '' : '?after=' + after));
        render(v);
        after = v.seq;
      } catch (e) {
        if (e.status === 404) return;
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  // A session table that is gone (404): its id names the session; the tournament's state
  // has its players.
  async function fromId() {
    const m = SESSION_ID.exec(tableId);
    if (!m) return null;
    let v;
    try { v = await api('GET', '/api/tournaments/' + encodeURIComponent(m[1])); } catch (e) { return null; }
    const s = { tournament: m[1], round: Number(m[2]), table: Number(m[3]), session: Number(m[4]), players: [] };
    const rec = (v.state.sessions || []).find((x) => x.round === s.round && x.table === s.table && x.session === s.session);
    if (rec) s.players = (rec.seats || []).map((x) => x.player);
    s.ended = !!(rec && rec.ended) || v.state.round > s.round || v.phase === 'finished' || v.phase === 'cancelled';
    return s;
  }

  // The table is gone and its session over: the stream stops knocking, the connection's
  // overlay gives way to the session's moment.
  function gone(s) {
    missing = true;
    if (s) begin(s);
    const T = window.BacTable;
    if (T && T.stream) T.stream.stop();
    const ov = $('#conn-overlay');
    if (ov) show(ov, false);
    document.body.classList.remove('offline');
    if (session && view) render(view);
  }

  function begin(s) {
    session = s;
    document.head.appendChild(h('link', { rel: 'stylesheet', href: '/static/tournament.css' }));
    document.body.classList.add('tournament-table');
    ensurePanel();
    // A phone's first screen: the cards, the session's Dragon bets (its first hand only) and
    // the bets; the road strip goes below them.
    if (window.matchMedia('(max-width: 899px)').matches) {
      const betting = $('.col-main > section.betting');
      const dragon = $('#dragon-panel');
      const strip = $('#road-strip-panel');
      if (betting && dragon) betting.before(dragon);
      if (betting && strip) betting.after(strip);
    }
    follow();
  }

  async function start() {
    let tv = null;
    for (let i = 0; i < 5 && !tv; i++) {
      try {
        tv = (await api('GET', '/api/tables/' + encodeURIComponent(tableId))).table;
      } catch (e) {
        // A retired session table answers 404, or 503 (it exists, and no server runs it):
        // when its tournament says the session is over, the page says so.
        if (e.status === 404 || e.status === 503) {
          const s = await fromId();
          if (s && (s.ended || e.status === 404)) {
            gone(s);
            return;
          }
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    if (!tv || !tv.tournament) return;
    begin(tv.tournament);
    // table.js shows the money wallet when it (re)reads the account (at load, and when the
    // page comes back into view): the chips are shown again, fresh.
    setInterval(async () => {
      const T = window.BacTable;
      if (!seated || !T || !T.S || !T.S.me || T.S.me.currency === CHIPS) return;
      try { render(await api('GET', '/api/tournaments/' + encodeURIComponent(session.tournament)), true); } catch (e) { /* next time */ }
    }, 1000);
  }
  // The table retired under the page (table.js: the stream's poll got a 404).
  window.addEventListener('bac:table-missing', () => { if (session) gone(null); });
  // A session table that retires under the page answers 503 while the stream knocks: once the
  // tournament says the session is over, the table is taken as gone.
  setInterval(() => {
    const T = window.BacTable;
    if (!session || !view || missing || !sessionOver(view) || !T || !T.stream || T.stream.status !== 'reconnecting') return;
    gone(null);
  }, 2000);
  start();
})(window.Bac));
