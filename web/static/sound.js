/* sound.js: table sounds synthesized in the page with WebAudio (no downloaded assets): a chip
   landing, a card dealt, a win. Off by default; the choice is remembered in localStorage.
   Browsers start audio only after a user gesture: the context is made on the first one. */
'use strict';
(function (global) {
  const KEY = 'baccarat.sound';
  let on = false;
  try { on = localStorage.getItem(KEY) === 'on'; } catch (e) { on = false; }
  let ctx = null;

  function audio() {
    if (!on) return null;
    const AC = global.AudioContext || global.webkitAudioContext;
    if (!AC) return null;
    if (!ctx) {
      try { ctx = new AC(); } catch (e) { return null; }
    }
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    return ctx;
  }
  // Wake the context on the first gesture when the choice was remembered as on.
  const wake = () => { audio(); global.removeEventListener('pointerdown', wake); global.removeEventListener('keydown', wake); };
  global.addEventListener('pointerdown', wake);
  global.addEventListener('keydown', wake);

  function noise(ac, seconds) {
    const n = Math.max(1, Math.floor(ac.sampleRate * seconds));
    const buf = ac.createBuffer(1, n, ac.sampleRate);
    const d = buf.getChannelData(0);
    for (let i = 0; i < n; i++) d[i] = Math.random() * 2 - 1;
    const src = ac.createBufferSource();
    src.buffer = buf;
    return src;
  }
  function envelope(ac, at, peak, attack, decay) {
    const g = ac.createGain();
    g.gain.setValueAtTime(0.0001, at);
    g.gain.exponentialRampToValueAtTime(peak, at + attack);
    g.gain.exponentialRampToValueAtTime(0.0001, at + attack + decay);
    g.connect(ac.destination);
    return g;
  }
  // Two clay chips touching: a bright band of noise and a short ping, twice.
  function chip() {
    const ac = audio();
    if (!ac) return;
    for (const dt of [0, 0.045]) {
      const at = ac.currentTime + dt;
      const src = noise(ac, 0.05);
      const bp = ac.createBiquadFilter();
      bp.type = 'bandpass';
      bp.frequency.value = 3200;
      bp.Q.value = 4;
      src.connect(bp).connect(envelope(ac, at, 0.35, 0.002, 0.04));
      src.start(at);
      const o = ac.createOscillator();
      o.frequency.value = 2300 - dt * 4000;
      o.connect(envelope(ac, at, 0.08, 0.002, 0.05));
      o.start(at);
      o.stop(at + 0.08);
    }
  }
  // A card sliding out of the shoe: noise swept up through a high-pass filter.
  function card() {
    const ac = audio();
    if (!ac) return;
    const at = ac.currentTime;
    const src = noise(ac, 0.14);
    const hp = ac.createBiquadFilter();
    hp.type = 'highpass';
    hp.frequency.setValueAtTime(700, at);
    hp.frequency.exponentialRampToValueAtTime(4500, at + 0.12);
    src.connect(hp).connect(envelope(ac, at, 0.22, 0.02, 0.11));
    src.start(at);
  }
  // A win: a rising major arpeggio.
  function win() {
    const ac = audio();
    if (!ac) return;
    [523.25, 659.25, 783.99, 1046.5].forEach((f, i) => {
      const at = ac.currentTime + i * 0.09;
      const o = ac.createOscillator();
      o.type = 'triangle';
      o.frequency.value = f;
      o.connect(envelope(ac, at, 0.18, 0.01, 0.3));
      o.start(at);
      o.stop(at + 0.35);
    });
  }
  function set(v) {
    on = !!v;
    try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch (e) { /* this page only */ }
    if (on) chip(); // the gesture that turned it on starts the context, and says it works
  }
  // A speaker, with sound waves or crossed out (drawn here: no icon font, no emoji font needed).
  const SPEAKER = '<path d="M3 6h3l4-3v10l-4-3H3z" fill="currentColor"/>';
  const ICON_ON = '<svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">' + SPEAKER +
    '<path d="M11.5 5.5a3.5 3.5 0 0 1 0 5M13 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/></svg>';
  const ICON_OFF = '<svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">' + SPEAKER +
    '<path d="M11 6l4 4M15 6l-4 4" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/></svg>';

  // The switch: a button with aria-pressed, its label in the page's language (t).
  function button(t) {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = 'sound';
    b.className = 'btn btn-sm sound';
    const icon = document.createElement('span');
    icon.setAttribute('aria-hidden', 'true');
    const label = document.createElement('span');
    label.className = 'sound-label';
    b.append(icon, label);
    const paint = () => {
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
      icon.innerHTML = on ? ICON_ON : ICON_OFF;
      label.textContent = ' ' + t(on ? 'sound.on' : 'sound.off');
      b.setAttribute('aria-label', t(on ? 'sound.on' : 'sound.off'));
      b.title = t('sound.title');
    };
    b.addEventListener('click', () => { set(!on); paint(); });
    paint();
    return b;
  }

  global.BacSound = { chip, card, win, set, button, get on() { return on; } };
})(window);
