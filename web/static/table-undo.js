/* table-undo.js: the player's table's Undo and the round's total bet. Undo takes back the last
   chip this page placed in this betting window: a stack of {wager, amount}, one entry a chip,
   emptied when the window changes. A server that raises a spot's one wager with each chip
   (wager_raised) takes a chip back from that wager ({"wager", "stake"}: wager_lowered); where
   the chip was the wager's whole stake (or each chip is a wager of its own) the wager is
   withdrawn ({"wager"}), which every server takes. A game whose rules allow no withdrawal
   while betting (RWS: a Player or Banker wager rides on a Tie, and only that may be taken
   back) hides the button; a refusal that comes anyway shows as any refusal, translated. The
   round's total is the sum of the player's wagers of the round, added as BigInt: display
   only, the stakes are the server's. Needs app.js. */
'use strict';
(function (Bac) {
  const { api, setText, setAttr, fmtMoney, toast, toastError, t } = Bac;
  // Refusals after which the chip can never come back: the stack forgets it.
  const GONE = new Set(['not_withdrawable', 'not_found', 'betting_closed']);
  const big = (x) => BigInt(Math.trunc(Number(x) || 0));

  // ctx: {S, tableId, mine(list), mergeWager(w, exact), dropWagers(ids), setBalance(n), invalidate()}
  Bac.createUndo = function (ctx) {
    const S = ctx.S;
    const btn = document.getElementById('undo');
    const total = document.getElementById('round-total');
    let stack = []; // {wager, amount}: the chips this page placed in this betting window
    let windowKey = '';
    let busy = false;

    function currentWindow() {
      const st = S.state || {};
      return st.bet_open ? st.round + ':' + (st.betting_round || 1) : '';
    }
    // A new betting window (or none) forgets the chips of the last one.
    function sync() {
      const k = currentWindow();
      if (k !== windowKey) { windowKey = k; stack = []; }
    }
    // Whether the game lets a player take a wager back while betting: not where wagers ride on
    // a Tie (RWS 3.9), where only a riding wager may be withdrawn. GET /rules says so by its
    // tie_rides, or the game by its rule line tie_rides.
    function allowed() {
      const r = S.rules;
      if (r && typeof r.tie_rides === 'boolean') return !r.tie_rides;
      const lines = [].concat((r && r.rule_lines) || [], (S.game && S.game.rule_lines) || []);
      return !lines.some((x) => x && x.id === 'tie_rides');
    }
    // A chip the server took: res is the answer of POST /wagers.
    function placed(res, stake) {
      sync();
      if (!windowKey || !res || !res.wager || !res.wager.id) return;
      stack.push({ wager: res.wager.id, amount: Number(stake) });
    }
    // settled: the settlements of the round the layout shows as settled (until the next
    // betting opens), whose stakes are then the round's total.
    function roundTotal(settled) {
      const st = S.state || {};
      let sum = 0n;
      if (settled) for (const x of ctx.mine(settled)) sum += big(x.stake);
      else for (const w of ctx.mine(st.wagers)) if (!st.round || w.round === undefined || w.round === st.round) sum += big(w.stake);
      return sum;
    }
    function update(canAct, settled) {
      sync();
      btn.hidden = !allowed();
      // Wagers withdrawn some other way (Clear, another tab) are no longer there to undo.
      const st = S.state || {};
      const have = new Map(ctx.mine(st.wagers).concat(ctx.mine(st.dragon)).map((w) => [w.id, big(w.stake)]));
      stack = stack.filter((c) => have.has(c.wager));
      btn.disabled = busy || !canAct || stack.length === 0;
      const sum = roundTotal(settled);
      setText(total, fmtMoney(sum));
      setAttr(total, 'data-minor', String(sum));
    }
    async function undo() {
      sync();
      const last = stack[stack.length - 1];
      if (!last) { toast(t('toast.no_undo')); return; }
      const st = S.state || {};
      const w = ctx.mine(st.wagers).concat(ctx.mine(st.dragon)).find((x) => x.id === last.wager);
      // The chip is part of a larger wager: take that much back; else the wager goes.
      const part = w && big(w.stake) > big(last.amount);
      const body = part ? { wager: last.wager, stake: last.amount } : { wager: last.wager };
      busy = true;
      ctx.invalidate();
      try {
        const res = await api('POST', '/api/tables/' + encodeURIComponent(ctx.tableId) + '/withdraw', body);
        stack.pop();
        const gone = ((res && res.withdrawn) || []).map((x) => x.id);
        if (gone.length) ctx.dropWagers(gone);
        if (res && res.wager && res.wager.id) ctx.mergeWager(res.wager, true);
        else if (part && w && !gone.length) ctx.mergeWager(Object.assign({}, w, { stake: Number(big(w.stake) - big(last.amount)) }), true);
        if (res && typeof res.balance === 'number') ctx.setBalance(res.balance);
        Bac.sound.chip();
      } catch (e) {
        if (GONE.has(e.code)) stack.pop();
        toastError(e);
      } finally {
        busy = false;
        ctx.invalidate();
      }
    }
    btn.addEventListener('click', undo);

    return { placed, update, undo, roundTotal, allowed };
  };
})(window.Bac);
