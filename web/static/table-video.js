/* table-video.js: a table's live video (table.video of its snapshot), and the page kept in
   step with it (PAGES.md, "Live video"). The video shows the table some seconds late; the
   stream brings the table's events at once. So the page keeps two views: the server's state,
   which betting follows, and the stage, the table as it was at the time the picture shows:
   each message's state is kept as a frame stamped with its event's server time, and the stage
   is the last frame at or before the video's clock. Cards, totals, the result, the spots'
   wins, the roads, the Dragon session, and the toasts and sounds of a card or a result wait
   for it (hold). Betting does not: "Place your bets" and the countdown are the server's, the
   countdown ending a wager's round trip before the server closes, and "No more bets" shows as
   soon as the server closes, however far behind the video is. Without video, or while it is
   unavailable, the stage is the server's state, as before. Needs app.js, table-video-player.js. */
'use strict';
(function (Bac) {
  const { t, setText, setAttr, show, toggle, clock } = Bac;

  const MAX_DELAY = 30000; // ms: no delay beyond the longest an operator may set is believed
  const EARLY = 1000; // ms a picture may seem ahead of the server's clock (clock skew): no delay
  const STALL = 4000; // ms without a new picture: the video is unavailable
  const LOAD = 15000; // ms for a stream to start
  const RETRY = 10000; // ms before a failed stream is tried again
  const MIN_MARGIN = 300; // ms: a wager's round trip is taken as at least this
  const MAX_MARGIN = 3000;
  const KEEP = 600; // frames kept at most
  const VIEW_KEY = 'baccarat.video.view';
  const ZERO_TIME = 946684800000; // before 2000: Go's zero time, no deadline

  // ---- the rules: pure functions of times in ms (Bac.videoSync; the page tests call them) ----
  // The last frame at or before `at` (the later of two at the same time), or -1.
  function frameAt(frames, at) {
    let lo = 0;
    let hi = frames.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (frames[mid].at <= at) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }
  // The video's delay: from the stream's timestamp of the picture shown when it carries a
  // believable one, else the operator's.
  function delayOf(now, shownAt, configured) {
    if (typeof shownAt === 'number' && Number.isFinite(shownAt)) {
      const d = now - shownAt;
      if (d >= -EARLY && d <= MAX_DELAY) return { ms: Math.max(0, d), source: 'stream' };
    }
    return { ms: configured || 0, source: 'configured' };
  }
  // When betting ends for the viewer: the server's close less a wager's round trip, so a wager
  // sent before it reaches the table in time.
  const viewerDeadline = (until, margin) => until - margin;
  // The state the phase banner is written from: the server's while it takes bets or is
  // interrupted; "No more bets" once betting has ended for the viewer or at the server while
  // the video still shows it open (or an earlier round); else the stage's (dealing, result).
  function bannerState(live, stage, closedForViewer) {
    const closed = () => Object.assign({}, live, { phase: 'closed', bet_open: false });
    if (live.interrupted || live.squeeze || live.withdrawal_window) return live;
    if (live.bet_open) return closedForViewer ? closed() : live;
    if (stage !== live && (stage.bet_open || stage.round < live.round)) return closed();
    return stage;
  }
  // The result of the round a state shows settled, from the first candidate of that round.
  function resultOf(st, ...candidates) {
    if (!st || (st.phase !== 'settled' && st.phase !== 'void')) return null;
    return candidates.find((r) => r && r.round === st.round) || null;
  }
  // What of a state the stage shows, copied: the stream's events change the state in place.
  function stageCopy(st) {
    return structuredClone({
      round: st.round, phase: st.phase, bet_open: st.bet_open, betting_round: st.betting_round, until: st.until,
      interrupted: st.interrupted, paused: st.paused, closed: st.closed, withdrawal_window: st.withdrawal_window, pending: st.pending, squeeze: st.squeeze,
      cards: st.cards, shoe: st.shoe, shoe_results: st.shoe_results, session: st.session, seq: st.seq,
    });
  }
  const msOf = (iso) => { const ms = Date.parse(iso || ''); return Number.isNaN(ms) ? null : ms; };
  Bac.videoSync = { frameAt, delayOf, viewerDeadline, bannerState, resultOf, MAX_DELAY, STALL, MIN_MARGIN };

  // ctx: {S, invalidate()}
  Bac.createVideo = function (ctx) {
    const S = ctx.S;
    const $ = (id) => document.getElementById(id);
    const el = { box: $('video'), player: $('video-player'), status: $('video-status'), retry: $('video-retry'),
      sound: $('video-sound'), swap: $('video-switch'), live: $('video-live'), view: $('stage-view') };
    let cfg = null; // the table's video: {url, whep, delay_ms}
    let cfgKey = '';
    let player = null;
    let gen = 0; // which start a player's callbacks belong to
    let state = 'off'; // off | loading | playing | unavailable
    let view = 'video'; // the player's switch: video | cards
    try { if (localStorage.getItem(VIEW_KEY) === 'cards') view = 'cards'; } catch (e) { /* private mode */ }
    let frames = []; // {at, state, result, roads}: the table as it was at server time at
    let held = []; // {at, fn, kind}: what shows when the video does
    let floor = -Infinity; // the stage never goes back before what it has shown
    let shownIdx = -1;
    let lastAt = 0; // the server time of the latest event
    let started = 0;
    let lastMove = 0;
    let lastTime = -1;
    let retryTimer = 0;
    let margin = MIN_MARGIN;
    const rtts = [];
    let wasClosed = false;

    const syncing = () => state === 'playing';
    function delay() { return delayOf(clock.now(), player ? player.shownAt() : null, cfg ? cfg.delay_ms : 0); }
    function videoClock() { return clock.now() - delay().ms; }
    // Bet on Baccarat's later betting rounds are priced on the cards dealt: those show as the
    // server has them, so the player sees what they bet on.
    const pricedOnCards = () => !!(S.state && S.state.bet_open && S.state.betting_round > 1);

    // ---- the table's video: start, fail, try again ----------------------------------------
    function configure(table) {
      const v = (table && table.video) || null;
      const key = v ? JSON.stringify([v.url, v.whep || '', v.delay_ms || 0]) : '';
      if (key === cfgKey) return;
      cfgKey = key;
      cfg = v;
      stopPlayer();
      clearTimeout(retryTimer);
      show(el.box, !!v);
      toggle(document.body, 'has-video', !!v);
      if (!v) { setState('off'); return; }
      probe();
      start();
    }
    function start() {
      clearTimeout(retryTimer);
      stopPlayer();
      const my = gen;
      setState('loading');
      started = lastMove = performance.now();
      lastTime = -1;
      Bac.playVideo(el.player, cfg, (why) => { if (my === gen) fail(why); }).then((p) => {
        if (my !== gen) { p.stop(); return; }
        player = p;
        setAttr(el.box, 'data-player', p.kind);
      }, (e) => { if (my === gen) fail(e && e.message); });
    }
    function stopPlayer() {
      gen++;
      if (player) { player.stop(); player = null; }
    }
    function fail(why) {
      stopPlayer();
      setAttr(el.box, 'data-why', String(why || 'failed').slice(0, 80));
      setState('unavailable');
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => { if (cfg) start(); }, RETRY);
    }
    function setState(s) {
      if (s === state) return;
      const was = state;
      state = s;
      if (s === 'playing') floor = frames.length ? frames[frames.length - 1].at : -Infinity; // what is shown stays
      if (was === 'playing') flush();
      paint();
      ctx.invalidate();
    }
    // Everything held shows now: the video is gone, the stage is the server's state.
    function flush() {
      const due = held;
      held = [];
      for (const x of due) x.fn();
      frames = frames.slice(-1);
    }

    // ---- every 100 ms: is the picture moving, has the video's clock reached a frame -----------
    function watch() {
      if (state === 'loading' || state === 'playing') {
        const now = performance.now();
        const ct = el.player.currentTime;
        const moved = lastTime >= 0 && ct > lastTime && !el.player.paused;
        if (moved || document.hidden) lastMove = now; // a hidden page's video may be paused by the browser
        lastTime = ct;
        if (state === 'loading' && moved && el.player.readyState >= 2) setState('playing');
        else if (state === 'playing' && now - lastMove > STALL) fail('stalled');
        else if (state === 'loading' && now - started > LOAD) fail('timeout');
      }
      if (syncing()) advance();
      const closed = closedForViewer();
      if (closed !== wasClosed) { wasClosed = closed; ctx.invalidate(); }
      paintDelay();
    }
    function advance() {
      if (pricedOnCards() && frames.length) floor = frames[frames.length - 1].at;
      const at = Math.max(videoClock(), floor);
      const i = frameAt(frames, at);
      if (i !== shownIdx) { shownIdx = i; ctx.invalidate(); }
      if (i > 0) { frames = frames.slice(i); shownIdx = 0; } // what the video has passed is not needed
      if (held.some((x) => x.at <= at)) {
        const due = held.filter((x) => x.at <= at);
        held = held.filter((x) => x.at > at);
        for (const x of due) x.fn();
      }
    }
    setInterval(watch, 100);

    // ---- frames and holds -----------------------------------------------------------------
    // record(m): after a stream message has changed the state, keep it as a frame at the
    // server time of its event (a snapshot at its server_time; roads and own copies at the
    // latest event's). Frames stay in the order the state changed: one stamped earlier than the
    // last (clocks of two servers) is put at the last one's time.
    function record(m) {
      if (!S.state || !m || m.type === 'totals' || m.type === 'balance' || m.type === 'peel') return;
      let at = (m.event && msOf(m.event.at)) || (m.type === 'snapshot' && msOf(m.server_time)) || lastAt || clock.now();
      lastAt = Math.max(lastAt, at);
      const last = frames[frames.length - 1];
      if (last) at = Math.max(at, last.at);
      const f = { at, state: stageCopy(S.state), result: S.result, roads: S.roads };
      if (!syncing()) { frames = [f]; return; }
      frames.push(f);
      if (frames.length > KEEP) { frames = frames.slice(-KEEP); floor = Math.max(floor, frames[0].at); }
    }
    // hold(at, fn, kind): fn when the video shows server time at (an ISO time, or the latest
    // event's); at once while the stage is the server's. kind names what a newer value replaces.
    function hold(at, fn, kind) {
      const ms = (typeof at === 'string' ? msOf(at) : at) || lastAt || clock.now();
      if (!syncing() || ms <= Math.max(videoClock(), floor)) { fn(); return; }
      held.push({ at: ms, fn, kind: kind || '' });
    }
    function dropHeld(kind) { held = held.filter((x) => x.kind !== kind); }

    // The stage: {state, result, roads, live}, the table as the video shows it.
    function stage() {
      const live = S.state;
      if (!syncing() || !frames.length || pricedOnCards()) return { state: live, result: resultOf(live, S.result), roads: S.roads, live: true };
      const f = frames[Math.max(0, frameAt(frames, Math.max(videoClock(), floor)))];
      return { state: f.state, result: resultOf(f.state, S.result, f.result), roads: f.roads, live: false };
    }
    const banner = (live, st) => bannerState(live, st, closedForViewer());

    // ---- betting ends a wager's round trip before the server closes ----------------------------
    function untilOf(st) {
      const u = st && st.bet_open && !st.interrupted ? msOf(st.until) : null;
      return u !== null && u > ZERO_TIME ? u : null;
    }
    function closedForViewer() {
      const u = cfg ? untilOf(S.state) : null;
      return u !== null && clock.now() >= viewerDeadline(u, margin);
    }
    // Seconds left to bet for this viewer, or null with no deadline.
    function secondsLeft(st) {
      if (!cfg) return clock.secondsLeft(st.until);
      const u = untilOf(st);
      return u === null ? null : Math.max(0, (viewerDeadline(u, margin) - clock.now()) / 1000);
    }
    // A wager's round trip, as the slowest of the last three reads of /livez (the server's
    // cheapest answer), at least MIN_MARGIN.
    async function probe() {
      const t0 = performance.now();
      try {
        await fetch('/livez', { cache: 'no-store' });
      } catch (e) { return; }
      rtts.push(performance.now() - t0);
      if (rtts.length > 3) rtts.shift();
      margin = Math.min(MAX_MARGIN, Math.max(MIN_MARGIN, ...rtts.map(Math.ceil)));
    }
    setInterval(() => { if (cfg && !document.hidden) probe(); }, 30000);

    // ---- on the page -----------------------------------------------------------------------
    function paint() {
      setAttr(el.box, 'data-state', state);
      setAttr(el.box, 'data-view', view);
      setAttr(el.view, 'data-video', (state === 'loading' || state === 'playing') && view === 'video' ? 'on' : null);
      setText(el.status, state === 'unavailable' ? t('video.unavailable') : state === 'loading' ? t('video.loading') : '');
      show(el.retry, state === 'unavailable');
      show(el.swap, state === 'loading' || state === 'playing');
      show(el.sound, state === 'loading' || state === 'playing');
      setAttr(el.swap, 'aria-pressed', view === 'cards' ? 'true' : 'false');
      setText(el.swap.querySelector('span'), t(view === 'cards' ? 'video.show_video' : 'video.show_cards'));
      setAttr(el.sound, 'aria-pressed', el.player.muted ? 'false' : 'true');
    }
    let delayKey = '';
    function paintDelay() {
      const d = syncing() ? delay() : null;
      const key = d ? Math.round(d.ms / 100) + d.source : '';
      if (key === delayKey) return;
      delayKey = key;
      setAttr(el.box, 'data-delay', d ? Math.round(d.ms / 100) * 100 : null);
      setAttr(el.box, 'data-delay-source', d ? d.source : null);
      setAttr(el.live, 'title', d ? t('video.behind', { s: Bac.fmtDecimal((d.ms / 1000).toFixed(1)) }) : null);
    }
    el.swap.addEventListener('click', () => {
      view = view === 'video' ? 'cards' : 'video';
      try { localStorage.setItem(VIEW_KEY, view); } catch (e) { /* private mode */ }
      paint();
      ctx.invalidate();
    });
    el.sound.addEventListener('click', () => {
      el.player.muted = !el.player.muted;
      if (!el.player.muted && el.player.paused) el.player.play().catch(() => { /* the next tap */ });
      paint();
    });
    el.retry.addEventListener('click', () => { if (cfg) start(); });
    paint();

    return {
      configure, record, hold, dropHeld, stage, banner, closedForViewer, secondsLeft,
      get state() { return state; },
      clock: () => (syncing() ? videoClock() : null),
      delay: () => (syncing() ? delay() : null),
      margin: () => margin,
      fail: (why) => fail(why || 'test'),
    };
  };
})(window.Bac);
