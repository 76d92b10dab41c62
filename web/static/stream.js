/* stream.js: the table's WebSocket for the pages that follow a table live (the player's table,
   the dealer console, the back office's live view): Bac.TableStream. Loaded after app.js. */
'use strict';
(function (global) {
  const Bac = global.Bac;

  // ---- the table WebSocket --------------------------------------------------------------
  // new TableStream(id, {onMessage(msg), onStatus(status, info), poll: async () => snapshot,
  //   onMissing(err): the table does not exist (the poll got a 404)})
  // Reconnects with exponential backoff and since=<last seq seen>; while the socket is down
  // (after two failed tries) it polls the HTTP snapshot so the page keeps moving.
  class TableStream {
    constructor(tableId, handlers) {
      this.id = tableId;
      this.h = handlers || {};
      this.lastSeq = 0; // the highest seq seen: since= on reconnect
      this.evSeq = 0; // the last public event delivered
      this.mineFloor = 0; // own events at or below it are in the last snapshot
      this.mineKeys = new Set(); // own events delivered (an own settlement shares its seq with the public one)
      this.fails = 0;
      this.ws = null;
      this.timer = 0;
      this.pollTimer = 0;
      this.stopped = false;
      this.status = '';
      this.downUntil = 0; // cut(): the network is taken as down until then
      this.onVisible = () => {
        if (document.visibilityState === 'visible' && !this.stopped && !this.ws) this.connect();
      };
      document.addEventListener('visibilitychange', this.onVisible);
      global.addEventListener('online', this.onVisible);
    }
    url() {
      const q = new URLSearchParams();
      const tok = Bac.token();
      if (tok) q.set('token', tok);
      if (this.lastSeq > 0) q.set('since', String(this.lastSeq));
      const proto = global.location.protocol === 'https:' ? 'wss:' : 'ws:';
      const qs = q.toString();
      return proto + '//' + global.location.host + '/api/tables/' + encodeURIComponent(this.id) + '/stream' + (qs ? '?' + qs : '');
    }
    setStatus(s, info) {
      this.status = s;
      if (this.h.onStatus) this.h.onStatus(s, info);
    }
    connect() {
      clearTimeout(this.timer);
      if (this.stopped) return;
      if (this.ws) { this.ws.onclose = null; try { this.ws.close(); } catch (e) { /* ignore */ } }
      if (!Bac.token()) { // streams need a sign-in; a watcher without one follows the snapshots
        this.setStatus('watching');
        this.startPolling();
        return;
      }
      if (Date.now() < this.downUntil) { // cut(): this try fails as a dead network's would
        this.retry();
        return;
      }
      let ws;
      try {
        ws = new WebSocket(this.url());
      } catch (e) {
        this.retry();
        return;
      }
      this.ws = ws;
      this.setStatus(this.lastSeq ? 'reconnecting' : 'connecting');
      const resumed = this.lastSeq > 0;
      ws.onopen = () => { if (this.ws === ws) this.setStatus('live', { resumed }); };
      ws.onmessage = (ev) => {
        if (this.ws !== ws) return;
        let m;
        try { m = JSON.parse(ev.data); } catch (e) { return; }
        this.fails = 0;
        this.stopPolling();
        // A frame is one message, or an array of messages that were ready together.
        for (const one of Array.isArray(m) ? m : [m]) {
          if (one && this.accept(one) && this.h.onMessage) this.h.onMessage(one);
        }
      };
      ws.onclose = () => {
        if (this.ws !== ws) return;
        this.ws = null;
        this.retry();
      };
      ws.onerror = () => { /* onclose follows */ };
    }
    // Keeps the last seq; drops events already seen (a replay after since=).
    accept(m) {
      const seqOf = (x) => (typeof x.seq === 'number' ? x.seq : x.event && typeof x.event.seq === 'number' ? x.event.seq
        : x.state && typeof x.state.seq === 'number' ? x.state.seq : 0);
      const seq = seqOf(m);
      switch (m.type) {
        case 'snapshot':
          this.rebase(seq);
          return true;
        case 'event':
          if (seq <= this.evSeq) return false;
          this.evSeq = seq;
          break;
        case 'mine': {
          if (seq <= this.mineFloor) return false;
          const k = (m.event && m.event.type) + ':' + seq;
          if (this.mineKeys.has(k)) return false;
          this.mineKeys.add(k);
          if (this.mineKeys.size > 256) this.mineKeys.delete(this.mineKeys.values().next().value);
          break;
        }
        case 'state':
          if (seq < this.lastSeq) return false; // older than what we have
          break;
        default:
          break;
      }
      if (seq > this.lastSeq) this.lastSeq = seq;
      return true;
    }
    // rebase starts counting from a snapshot's seq.
    rebase(seq) {
      this.lastSeq = this.evSeq = this.mineFloor = seq;
      this.mineKeys.clear();
    }
    // cut drops the socket and takes the network as down for ms (every try fails until then):
    // what a phone in a tunnel does to the page, on demand, for tests and demonstrations.
    cut(ms) {
      this.downUntil = Date.now() + (ms || 0);
      const ws = this.ws;
      if (ws) { ws.onclose = null; this.ws = null; try { ws.close(); } catch (e) { /* ignore */ } }
      this.retry();
    }
    // now retries at once (the overlay's "Retry now"), keeping the backoff count.
    now() {
      if (this.stopped || this.ws) return;
      clearTimeout(this.timer);
      this.connect();
    }
    retry() {
      if (this.stopped) return;
      this.fails++;
      const base = Math.min(15000, 500 * Math.pow(2, this.fails - 1));
      const delay = Math.round(base * (0.75 + Math.random() * 0.5));
      this.setStatus('reconnecting', { delay, fails: this.fails, at: Date.now() + delay });
      this.timer = setTimeout(() => this.connect(), delay);
      if (this.fails >= 2) this.startPolling();
    }
    startPolling() {
      if (this.pollTimer || !this.h.poll) return;
      const tick = async () => {
        if (this.stopped || this.ws && this.ws.readyState === WebSocket.OPEN) { this.pollTimer = 0; return; }
        if (Date.now() < this.downUntil) { this.pollTimer = setTimeout(tick, 2000); return; }
        try {
          const snap = await this.h.poll();
          if (snap && snap.state && snap.state.seq >= this.lastSeq) {
            this.rebase(snap.state.seq);
            if (this.h.onMessage) this.h.onMessage(Object.assign({ type: 'snapshot', polled: true }, snap));
          }
        } catch (e) {
          if (e.status === 404 && this.h.onMissing) { // no such table: stop knocking
            this.stop();
            this.h.onMissing(e);
            return;
          }
        }
        if (this.pollTimer) this.pollTimer = setTimeout(tick, 2000);
      };
      this.pollTimer = setTimeout(tick, 0);
    }
    stopPolling() {
      clearTimeout(this.pollTimer);
      this.pollTimer = 0;
    }
    stop() {
      this.stopped = true;
      clearTimeout(this.timer);
      this.stopPolling();
      document.removeEventListener('visibilitychange', this.onVisible);
      if (this.ws) { this.ws.onclose = null; this.ws.close(); this.ws = null; }
    }
  }

  Bac.TableStream = TableStream;
})(window);
