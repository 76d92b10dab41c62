/* limits-account.js: the account page's section of responsible gaming (#limits-panel): the
   limits in force, this session's and today's results, the record of limit events, and the
   player's own cool-off or self-exclusion with its confirmation. limits.js reads the standing
   and calls render(view) with each LimitsView; the times, money and durations are its helpers,
   so the section says them as the clock and the reality check do. Loaded on the account page
   only, before limits.js. Needs i18n.js, currency.js and app.js. */
'use strict';
(function (Bac) {
  const { api, h, setText, setAttr, show, t, tn } = Bac;

  // ctx: {panel, take(view), serverNow(), when(iso), dur(minutes), played(), fmtWhen(ms),
  //       money(minor), signed(minor), tone(el, minor), big(v)}
  Bac.createLimitsPanel = function (ctx) {
    const { panel, take, serverNow, when, dur, played, fmtWhen, money, signed, tone, big } = ctx;
    let view = null; // the LimitsView last rendered

    const PERIODS = [
      { id: 'cool_off:1', kind: 'cool_off', days: 1 }, { id: 'cool_off:7', kind: 'cool_off', days: 7 },
      { id: 'cool_off:30', kind: 'cool_off', days: 30 }, { id: 'self_exclusion:6', kind: 'self_exclusion', months: 6 },
      { id: 'self_exclusion:12', kind: 'self_exclusion', months: 12 }, { id: 'self_exclusion:60', kind: 'self_exclusion', months: 60 },
    ];
    const KINDS = { cool_off: 'limits.kind.cool_off', self_exclusion: 'limits.kind.self_exclusion' };
    const REASONS = { time_limit: 'limits.reason.time_limit', left: 'limits.reason.left', excluded: 'limits.reason.excluded', replaced: 'limits.reason.replaced' };
    const ANSWERS = { continue: 'limits.answer.continue', leave: 'limits.answer.leave' };
    const BREACHES = { excluded: 'limits.breach.excluded', session_time: 'limits.breach.session_time', session_ended: 'limits.breach.session_ended',
      reality_check: 'limits.breach.reality_check', currency: 'limits.breach.currency', stake_per_round: 'limits.breach.stake_per_round',
      loss_per_session: 'limits.breach.loss_per_session', loss_per_day: 'limits.breach.loss_per_day' };
    const MONEY_LIMITS = [['loss_per_session', 'limits.rg.loss_per_session'], ['loss_per_day', 'limits.rg.loss_per_day'], ['stake_per_round', 'limits.rg.stake_per_round']];
    const TALLIES = [['staked', 'limits.rg.staked'], ['returned', 'limits.rg.returned'], ['net', 'limits.rg.net'], ['open', 'limits.rg.open']];
    const words = (map, k) => (map[k] ? t(map[k]) : Bac.humanize(k));
    function periodText(p) {
      if (p.days) return tn('limits.dur.days', p.days);
      return p.months >= 24 && p.months % 12 === 0 ? tn('limits.dur.years', p.months / 12) : tn('limits.dur.months', p.months);
    }
    let ui = null; // the section's parts, built once: a choice in the form outlives a re-read

    function tallyBox(period) {
      return h('div', { class: 'limits-tally', 'data-period': period }, h('h4', null),
        h('div', { class: 'totals-grid' }, TALLIES.map(([k, label]) => h('div', { class: 'total', 'data-tally': k },
          h('span', { class: 'label' }, t(label)), h('b', { class: 'value' }, '—')))));
    }
    function buildPanel() {
      ui = { status: h('p', { class: 'limits-status', id: 'limits-status' }), rules: h('dl', { class: 'limits-rules', id: 'limits-rules' }),
        session: tallyBox('session'), day: tallyBox('day'), events: h('ol', { class: 'limits-events', id: 'limits-events' }), lastSeq: -1 };
      panel.textContent = '';
      setAttr(panel, 'aria-labelledby', 'limits-panel-title');
      Bac.append(panel, [h('h2', { id: 'limits-panel-title' }, t('limits.rg.title')), h('p', { class: 'muted' }, t('limits.rg.intro')), ui.status,
        h('h3', null, t('limits.rg.limits')), ui.rules, h('p', { class: 'muted' }, t('limits.rg.loss_note')),
        h('h3', null, t('limits.rg.results')), h('div', { class: 'limits-tallies' }, ui.session, ui.day),
        h('h3', null, t('limits.rg.events')), ui.events, buildExclude()]);
      if (window.location.hash === '#limits-panel') requestAnimationFrame(() => panel.scrollIntoView()); // the notice's link
    }
    function renderPanel() {
      if (!ui) buildPanel();
      show(panel, true);
      const l = view.limits || {};
      const none = t('limits.rg.none');
      const x = view.excluded;
      const rows = [
        ['limits.rg.reality_check', l.reality_check_minutes ? t('limits.rg.every', { time: dur(l.reality_check_minutes) }) : none],
        ['limits.rg.session', l.session_minutes ? t('limits.rg.per_session', { time: dur(l.session_minutes) }) : none],
        ...MONEY_LIMITS.map(([k, label]) => [label, l[k] ? money(l[k]) : none]),
        ['limits.rg.exclusion', x ? t('limits.rg.excluded', { what: words(KINDS, x.kind), date: fmtWhen(when(x.until)) }) : t('limits.rg.not_excluded')],
      ];
      ui.rules.textContent = '';
      for (const [k, v] of rows) Bac.append(ui.rules, [h('dt', null, t(k)), h('dd', null, v)]);
      const s = view.session || {};
      let status = t('limits.rg.no_session');
      if (s.id && s.open) status = t('limits.rg.session_open', { date: fmtWhen(when(s.started)), time: dur(played()) });
      else if (s.id) status = t('limits.rg.session_ended', { date: fmtWhen(when(s.ended) || when(s.ends)), reason: words(REASONS, s.end_reason || 'time_limit') });
      setText(ui.status, status);
      renderTally(ui.session, t('limits.rg.this_session'), s.tally || {});
      const day = Number.isNaN(serverNow()) ? view.day : new Date(serverNow()).toISOString().slice(0, 10);
      renderTally(ui.day, t('limits.rg.today', { day }), view.day_tally || {});
      renderEvents();
    }
    function renderTally(el, title, tally) {
      setText(el.querySelector('h4'), title);
      for (const [k] of TALLIES) {
        const b = el.querySelector('[data-tally="' + k + '"]');
        setAttr(b, 'data-minor', String(big(tally[k])));
        setText(b.querySelector('.value'), k === 'net' ? signed(tally[k]) : money(tally[k]));
        if (k === 'net') tone(b, tally[k]);
      }
    }
    function renderEvents() {
      const list = view.events || [];
      const last = list.length ? list[list.length - 1].seq : 0;
      if (last === ui.lastSeq) return;
      ui.lastSeq = last;
      ui.events.textContent = '';
      if (!list.length) ui.events.appendChild(h('li', { class: 'muted' }, t('limits.rg.no_events')));
      for (const e of list.slice().reverse()) {
        ui.events.appendChild(h('li', { 'data-kind': e.kind, 'data-seq': e.seq, title: e.message || null },
          h('time', { datetime: e.at }, fmtWhen(when(e.at))), h('span', null, eventText(e))));
      }
    }
    function byText(by) {
      if (by === 'operator') return t('limits.ev.by_operator');
      if (by === 'table') return t('limits.ev.by_table');
      if (by === view.player) return t('limits.ev.by_you');
      return t('limits.ev.by_admin', { id: by });
    }
    function limitsText(l) {
      const parts = [];
      if (!l) return t('limits.ev.no_limits');
      if (l.reality_check_minutes) parts.push(t('limits.rg.reality_check') + ' ' + t('limits.rg.every', { time: dur(l.reality_check_minutes) }));
      if (l.session_minutes) parts.push(t('limits.rg.session') + ' ' + t('limits.rg.per_session', { time: dur(l.session_minutes) }));
      for (const [k, label] of MONEY_LIMITS) if (l[k]) parts.push(t(label) + ' ' + money(l[k]));
      if (l.excluded) parts.push(t('limits.rg.excluded', { what: words(KINDS, l.excluded.kind), date: fmtWhen(when(l.excluded.until)) }));
      return parts.length ? parts.join(t('limits.ev.sep')) : t('limits.ev.no_limits');
    }
    // A session's result at an event: minutes played, and the net of its settled wagers (added
    // up here, for display only, in BigInt).
    function resultText(e) {
      if (!e.played_minutes && !e.tally) return '';
      const net = e.tally ? big(e.tally.returned) - big(e.tally.settled) : 0n;
      return ' · ' + t('limits.ev.result', { time: dur(e.played_minutes || 0), net: signed(net) });
    }
    function eventText(e) {
      switch (e.kind) {
        case 'limits_set': return t('limits.ev.limits_set', { by: byText(e.by), what: limitsText(e.limits) });
        case 'excluded': return t('limits.ev.excluded', { what: words(KINDS, e.exclusion && e.exclusion.kind), date: fmtWhen(when(e.exclusion && e.exclusion.until)) });
        case 'session_started': return t('limits.ev.session_started', { n: e.session });
        case 'session_ended': return t('limits.ev.session_ended', { n: e.session, reason: words(REASONS, e.reason) }) + resultText(e);
        case 'reality_check': return t('limits.ev.reality_check', { answer: words(ANSWERS, e.reason) }) + resultText(e);
        case 'limit_reached': return t('limits.ev.limit_reached', { what: words(BREACHES, e.breach) });
        default: return Bac.humanize(e.kind);
      }
    }

    // The player's own exclusion: a period, then a confirmation that says it cannot be undone here.
    function buildExclude() {
      const group = (kind, legend, help) => h('fieldset', null, h('legend', null, t(legend)), h('p', { class: 'muted' }, t(help)),
        PERIODS.filter((p) => p.kind === kind).map((p) => h('label', { class: 'limits-choice' },
          h('input', { type: 'radio', name: 'limits-period', value: p.id }), ' ', periodText(p))));
      const x = {
        go: h('button', { type: 'submit', class: 'btn btn-danger', id: 'limits-exclude-go', disabled: true }, t('limits.ex.submit')),
        text: h('p', { id: 'limits-confirm-text' }),
        no: h('button', { type: 'button', class: 'btn', id: 'limits-exclude-no' }, t('limits.ex.no')),
        yes: h('button', { type: 'button', class: 'btn btn-danger', id: 'limits-exclude-yes' }, t('limits.ex.yes')),
        msg: h('p', { id: 'limits-exclude-msg', role: 'status' }),
      };
      x.confirm = h('div', { class: 'limits-confirm', id: 'limits-exclude-confirm', role: 'group', 'aria-labelledby': 'limits-confirm-title', hidden: true },
        h('h4', { id: 'limits-confirm-title' }, t('limits.ex.confirm_title')), x.text, h('p', null, h('b', null, t('limits.ex.final'))),
        h('div', { class: 'limits-actions' }, x.no, x.yes));
      x.form = h('form', { class: 'limits-exclude', id: 'limits-exclude' }, h('h3', null, t('limits.ex.title')), h('p', { class: 'muted' }, t('limits.ex.help')),
        group('cool_off', 'limits.ex.cool_off', 'limits.ex.cool_off_help'), group('self_exclusion', 'limits.ex.self_exclusion', 'limits.ex.self_exclusion_help'),
        h('div', { class: 'limits-actions' }, x.go), x.confirm, x.msg);
      const cancel = () => { show(x.confirm, false); x.go.disabled = !chosen(x); };
      x.form.addEventListener('change', cancel);
      x.no.addEventListener('click', () => { cancel(); x.go.focus(); });
      x.form.addEventListener('submit', (e) => { e.preventDefault(); askExclude(x); });
      x.yes.addEventListener('click', () => exclude(x));
      return x.form;
    }
    function chosen(x) {
      const r = x.form.querySelector('input[name="limits-period"]:checked');
      return r ? PERIODS.find((p) => p.id === r.value) : null;
    }
    // The confirmation: what, for how long, until about when (by the server's clock).
    function askExclude(x) {
      const p = chosen(x);
      if (!p || !view) return;
      const until = new Date(serverNow());
      if (p.days) until.setUTCDate(until.getUTCDate() + p.days); else until.setUTCMonth(until.getUTCMonth() + p.months);
      setText(x.text, t('limits.ex.confirm', { what: t(KINDS[p.kind]), period: periodText(p), date: fmtWhen(until.getTime()) }));
      setText(x.msg, '');
      show(x.confirm, true);
      x.go.disabled = true;
      x.no.focus();
    }
    async function exclude(x) {
      const p = chosen(x);
      if (!p) return;
      x.yes.disabled = x.no.disabled = true;
      try {
        take(await api('POST', '/api/me/exclude', p.days ? { kind: p.kind, days: p.days } : { kind: p.kind, months: p.months }));
        show(x.confirm, false);
        for (const r of x.form.querySelectorAll('input[name="limits-period"]')) r.checked = false;
        setText(x.msg, view.excluded ? t('limits.ex.done', { date: fmtWhen(when(view.excluded.until)) }) : '');
      } catch (err) {
        setText(x.msg, Bac.errorText(err));
      } finally {
        x.yes.disabled = x.no.disabled = false;
        x.go.disabled = !chosen(x);
      }
    }

    return {
      render(v) {
        view = v;
        renderPanel();
      },
    };
  };
})(window.Bac);
