/* table-video-player.js: plays a table's stream in a <video> and says what time the picture on
   screen shows. WHEP (WebRTC) first, where the table has an endpoint and the browser has
   WebRTC; else, or if it fails, HLS: with hls.js (web/static/hls/, Apache-2.0, fetched only by
   a page that plays a stream) where the browser has Media Source Extensions, natively where it
   plays HLS itself without them (Safari on an older iPhone). shownAt() is the wall-clock time
   of the picture on screen in ms, from the playlist's EXT-X-PROGRAM-DATE-TIME, or null where
   the stream or the player does not tell (WHEP; a playlist without the tag). Needs app.js. */
'use strict';
(function (Bac) {
  const HLS_JS = '/static/hls/hls.light.min.js';
  const HLS_TYPE = 'application/vnd.apple.mpegurl';
  const ICE_WAIT = 2000; // ms to gather ICE candidates before the WHEP offer goes without the rest

  let hlsLoading = null;
  function loadHlsJs() {
    if (window.Hls) return Promise.resolve(window.Hls);
    if (!hlsLoading) {
      hlsLoading = new Promise((resolve, reject) => {
        const s = document.createElement('script');
        s.src = HLS_JS;
        s.async = true;
        s.onload = () => (window.Hls ? resolve(window.Hls) : reject(new Error('hls.js did not load')));
        s.onerror = () => { hlsLoading = null; reject(new Error('hls.js did not load')); };
        document.head.appendChild(s);
      });
    }
    return hlsLoading;
  }
  const hasMSE = () => !!(window.MediaSource || window.ManagedMediaSource);
  const finite = (n) => (Number.isFinite(n) ? n : null);

  // hls.js: its playingDate is the program date time of the position played.
  async function playHlsJs(v, url, fail) {
    const Hls = await loadHlsJs();
    if (!Hls.isSupported()) return null;
    const hls = new Hls({ liveSyncDurationCount: 3, liveMaxLatencyDurationCount: 10, backBufferLength: 30 });
    let recovered = false;
    hls.on(Hls.Events.ERROR, (ev, data) => {
      if (!data || !data.fatal) return;
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recovered) { recovered = true; hls.recoverMediaError(); return; }
      fail('hls: ' + (data.details || data.type));
    });
    hls.attachMedia(v);
    hls.loadSource(url);
    return {
      kind: 'hls.js',
      shownAt: () => { const d = hls.playingDate; return d ? finite(d.getTime()) : null; },
      stop: () => hls.destroy(),
    };
  }

  // The browser's own HLS: Safari tells the program date time of currentTime 0 (getStartDate).
  function playNative(v, url) {
    v.src = url;
    return {
      kind: 'native',
      shownAt: () => {
        const start = v.getStartDate ? v.getStartDate().getTime() : NaN;
        return Number.isFinite(start) && !Number.isNaN(start) ? finite(start + v.currentTime * 1000) : null;
      },
      stop: () => { v.removeAttribute('src'); v.load(); },
    };
  }

  function iceGathered(pc) {
    if (pc.iceGatheringState === 'complete') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => { if (pc.iceGatheringState === 'complete') resolve(); };
      pc.addEventListener('icegatheringstatechange', done);
      setTimeout(resolve, ICE_WAIT);
    });
  }

  // WHEP (RFC 9725): one offer POSTed as application/sdp, the answer back, the session's
  // resource in Location (DELETEd when the page stops watching).
  async function playWhep(v, url, fail) {
    const pc = new RTCPeerConnection();
    let resource = '';
    const stop = () => {
      pc.close();
      v.srcObject = null;
      if (resource) fetch(resource, { method: 'DELETE' }).catch(() => { /* the server ends it in time */ });
    };
    try {
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
      const stream = new MediaStream();
      pc.ontrack = (e) => { stream.addTrack(e.track); if (v.srcObject !== stream) v.srcObject = stream; };
      pc.onconnectionstatechange = () => { if (pc.connectionState === 'failed') fail('whep: connection failed'); };
      await pc.setLocalDescription(await pc.createOffer());
      await iceGathered(pc);
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp });
      if (!res.ok) throw new Error('whep: ' + res.status);
      const loc = res.headers.get('Location');
      if (loc) resource = new URL(loc, url).href;
      await pc.setRemoteDescription({ type: 'answer', sdp: await res.text() });
    } catch (e) {
      stop();
      throw e;
    }
    return { kind: 'whep', shownAt: () => null, stop };
  }

  // Bac.playVideo(video, {url, whep}, fail(reason)) → a player {kind, shownAt(), stop()}, or a
  // rejection when nothing here can play the stream. fail is called once the stream breaks.
  Bac.playVideo = async function (v, cfg, fail) {
    let p = null;
    if (cfg.whep && window.RTCPeerConnection) {
      try { p = await playWhep(v, cfg.whep, fail); } catch (e) { p = null; } // HLS then
    }
    if (!p && hasMSE()) p = await playHlsJs(v, cfg.url, fail);
    if (!p && v.canPlayType(HLS_TYPE)) p = playNative(v, cfg.url);
    if (!p) throw new Error('this browser plays neither HLS nor WHEP');
    v.onended = () => fail('ended');
    v.onerror = () => fail('media error');
    const started = v.play();
    if (started && started.catch) started.catch((e) => { if (e && e.name === 'NotAllowedError') fail('autoplay'); });
    return p;
  };
})(window.Bac);
