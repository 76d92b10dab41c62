/* admin-start.js: starts the back office once the language is in, after every section of it
   has registered (the admin-*.js files before it). */
'use strict';
window.Bac.ready.then(() => window.BacAdmin.start());
