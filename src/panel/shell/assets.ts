// The panel's only stylesheet and script, served from memory with a content hash in their URL so
// browsers cache them for good. The script does two things, and pages work without it: copy
// buttons, and the check form's live amount in words and payee suggestions.
import { createHash } from 'node:crypto';

const CSS = `
:root{--ink:#17202a;--muted:#5b6570;--line:#d8dde3;--bg:#f4f5f7;--brand:#1f4e8c;--ok:#1d6b3a;--warn:#8a5300;--bad:#a3231b;--focus:#f5b400}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--brand)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible,iframe:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:2}
.skip:focus{left:.5rem}
header.top{background:var(--brand);color:#fff}
header.top .bar{max-width:72rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.2rem}
header.top a{color:#fff}
header.top .brand{font-weight:700;font-size:1.15rem;text-decoration:none;margin-right:auto}
header.top nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .9rem}
header.top nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.top form{margin:0}
header.top .bar.dev{padding-top:0;padding-bottom:.45rem;font-size:.9rem}
header.top .dev nav{display:flex;flex-wrap:wrap;align-items:baseline;gap:.2rem .9rem}
header.top .dev-label{color:#dbe6f5}
header.top .me{margin-left:auto;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.2rem}
header.top button.link{background:none;border:0;color:#fff;text-decoration:underline;padding:0;margin:0;font:inherit;font-weight:400;cursor:pointer}
header.top .switcher{display:flex;gap:.4rem;align-items:center;margin:0}header.top .switcher select{width:auto;padding:.15rem .3rem}
.envbar{max-width:72rem;margin:0 auto;padding:.5rem 1rem 0;display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
.env{display:inline-block;padding:.1rem .6rem;border-radius:1rem;border:1px solid var(--line);background:#fff;text-decoration:none;color:var(--ink)}
.env[aria-current=true]{background:var(--ink);color:#fff;border-color:var(--ink)}
main{max-width:72rem;margin:0 auto;padding:1rem}
main.narrow{max-width:30rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .6rem}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:1rem 1.2rem;margin-bottom:1rem}
.card>h2:first-child,.card>h2:first-of-type{margin-top:0}
ul.plain{padding-left:1.2rem}
fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0 0;padding:.5rem 1rem}
fieldset label{display:inline-block;margin:.2rem 1rem .2rem 0}
label{display:block;font-weight:600;margin:.8rem 0 .2rem}
.hint{color:var(--muted);font-size:.9rem;font-weight:400}
input[type=text],input[type=email],input[type=tel],input[type=password],input[type=search],input[type=url],input[type=number],input[type=date],select{width:100%;max-width:32rem;padding:.55rem .6rem;font:inherit;border:1px solid #9aa4ae;border-radius:4px;background:#fff}
button,.button{display:inline-block;margin-top:1rem;padding:.55rem 1.1rem;font:inherit;font-weight:600;color:#fff;background:var(--brand);border:0;border-radius:4px;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--brand);border:1px solid var(--brand)}
button.danger{background:var(--bad)}
button:disabled{opacity:.55;cursor:not-allowed}
button.small{margin-top:0;padding:.3rem .7rem;font-size:.9rem}
.inline{display:inline}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.row>div{flex:1 1 10rem}
.row button{margin-top:0}
.notice,.problem{padding:.7rem 1rem;border-radius:6px;margin-bottom:1rem;border:1px solid}
.notice{background:#eaf6ee;border-color:#9ccfae}
.problem{background:#fdecea;border-color:#e7a39c}
.warn{background:#fff6e0;border:1px solid #e8c77a;padding:.7rem 1rem;border-radius:6px;margin-bottom:1rem}
.table{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:8px}
/* A table wider than a phone scrolls inside its box; the cue above it says so.
   It stays put while the table scrolls (sticky), is hidden from screen readers (alt text ""), and
   where the browser can tell (scroll-state queries) it shows only when there is more to see. */
.table::before{content:"Scroll sideways to see every column →" / "";display:none;position:sticky;left:0;padding:.3rem .7rem;font-size:.85rem;color:var(--muted);background:#f8f9fb;border-bottom:1px solid var(--line)}
@media (max-width:40rem){.table::before{display:block}}
@supports (container-type:scroll-state){.table{container-type:scroll-state}@media (max-width:40rem){.table::before{display:none}@container scroll-state(scrollable:inline){.table::before{display:block}}}}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.5rem .7rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600;white-space:nowrap}
tr:last-child td{border-bottom:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.status{display:inline-block;padding:0 .5rem;border-radius:1rem;background:#e8edf3;font-size:.85rem}
.status.ok{background:#e3f4e8;color:var(--ok)}.status.bad{background:#fbe4e2;color:var(--bad)}.status.wait{background:#fff1d6;color:var(--warn)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
pre{background:#0f1720;color:#e6edf3;padding:.8rem 1rem;border-radius:6px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
pre a,pre a:visited{color:#8cc8ff}
.secret{display:block;background:#fff6e0;border:1px dashed #c99a2e;padding:.6rem;border-radius:4px;overflow-wrap:anywhere;font-size:.95rem}
.pager{display:flex;gap:1rem;align-items:center;margin:1rem 0;flex-wrap:wrap}
iframe.mail{width:100%;min-height:24rem;border:1px solid var(--line);border-radius:6px;background:#fff}
/* record and settings forms: the field's own message under it */
.field-error{color:var(--bad);font-size:.9rem;font-weight:600;margin:.2rem 0 0}[aria-invalid=true]{border-color:var(--bad)!important;border-width:2px!important}
textarea{width:100%;max-width:32rem;padding:.55rem .6rem;font:inherit;border:1px solid #9aa4ae;border-radius:4px;background:#fff}
input[type=file]{font:inherit;max-width:100%}
.actions{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
/* The bank account page uses a desktop's width: form and facts left, uploads right. */
.columns{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 1rem;align-items:start}
@media (max-width:52rem){.columns{grid-template-columns:minmax(0,1fr)}}
/* An id is one word: it wraps whole to its own line rather than breaking inside. */
code.id{overflow-wrap:normal;word-break:keep-all;white-space:nowrap}
dl.facts dd:has(code.id){overflow-x:auto}
.signature-preview{margin:0 0 1rem;width:100%;max-width:17rem}
.signature-box{aspect-ratio:2.4/0.54;display:flex;align-items:flex-end;justify-content:center;border-bottom:1px solid var(--ink);background:#fff}
.signature-box img{max-width:100%;max-height:100%;object-fit:contain}
.signature-preview figcaption{text-align:center;font-size:.7rem;color:var(--muted);letter-spacing:.04em}
footer{max-width:72rem;margin:2rem auto;padding:0 1rem;color:var(--muted);font-size:.85rem}
.field-error{color:var(--bad);font-weight:600;margin:.2rem 0 0}
[aria-invalid=true]{border-color:var(--bad);border-width:2px}
.check-form .label{display:block;font-weight:600;margin:.8rem 0 .2rem}
.check-form .words{display:block;min-height:2.6rem;padding:.55rem 0;font-style:italic}
.check-form .fixed{margin:.2rem 0}
.check-form .check{display:flex;gap:.5rem;align-items:center;margin:.6rem 0}
.check-form .check label{margin:0;font-weight:400}
.check-form details{margin:.8rem 0 0}
.check-form summary{cursor:pointer;color:var(--brand);font-weight:600}
.payee-box{position:relative;max-width:32rem}
ul.options{position:absolute;left:0;right:0;z-index:3;list-style:none;margin:.1rem 0 0;padding:0;background:#fff;border:1px solid #9aa4ae;border-radius:4px;max-height:16rem;overflow-y:auto;box-shadow:0 4px 12px rgba(0,0,0,.12)}
ul.options li{padding:.45rem .6rem;cursor:pointer}
ul.options li .hint{display:block}
ul.options li[aria-selected=true]{background:var(--brand);color:#fff}
ul.options li[aria-selected=true] .hint{color:#e6edf3}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-bottom:1rem}
.actions .button{margin-top:0}
/* The home page: a bank account's figures beside its chart of the last weeks. */
.home-bank-body{display:grid;grid-template-columns:minmax(11rem,15rem) minmax(0,1fr);gap:1rem 2rem;align-items:start}
@media (max-width:52rem){.home-bank-body{grid-template-columns:minmax(0,1fr)}}
figure.weeks{margin:0}
figure.weeks figcaption{font-weight:600;margin-bottom:.3rem}
.legend{font-weight:400;font-size:.9rem;color:var(--muted);white-space:nowrap}
.swatch{display:inline-block;width:.8rem;height:.8rem;border-radius:2px;vertical-align:-.05rem;margin:0 .3rem 0 .6rem}
.swatch.written{background:#1f4e8c}.swatch.cleared{background:#2f8f57}
.weeks-chart{display:block;width:100%;max-width:34rem;height:auto}
.weeks-chart .bar-written{fill:#1f4e8c}.weeks-chart .bar-cleared{fill:#2f8f57}
.weeks-chart .grid{stroke:#d8dde3;stroke-width:1}
.weeks-chart .axis{fill:#5b6570;font-size:11px}
figure.weeks details{margin-top:.5rem}
figure.weeks summary{cursor:pointer;color:var(--brand);font-weight:600}
ul.recent{margin:0 0 .5rem}ul.recent li{margin:.3rem 0}
@media (max-width:40rem){h1{font-size:1.35rem}main{padding:.75rem}th,td{padding:.45rem .5rem}}
`;

const JS = `
document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent.trim();
  var done = function () { button.textContent = 'Copied'; setTimeout(function () { button.textContent = 'Copy'; }, 2000); };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, function () { selectText(source); });
  } else {
    selectText(source);
  }
});
// Write a check (panel/checks/write/form-fields.ts): the amount in words as it is typed, asked of the server
// (/panel/amount-in-words runs the PDF's own converter), and the payee box as a combobox whose
// listbox is filled from /panel/payees/search and walked with the arrow keys.
(function () {
  var amount = document.querySelector('input[data-words]');
  if (amount) {
    var words = document.getElementById(amount.getAttribute('data-words'));
    var timer = null;
    var asked = 0;
    amount.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var mine = ++asked;
        fetch('/panel/amount-in-words?amount=' + encodeURIComponent(amount.value), { credentials: 'same-origin' })
          .then(function (r) { return r.json(); })
          .then(function (answer) { if (mine === asked) words.textContent = answer.words; })
          .catch(function () {});
      }, 150);
    });
  }
  var box = document.querySelector('[data-payee-search]');
  if (!box) return;
  var input = box.querySelector('[role=combobox]');
  var list = box.querySelector('[role=listbox]');
  var hidden = box.querySelector('input[name=payeeId]');
  var url = box.getAttribute('data-payee-search');
  var options = [];
  var active = -1;
  var pending = null;
  var asking = 0;
  input.removeAttribute('list');
  function show(open) {
    list.hidden = !open;
    input.setAttribute('aria-expanded', open ? 'true' : 'false');
    if (!open) { active = -1; input.removeAttribute('aria-activedescendant'); }
  }
  function mark(index) {
    active = index;
    var items = list.children;
    for (var i = 0; i < items.length; i++) items[i].setAttribute('aria-selected', i === index ? 'true' : 'false');
    if (index >= 0) {
      input.setAttribute('aria-activedescendant', items[index].id);
      items[index].scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  }
  function pick(index) {
    var payee = options[index];
    if (!payee) return;
    input.value = payee.name;
    hidden.value = payee.payeeId;
    show(false);
  }
  function fill(payees) {
    options = payees;
    list.textContent = '';
    payees.forEach(function (p, i) {
      var li = document.createElement('li');
      li.id = 'payee-option-' + i;
      li.setAttribute('role', 'option');
      li.setAttribute('aria-selected', 'false');
      li.textContent = p.name;
      var more = [p.company, p.email].filter(function (x) { return x; }).join(' · ');
      if (more) { var span = document.createElement('span'); span.className = 'hint'; span.textContent = more; li.appendChild(span); }
      li.addEventListener('mousedown', function (event) { event.preventDefault(); pick(i); });
      list.appendChild(li);
    });
    show(payees.length > 0 && document.activeElement === input);
  }
  function search() {
    var mine = ++asking;
    var join = url.indexOf('?') < 0 ? '?' : '&';
    pending = fetch(url + join + 'term=' + encodeURIComponent(input.value.trim()), { credentials: 'same-origin' })
      .then(function (r) { return r.json(); })
      .then(function (answer) { if (mine === asking) fill(answer.payees || []); })
      .catch(function () {});
  }
  var searchTimer = null;
  input.addEventListener('input', function () {
    // A changed name no longer names the picked payee.
    hidden.value = '';
    clearTimeout(searchTimer);
    searchTimer = setTimeout(search, 150);
  });
  input.addEventListener('keydown', function (event) {
    var open = !list.hidden && options.length > 0;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) { if (options.length > 0) show(true); else search(); return; }
      mark(Math.min(active + 1, options.length - 1));
    } else if (event.key === 'ArrowUp') {
      if (!open) return;
      event.preventDefault();
      mark(Math.max(active - 1, 0));
    } else if (event.key === 'Enter') {
      // Enter picks the marked payee; with the list closed it submits the form as usual.
      if (open && active >= 0) { event.preventDefault(); pick(active); }
    } else if (event.key === 'Escape') {
      if (open) { event.preventDefault(); show(false); }
    }
  });
  input.addEventListener('blur', function () { show(false); });
})();
function selectText(node) {
  var range = document.createRange();
  range.selectNodeContents(node);
  var selection = window.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
}
`;

function versioned(
  name: string,
  extension: string,
  body: string,
  type: string,
): { path: string; body: string; type: string } {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  return { path: `/panel/assets/${name}.${hash}.${extension}`, body, type };
}

export const STYLESHEET = versioned('panel', 'css', CSS, 'text/css; charset=utf-8');
export const SCRIPT = versioned('panel', 'js', JS, 'text/javascript; charset=utf-8');

// The tab icon: a check with a pen stroke, in the panel's colours. An SVG served at the address
// browsers ask for on their own (/favicon.ico) and named by every page, so no page logs a 404.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="7" width="30" height="18" rx="3" fill="#1d4ed8"/><rect x="5" y="18" width="14" height="2" fill="#fff"/><path d="M5 13h9M21 13h6" stroke="#fff" stroke-width="2"/></svg>`;
export const FAVICON = { path: '/favicon.ico', body: ICON, type: 'image/svg+xml' };
