// The passkey pages' scripts, served from memory like the panel's own (shell/assets.ts), never from
// a CDN: @simplewebauthn/browser's bundle (it defines SimpleWebAuthnBrowser), and the few lines
// that run its ceremonies from our forms. Pages without passkeys work without either.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The ceremony: ask our server for options (a form post, with its CSRF token), let the browser
// talk to the authenticator, put its answer in the form's hidden field and send the form.
const FACTOR_JS = `
(function () {
  function run(form, ceremony) {
    form.addEventListener('submit', function (event) {
      if (form.getAttribute('data-answered') === 'yes') return;
      event.preventDefault();
      var problem = document.getElementById(form.getAttribute('data-problem'));
      if (problem) problem.textContent = '';
      if (!window.SimpleWebAuthnBrowser || !window.PublicKeyCredential) {
        if (problem) problem.textContent = 'This browser cannot use passkeys.';
        return;
      }
      var csrf = form.querySelector('input[name=_csrf]').value;
      fetch(form.getAttribute('data-options'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '_csrf=' + encodeURIComponent(csrf)
      })
        .then(function (r) { if (!r.ok) throw new Error('options'); return r.json(); })
        .then(function (options) { return ceremony({ optionsJSON: options }); })
        .then(function (answer) {
          form.querySelector('input[name=response]').value = JSON.stringify(answer);
          form.setAttribute('data-answered', 'yes');
          form.submit();
        })
        .catch(function () {
          if (problem) problem.textContent = 'The passkey was not used. Try again, or use a code.';
        });
    });
  }
  var register = document.querySelector('form[data-passkey=register]');
  if (register) run(register, function (o) { return window.SimpleWebAuthnBrowser.startRegistration(o); });
  var prove = document.querySelector('form[data-passkey=prove]');
  if (prove) run(prove, function (o) { return window.SimpleWebAuthnBrowser.startAuthentication(o); });
})();
`;

function versioned(name: string, body: string): { path: string; body: string; type: string } {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  return { path: `/panel/assets/${name}.${hash}.js`, body, type: 'text/javascript; charset=utf-8' };
}

function webauthnBundle(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@simplewebauthn/browser');
  // The package's UMD bundle sits in dist/bundle beside its module entry's folders.
  let dir = dirname(main);
  while (!dir.endsWith('browser') && dir !== dirname(dir)) dir = dirname(dir);
  return readFileSync(join(dir, 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
}

export const WEBAUTHN_SCRIPT = versioned('webauthn', webauthnBundle());
export const PASSKEY_SCRIPT = versioned('passkey', FACTOR_JS);
export const FACTOR_SCRIPTS = [WEBAUTHN_SCRIPT, PASSKEY_SCRIPT] as const;
