/* roads.js: the five scoreboards (ROADS.md) drawn as inline SVG from the server's road view.
   The server places every mark (big_road_grid, *_grid); this file only draws them. The one
   placement it does itself is display-only: the lobby's mini Big Road (the lobby sends logical
   columns) and the Ask-Banker/Ask-Player preview of where the next mark would go. Needs app.js. */
'use strict';
(function (Bac) {
  const ROWS = 6;
  const NS = 'http://www.w3.org/2000/svg';
  const { h, setText, humanize, t } = Bac;
  // The letter a mark carries: B/P/T in English, Thai and Vietnamese (as their players read a
  // road), 庄/闲/和 and 莊/閒/和 in Chinese, 뱅/플/타 in Korean: one glyph that fits a cell.
  const mark = (side) => t('mark.' + side);

  // ---- placement: a port of roads/grid.go (ROADS.md, Big Road display) ---------------------
  class StreakGrid {
    constructor() { this.taken = []; this.at = []; this.start = 0; this.turned = false; }
    occupied(c, r) { return c < this.taken.length && (this.taken[c] & (1 << r)) !== 0; }
    add(newColumn) {
      let p;
      if (newColumn || this.at.length === 0) {
        let c = this.at.length > 0 ? this.start + 1 : 0;
        while (this.occupied(c, 0)) c++;
        this.start = c;
        this.turned = false;
        p = { column: c, row: 0 };
      } else {
        const last = this.at[this.at.length - 1];
        if (!this.turned && last.row + 1 < ROWS && !this.occupied(last.column, last.row + 1)) {
          p = { column: last.column, row: last.row + 1 };
        } else {
          this.turned = true;
          let c = last.column + 1;
          while (this.occupied(c, last.row)) c++;
          p = { column: c, row: last.row };
        }
      }
      while (this.taken.length <= p.column) this.taken.push(0);
      this.taken[p.column] |= 1 << p.row;
      this.at.push(p);
      return p;
    }
  }

  // The logical Big Road ({leading_ties, columns:[{side, cells}]}) placed on the 6-row grid.
  function placeBigRoad(bigRoad, extraSide) {
    const g = new StreakGrid();
    const out = [];
    const cols = (bigRoad && bigRoad.columns) || [];
    cols.forEach((col, ci) => {
      (col.cells || []).forEach((cell, i) => {
        const p = g.add(i === 0);
        out.push(Object.assign({}, cell, p, { side: col.side,
          leading_ties: ci === 0 && i === 0 ? bigRoad.leading_ties || 0 : 0 }));
      });
    });
    let ghost = null;
    if (extraSide) {
      const last = cols[cols.length - 1];
      ghost = Object.assign(g.add(!last || last.side !== extraSide), { side: extraSide, ghost: true });
    }
    return { items: out, ghost };
  }
  // A derived road's colour list placed like a Big Road: a new column at each change of colour.
  function placeDerived(colours, extra) {
    const g = new StreakGrid();
    const out = [];
    let prev = null;
    for (const c of colours || []) {
      out.push(Object.assign(g.add(c !== prev), { colour: c }));
      prev = c;
    }
    let ghost = null;
    if (extra) ghost = Object.assign(g.add(extra !== prev), { colour: extra, ghost: true });
    return { items: out, ghost };
  }

  // ---- SVG ---------------------------------------------------------------------------------
  function gridLines(cols, cell) {
    let d = '';
    const W = cols * cell, H = ROWS * cell;
    for (let c = 0; c <= cols; c++) d += 'M' + (c * cell + 0.5) + ' 0V' + H;
    for (let r = 0; r <= ROWS; r++) d += 'M0 ' + (r * cell + 0.5) + 'H' + W;
    return '<path class="gl" d="' + d + '"/>';
  }
  function svgOpen(cols, cell, cls, label) {
    const W = cols * cell + 1, H = ROWS * cell + 1;
    return '<svg xmlns="' + NS + '" class="road-svg ' + cls + '" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + ' ' + H +
      '" role="img" aria-label="' + label + '">' + gridLines(cols, cell);
  }
  const f1 = (x) => Math.round(x * 10) / 10;
  function colsFor(items, min) {
    let max = -1;
    for (const it of items) if (it && it.column > max) max = it.column;
    return Math.max(min, max + 3);
  }
  const SIDE_CLASS = { B: 'b', P: 'p', T: 't' };
  const sideWord = (side) => Bac.winnerName(side);

  function pairDots(x, y, c, it) {
    let s = '';
    const r = f1(c * 0.12);
    if (it.banker_pair) s += '<circle class="dot-b" cx="' + f1(x + c * 0.2) + '" cy="' + f1(y + c * 0.2) + '" r="' + r + '"/>';
    if (it.player_pair) s += '<circle class="dot-p" cx="' + f1(x + c * 0.8) + '" cy="' + f1(y + c * 0.8) + '" r="' + r + '"/>';
    return s;
  }

  function beadSVG(beads, opts) {
    const c = opts.cell;
    const items = (beads || []).slice();
    if (opts.ghost) items.push(opts.ghost);
    const cols = colsFor(items, opts.minCols);
    let s = svgOpen(cols, c, 'bead-plate', t('road.bead_plate'));
    for (const it of items) {
      const x = it.column * c, y = it.row * c, cls = SIDE_CLASS[it.result] || 't';
      const title = sideWord(it.result) + (it.natural ? ', ' + t('flag.natural') : '') + (it.banker_pair ? ', ' + t('flag.banker_pair') : '') +
        (it.player_pair ? ', ' + t('flag.player_pair') : '');
      s += '<g class="bead ' + cls + (it.ghost ? ' ghost' : '') + '"><title>' + title + '</title>' +
        '<circle class="fill" cx="' + f1(x + c / 2) + '" cy="' + f1(y + c / 2) + '" r="' + f1(c * 0.42) + '"/>' +
        (it.natural ? '<circle class="nat" cx="' + f1(x + c / 2) + '" cy="' + f1(y + c / 2) + '" r="' + f1(c * 0.42) + '"/>' : '') +
        '<text x="' + f1(x + c / 2) + '" y="' + f1(y + c / 2) + '" font-size="' + f1(c * 0.5) + '">' + (it.result ? mark(it.result) : '?') + '</text>' +
        pairDots(x, y, c, it) + '</g>';
    }
    return s + '</svg>';
  }

  function bigRoadSVG(placed, opts) {
    const c = opts.cell;
    const items = placed.slice();
    if (opts.ghost) items.push(opts.ghost);
    const cols = colsFor(items, opts.minCols);
    let s = svgOpen(cols, c, 'big-road', t('road.big_road'));
    for (const it of items) s += bigCell(it, c, opts.filled);
    return s + '</svg>';
  }
  function bigCell(it, c, filled) {
    const x = it.column * c, y = it.row * c, cls = SIDE_CLASS[it.side] || 'b';
    const cx = f1(x + c / 2), cy = f1(y + c / 2);
    const ties = it.ties || 0, lead = it.leading_ties || 0;
    const title = sideWord(it.side) + (ties ? ', ' + Bac.tn('road.then_ties', ties) : '') +
      (lead ? ' (' + Bac.tn('road.ties_before', lead) + ')' : '') + (it.natural ? ', ' + t('flag.natural') : '') +
      (it.banker_pair ? ', ' + t('flag.banker_pair') : '') + (it.player_pair ? ', ' + t('flag.player_pair') : '');
    let s = '<g class="big ' + cls + (filled ? ' filled' : '') + (it.ghost ? ' ghost' : '') + '"><title>' + title + '</title>' +
      '<circle class="ring" cx="' + cx + '" cy="' + cy + '" r="' + f1(c * (filled ? 0.42 : 0.36)) + '" stroke-width="' + f1(c * 0.1) + '"/>' +
      '<text x="' + cx + '" y="' + cy + '" font-size="' + f1(c * (filled ? 0.5 : 0.4)) + '">' + mark(it.side) + '</text>';
    if (ties) s += '<line class="tie" x1="' + f1(x + c * 0.15) + '" y1="' + f1(y + c * 0.85) + '" x2="' + f1(x + c * 0.85) + '" y2="' + f1(y + c * 0.15) + '"/>';
    if (lead) s += '<line class="tie" x1="' + f1(x + c * 0.15) + '" y1="' + f1(y + c * 0.15) + '" x2="' + f1(x + c * 0.85) + '" y2="' + f1(y + c * 0.85) + '"/>';
    const n = ties + lead;
    if (n > 1) s += '<text class="tie-n" x="' + f1(x + c * 0.86) + '" y="' + f1(y + c * 0.2) + '" font-size="' + f1(c * 0.36) + '">' + n + '</text>';
    if (!filled) s += pairDots(x, y, c, it);
    return s + '</g>';
  }

  const DERIVED_SHAPE = { big_eye_boy: 'ring', small_road: 'dot', cockroach_pig: 'slash' };
  function derivedMark(shape, colour, x, y, c, ghost) {
    const cls = 'mk ' + (colour === 'red' ? 'red' : 'blue') + (ghost ? ' ghost' : '');
    const cx = f1(x + c / 2), cy = f1(y + c / 2);
    const tt = '<title>' + (colour === 'red' ? t('road.red') : t('road.blue')) + '</title>';
    if (shape === 'ring') return '<circle class="' + cls + ' ring" cx="' + cx + '" cy="' + cy + '" r="' + f1(c * 0.34) + '" stroke-width="' + f1(c * 0.14) + '">' + tt + '</circle>';
    if (shape === 'dot') return '<circle class="' + cls + ' dot" cx="' + cx + '" cy="' + cy + '" r="' + f1(c * 0.36) + '">' + tt + '</circle>';
    return '<line class="' + cls + ' slash" x1="' + f1(x + c * 0.2) + '" y1="' + f1(y + c * 0.8) + '" x2="' + f1(x + c * 0.8) + '" y2="' + f1(y + c * 0.2) + '" stroke-width="' + f1(c * 0.18) + '">' + tt + '</line>';
  }
  function derivedSVG(kind, marks, opts) {
    const c = opts.cell, shape = DERIVED_SHAPE[kind];
    const items = (marks || []).slice();
    if (opts.ghost) items.push(opts.ghost);
    const cols = colsFor(items, opts.minCols);
    let s = svgOpen(cols, c, 'derived ' + kind, t('road.' + kind));
    for (const m of items) s += derivedMark(shape, m.colour, m.column * c, m.row * c, c, m.ghost);
    return s + '</svg>';
  }
  // The three marks an Ask button shows: Big Eye Boy ring, Small Road dot, Cockroach Pig slash.
  function askSVG(colours) {
    const c = 16;
    let s = '<svg xmlns="' + NS + '" class="ask-svg" width="' + (3 * c) + '" height="' + c + '" viewBox="0 0 ' + (3 * c) + ' ' + c + '" aria-hidden="true">';
    ['big_eye_boy', 'small_road', 'cockroach_pig'].forEach((k, i) => {
      const col = colours ? colours[i] : null;
      if (col) s += derivedMark(DERIVED_SHAPE[k], col, i * c, 0, c, false);
      else s += '<line class="none" x1="' + (i * c + 5) + '" y1="8" x2="' + (i * c + 11) + '" y2="8"/>';
    });
    return s + '</svg>';
  }
  // A null entry means the road would still not exist after that result (ROADS.md); a road
  // with no marks yet may still show the colour it would start with.
  function askWords(colours) {
    return ['big_eye_boy', 'small_road', 'cockroach_pig'].map((k, i) => t('road.' + k) + ': ' +
      (colours && colours[i] ? t('road.colour_' + colours[i]) : t('road.not_yet'))).join(', ');
  }

  // ---- the whole panel ---------------------------------------------------------------------
  // new RoadsPanel(container) builds the structure once; update(roads) redraws the SVGs (once
  // per round: the server sends roads only when they change).
  class RoadsPanel {
    constructor(root, opts) {
      this.root = root;
      this.opts = Object.assign({ cell: 22, small: 12 }, opts || {});
      this.roads = null;
      this.previewTimer = 0;
      this.build();
      let tm = 0;
      window.addEventListener('resize', () => { clearTimeout(tm); tm = setTimeout(() => this.draw(null), 150); });
    }
    build() {
      const r = this.root;
      r.textContent = '';
      const section = (key, title) => {
        const wrap = h('div', { class: 'road-scroll', 'data-road': key });
        r.appendChild(h('div', { class: 'road road-' + key }, h('div', { class: 'road-title' }, title), wrap));
        return wrap;
      };
      this.el = {
        bead: section('bead_plate', t('road.bead_plate')),
        big: section('big_road', t('road.big_road')),
      };
      const derived = h('div', { class: 'road-derived' });
      r.appendChild(derived);
      const dsec = (key, title) => {
        const wrap = h('div', { class: 'road-scroll', 'data-road': key });
        derived.appendChild(h('div', { class: 'road road-' + key }, h('div', { class: 'road-title' }, title), wrap));
        return wrap;
      };
      this.el.big_eye_boy = dsec('big_eye_boy', t('road.big_eye_boy'));
      this.el.small_road = dsec('small_road', t('road.small_road'));
      this.el.cockroach_pig = dsec('cockroach_pig', t('road.cockroach_pig'));
      this.el.askB = h('button', { type: 'button', class: 'ask ask-b', id: 'ask-banker', 'data-ask': 'B',
        onclick: () => this.preview('B') }, h('span', { class: 'ask-label' }, mark('B'), h('small', null, ' ' + t('road.ask'))), h('span', { class: 'ask-marks' }));
      this.el.askP = h('button', { type: 'button', class: 'ask ask-p', id: 'ask-player', 'data-ask': 'P',
        onclick: () => this.preview('P') }, h('span', { class: 'ask-label' }, mark('P'), h('small', null, ' ' + t('road.ask'))), h('span', { class: 'ask-marks' }));
      r.appendChild(h('div', { class: 'ask-row' }, h('span', { class: 'ask-title' }, t('road.if_next')), this.el.askB, this.el.askP));
      this.el.note = h('div', { class: 'road-note' });
      r.appendChild(this.el.note);
    }
    update(roads) {
      this.roads = roads || null;
      clearTimeout(this.previewTimer);
      this.draw(null);
    }
    // Draws every road; ask ('B'/'P') adds the blinking marks the next result would make.
    draw(ask) {
      const v = this.roads || {};
      const o = this.opts;
      const beads = v.bead_plate || [];
      let beadGhost = null, bigGhost = null;
      const ghosts = {};
      if (ask) {
        const n = beads.length;
        beadGhost = { column: Math.floor(n / ROWS), row: n % ROWS, result: ask, ghost: true };
        bigGhost = placeBigRoad(v.big_road, ask).ghost;
        const colours = ask === 'B' ? v.ask_banker : v.ask_player;
        ['big_eye_boy', 'small_road', 'cockroach_pig'].forEach((k, i) => {
          if (colours && colours[i]) ghosts[k] = placeDerived(v[k], colours[i]).ghost;
        });
      }
      // Grids fill their box: as many columns as fit, more (scrolling) when the shoe needs them.
      const fit = (box, cell, min) => Math.max(min, Math.floor(((box.clientWidth || 0) - 1) / cell));
      this.el.bead.innerHTML = beadSVG(beads, { cell: o.cell, minCols: fit(this.el.bead, o.cell, 12), ghost: beadGhost });
      const placed = v.big_road_grid || placeBigRoad(v.big_road).items;
      this.el.big.innerHTML = bigRoadSVG(placed, { cell: o.cell, minCols: fit(this.el.big, o.cell, 16), ghost: bigGhost });
      for (const k of ['big_eye_boy', 'small_road', 'cockroach_pig']) {
        const marks = v[k + '_grid'] || placeDerived(v[k]).items;
        this.el[k].innerHTML = derivedSVG(k, marks, { cell: o.small, minCols: fit(this.el[k], o.small, 16), ghost: ghosts[k] || null });
      }
      this.el.askB.querySelector('.ask-marks').innerHTML = askSVG(v.ask_banker);
      this.el.askP.querySelector('.ask-marks').innerHTML = askSVG(v.ask_player);
      this.el.askB.title = t('road.ask_banker') + ': ' + askWords(v.ask_banker);
      this.el.askP.title = t('road.ask_player') + ': ' + askWords(v.ask_player);
      Bac.toggle(this.el.askB, 'active', ask === 'B');
      Bac.toggle(this.el.askP, 'active', ask === 'P');
      const lead = v.big_road && v.big_road.leading_ties;
      setText(this.el.note, lead && !placed.length ? Bac.tn('road.ties_so_far', lead) : '');
      // Show the newest columns: scroll each road to its right end.
      for (const k of ['bead', 'big', 'big_eye_boy', 'small_road', 'cockroach_pig']) {
        const el = this.el[k];
        el.scrollLeft = el.scrollWidth;
      }
    }
    preview(side) {
      if (!this.roads) return;
      clearTimeout(this.previewTimer);
      this.draw(side);
      this.previewTimer = setTimeout(() => this.draw(null), 3000);
    }
  }

  // ---- statistics --------------------------------------------------------------------------
  const detectorName = (name) => (Bac.has('detector.' + name) ? t('detector.' + name) : humanize(name));
  // Per mille as a percentage with one decimal, from the integer (no float arithmetic).
  function pct(share) {
    let pm = 0;
    if (share && typeof share.per_mille === 'number') pm = Math.trunc(share.per_mille);
    else if (share) pm = Math.round((share.share || 0) * 1000);
    return Bac.fmtDecimal(Math.trunc(pm / 10) + '.' + (pm % 10)) + '%';
  }
  function renderStats(root, stats, cardsLeft) {
    root.textContent = '';
    if (!stats) return;
    const row = (label, key, cls) => {
      const s = stats[key] || { count: 0 };
      const pm = typeof s.per_mille === 'number' ? s.per_mille : Math.round((s.share || 0) * 1000);
      return h('div', { class: 'stat ' + (cls || ''), 'data-stat': key },
        h('span', { class: 'stat-label' }, label),
        h('span', { class: 'stat-count' }, String(s.count || 0)),
        h('span', { class: 'stat-pct' }, pct(s)),
        h('span', { class: 'stat-bar', 'aria-hidden': 'true' }, h('span', { style: 'width:' + Math.min(100, pm / 10) + '%' })));
    };
    const left = stats.cards_left !== null && stats.cards_left !== undefined ? stats.cards_left : cardsLeft;
    root.appendChild(h('div', { class: 'stats-head' },
      h('span', null, t('stats.hands') + ' ', h('b', null, String(stats.hands || 0))),
      left !== null && left !== undefined ? h('span', null, t('stats.cards_left') + ' ', h('b', null, String(left))) : null,
      h('span', null, t('stats.longest') + ' ', h('b', { class: 'c-b' }, mark('B') + ' ' + (stats.longest_banker || 0)), ' · ', h('b', { class: 'c-p' }, mark('P') + ' ' + (stats.longest_player || 0)))));
    root.appendChild(h('div', { class: 'stats-grid' },
      row(Bac.winnerName('B'), 'banker', 'c-b'), row(Bac.winnerName('P'), 'player', 'c-p'), row(Bac.winnerName('T'), 'tie', 'c-t'),
      row(t('flag.banker_pair'), 'banker_pairs', 'c-b'), row(t('flag.player_pair'), 'player_pairs', 'c-p'), row(t('stats.naturals'), 'naturals', 'c-n')));
    const hits = (stats.detectors || []).filter((d) => d.hit);
    root.appendChild(h('div', { class: 'detectors' },
      h('span', { class: 'det-title' }, t('stats.patterns')),
      hits.length ? hits.map((d) => h('span', { class: 'det', 'data-detector': d.name, title: t('stats.detector_title', { n: d.length, threshold: d.threshold }) },
        detectorName(d.name) + ' ' + d.length)) : h('span', { class: 'det-none' }, t('stats.none_running'))));
  }

  // ---- the lobby's mini Big Road: last N columns, filled circles with letters --------------
  function miniBigRoad(bigRoad, maxCols) {
    const c = 14;
    const placed = placeBigRoad(bigRoad).items;
    let last = -1;
    for (const it of placed) if (it.column > last) last = it.column;
    const from = Math.max(0, last - (maxCols - 1));
    const shown = placed.filter((it) => it.column >= from).map((it) => Object.assign({}, it, { column: it.column - from }));
    let s = svgOpen(maxCols, c, 'mini-road', t('road.big_road'));
    for (const it of shown) s += bigCell(it, c, true);
    if (!placed.length && bigRoad && bigRoad.leading_ties) {
      s += '<text class="tie-n" x="' + (c * 1.5) + '" y="' + (c / 2) + '" font-size="10">' + bigRoad.leading_ties + 'T</text>';
    }
    return s + '</svg>';
  }

  // ---- the compact strip a phone shows under the table: Bead Plate and Big Road side by side,
  // the three derived roads below, each showing its newest columns --------------------------
  class RoadStrip {
    constructor(root) {
      this.root = root;
      this.roads = null;
      const cell = (key, cls) => {
        const wrap = h('div', { class: 'road-scroll strip-scroll', 'data-strip': key });
        root.appendChild(h('div', { class: 'strip-road ' + cls }, h('span', { class: 'strip-title' }, t('road.' + key)), wrap));
        return wrap;
      };
      this.el = { bead: cell('bead_plate', 'strip-bead'), big: cell('big_road', 'strip-big'),
        big_eye_boy: cell('big_eye_boy', 'strip-derived'), small_road: cell('small_road', 'strip-derived'),
        cockroach_pig: cell('cockroach_pig', 'strip-derived') };
      let tm = 0;
      window.addEventListener('resize', () => { clearTimeout(tm); tm = setTimeout(() => this.update(this.roads), 150); });
    }
    update(roads) {
      this.roads = roads || null;
      const v = this.roads || {};
      const fit = (box, cell, min) => Math.max(min, Math.floor(((box.clientWidth || 0) - 1) / cell));
      this.el.bead.innerHTML = beadSVG(v.bead_plate || [], { cell: 13, minCols: fit(this.el.bead, 13, 6) });
      this.el.big.innerHTML = bigRoadSVG(v.big_road_grid || placeBigRoad(v.big_road).items, { cell: 13, minCols: fit(this.el.big, 13, 10) });
      for (const k of ['big_eye_boy', 'small_road', 'cockroach_pig']) {
        this.el[k].innerHTML = derivedSVG(k, v[k + '_grid'] || placeDerived(v[k]).items, { cell: 7, minCols: fit(this.el[k], 7, 12) });
      }
      for (const k of Object.keys(this.el)) this.el[k].scrollLeft = this.el[k].scrollWidth;
    }
  }

  // The current streak of a shoe from its Big Road: the last column's side and length (ties
  // neither break nor extend it), e.g. {side: 'B', n: 5}; null before the first result.
  function streakOf(bigRoad) {
    const cols = (bigRoad && bigRoad.columns) || [];
    const last = cols[cols.length - 1];
    return last && last.cells && last.cells.length ? { side: last.side, n: last.cells.length } : null;
  }

  Object.assign(Bac, { StreakGrid, placeBigRoad, placeDerived, RoadsPanel, RoadStrip, streakOf, renderStats, miniBigRoad, askSVG, ROAD_ROWS: ROWS });
})(window.Bac);
