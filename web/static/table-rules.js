/* table-rules.js: the rules and return panel of the player's table, from
   GET /api/tables/{id}/rules: whether the game is played for tournament chips, the game's
   rules, every bet's pay table with its exact return to player and house edge for the table's
   full shoe (the odds engine's fractions, shown as percentages with 4 decimals and the exact
   fractions on demand), Bet on Baccarat's margins and odds, the table's limits, and whether it
   has live video (its cards show as the video shows them). The page copies the server's
   figures; it computes none. Needs app.js. */
'use strict';
(function (Bac) {
  const { api, h, t, fmtMoney, betName } = Bac;
  const pct = (fig) => (fig && fig.percent ? Bac.fmtDecimal(fig.percent) + '%' : '—');

  // ctx: {S, tableId, invalidate()}
  Bac.createRules = function (ctx) {
    const S = ctx.S;
    const box = document.getElementById('rules');

    async function load() {
      try {
        S.rules = await api('GET', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/rules');
        render();
        ctx.invalidate();
      } catch (e) {
        box.textContent = '';
        box.appendChild(h('p', { class: 'muted' }, t('rules.unavailable', { why: Bac.errorText(e) })));
      }
    }

    function render() {
      const r = S.rules;
      box.textContent = '';
      if (!r) return;
      if (r.tournament) {
        box.appendChild(h('p', { class: 'rules-note ' + (r.cash ? 'rules-warn' : 'rules-chips'), id: 'rules-tournament' },
          r.cash ? t('rules.cash') : t('rules.chips')));
      }
      if (r.video) box.appendChild(h('p', { class: 'rules-note rules-video', id: 'rules-video' }, t('rules.video')));
      box.appendChild(h('p', { class: 'muted rules-shoe' }, t('rules.shoe', { decks: r.decks, cards: Bac.fmtInt(r.cards) })));
      const lines = (r.rule_lines || []).map(Bac.ruleLine);
      lines.push(t('rules.table_of_play'));
      box.appendChild(h('ul', { class: 'rules-list' }, lines.map((x) => h('li', null, x))));
      box.appendChild(h('div', { class: 'rule-bets' }, (r.bets || []).map((b) => betRow(r, b))));
      const extra = [];
      if (r.max_wagers_per_area) extra.push(t('limits.per_area', { n: r.max_wagers_per_area }));
      if (r.differential) extra.push(t('limits.differential', { amount: fmtMoney(r.differential) }));
      if (extra.length) box.appendChild(h('p', { class: 'muted' }, extra.join(' · ')));
      box.appendChild(h('p', { class: 'explain' }, t('rules.explain')));
    }

    // "Tie 8:1 · return 85.6404% · house edge 14.3596%", its tiers, limits and exact fractions.
    function betRow(r, b) {
      const lim = (r.limits || {})[b.id];
      const decimal = b.margin !== undefined && b.margin !== null;
      const pays = decimal ? (b.odds ? t('rules.odds', { odds: b.odds }) : t('spot.not_offered'))
        : (b.tiers || []).map((x) => x.pays).join(' / ');
      const head = h('div', { class: 'rule-head' },
        h('b', { class: 'rule-name' }, betName(S.game, b.id)),
        h('span', { class: 'rule-pays' }, pays),
        h('span', { class: 'rule-return' }, t('rules.return') + ' ', h('b', null, pct(b.return))),
        h('span', { class: 'rule-edge' + (b.house_edge && /^-/.test(b.house_edge.percent) ? ' player-edge' : '') },
          t('rules.edge') + ' ', h('b', null, pct(b.house_edge))));
      const tiers = h('ul', { class: 'rule-tiers' }, (b.tiers || []).map((x) => h('li', null,
        Bac.tierEvent(x) + (decimal ? '' : ' · ' + x.pays) + ' · ' + t('rules.probability') + ' ' + pct(x.probability))));
      const notes = [];
      if (decimal) notes.push(t('rules.margin', { margin: pct(b.margin) }));
      if (b.session_hands) notes.push(t('rules.session', { n: b.session_hands }));
      if (lim) notes.push(t('rules.limit', { min: fmtMoney(lim.min), max: lim.max ? fmtMoney(lim.max) : t('limits.no_max') }));
      const exact = b.return && b.return.fraction ? h('details', { class: 'rule-exact' }, h('summary', null, t('rules.exact')),
        h('div', null, t('rules.return') + ' = ', h('code', null, b.return.fraction)),
        h('div', null, t('rules.edge') + ' = ', h('code', null, b.house_edge.fraction))) : null;
      return h('div', { class: 'rule-bet', 'data-rule-bet': b.id, 'data-return': b.return ? b.return.percent : null,
        'data-edge': b.house_edge ? b.house_edge.percent : null, 'data-edge-fraction': b.house_edge ? b.house_edge.fraction || null : null },
      head, tiers, notes.length ? h('div', { class: 'rule-notes muted' }, notes.join(' · ')) : null, exact);
    }

    return { load, render };
  };
})(window.Bac);
