/* account-name.js: the player's display name on the account page, in #name-panel. Other
   players see a player by this name at the tables (whose squeeze) and in tournaments
   (leaderboards, tables), never by their account id; without one, by a neutral "Player 4821"
   whose number the server gives (GET /api/me "public"). The form sends PUT /api/me/name; a
   refused name (invalid_name) says why and changes nothing. Needs app.js. */
'use strict';
(function (Bac) {
  const { api, h, $, setText, show, t } = Bac;
  const panel = $('#name-panel');
  if (!panel) return;

  // How others see the player: their name, or "Player 4821".
  const shown = (p) => (p && p.name) || (p && p.number ? t('name.player_n', { n: p.number }) : '');

  (async function start() {
    await Bac.ready; // the words, before the panel is built with them
    const me = await Bac.loadMe();
    if (!me || me.role !== 'player') return;
    build();
    show(panel, true);
    showPublic(me.public);
  })();

  let input, save, current, status;
  // The panel: the help, how others see the player now, the form and its answer.
  function build() {
    input = h('input', { type: 'text', id: 'name-input', name: 'name', autocomplete: 'nickname', spellcheck: 'false', 'aria-describedby': 'name-help' });
    save = h('button', { type: 'submit', class: 'btn btn-gold', id: 'name-save' }, t('name.save'));
    current = h('p', { class: 'muted', id: 'name-current' });
    status = h('p', { class: 'muted', id: 'name-status', role: 'status', 'aria-live': 'polite' });
    const form = h('form', { class: 'cmd-form', id: 'name-form' }, h('label', { for: 'name-input' }, t('name.label')), input, save);
    form.addEventListener('submit', submit);
    Bac.append(panel, [h('h2', null, t('name.title')), h('p', { class: 'muted', id: 'name-help' }, t('name.help')), current, form, status]);
  }

  function showPublic(p) {
    setText(current, p ? t('name.shown_as', { name: shown(p) }) : '');
    if (p && p.name && document.activeElement !== input) input.value = p.name;
  }

  async function submit(e) {
    e.preventDefault();
    save.disabled = true;
    setText(status, '');
    try {
      const p = await api('PUT', '/api/me/name', { name: input.value });
      showPublic(p);
      setText(status, t('name.saved', { name: shown(p) }));
      status.removeAttribute('data-error');
    } catch (err) {
      setText(status, Bac.errorText(err));
      status.setAttribute('data-error', (err && err.code) || 'error');
    } finally {
      save.disabled = false;
    }
  }
})(window.Bac);
