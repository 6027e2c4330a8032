// The page of an upload the import could not read: no dead end. It shows the file's first lines,
// what the import expects (and which exports it reads as they are), and the form to try again or
// as the other kind. Also here: how any page of the imports shows text from a file.
import type { FastifyRequest } from 'fastify';
import type { ImportKind } from '../../domain/import-columns.ts';
import type { Environment } from '../../domain/owner.ts';
import { KNOWN_LAYOUTS, MAX_HEADER_SEARCH } from '../../formats/imports/known-layouts.ts';
import { html, type Html } from '../shell/html.ts';
import { csrfField, withEnv } from '../shell/layout.ts';
import { plainWords } from '../shell/wording.ts';

/** Characters of a header, a cell or a name from the file as a page shows it. */
const SHOWN_CELL_CHARS = 80;

/** Text from the file, cut to SHOWN_CELL_CHARS. */
export const cut = (text: string): string =>
  text.length > SHOWN_CELL_CHARS ? `${text.slice(0, SHOWN_CELL_CHARS)}…` : text;

export const envField = (env: Environment): Html | '' =>
  env === 'live' ? html`<input type="hidden" name="env" value="live">` : '';

/** Lines of a refused file shown on its page. */
const REFUSED_LINES_SHOWN = 8;

/** The "file was not read" page's body: `message` is why the import refused it. */
export function fileNotRead(
  request: FastifyRequest,
  env: Environment,
  kind: ImportKind,
  fileName: string,
  csv: string,
  message: string,
): Html {
  // No dead end: the lines read, what was expected, and the form to try again or as the other kind.
  // Only the file's start is split: a refused file may be megabytes on one line.
  const firstLines = csv
    .slice(0, 8 * 1024)
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/, REFUSED_LINES_SHOWN);
  return html`<h1>The file was not read <span class="hint">(${env})</span></h1>
<div class="problem" role="alert">${plainWords(message)}</div>
<h2>The first lines of ${cut(fileName)}</h2>
<div class="table"><table id="lines-read"><thead><tr><th scope="col">Line</th><th scope="col">Text</th></tr></thead>
<tbody>${firstLines.map((line, i) => html`<tr><td>${i + 1}</td><td>${cut(line)}</td></tr>`)}</tbody></table></div>
<h2>What the import expects</h2>
<p>A CSV file whose header line (within its first ${MAX_HEADER_SEARCH} lines) names the columns — for checks, say <code>Date, Num, Payee, Amount, Memo</code>; for payees <code>Name, Email, Phone, Street, City, State, ZIP</code> — with one row per check or payee below it. Title, total and footer lines are left out by themselves. These exports are read as they are: ${KNOWN_LAYOUTS.map((l) => `${l.label} (${l.kind})`).join('; ')}.</p>
<form method="post" action="/panel/imports/upload" enctype="multipart/form-data" class="card">${csrfField(request)}${envField(env)}
<h2>Try again</h2><p class="hint">Fix the file, or choose what it holds, and upload it again; once it is read, the preview lets you map each column.</p>
<div class="row"><div><label for="kind">The file holds</label><select id="kind" name="kind"><option value="checks"${kind === 'checks' ? html` selected` : ''}>Checks</option><option value="payees"${kind === 'payees' ? html` selected` : ''}>Payees</option></select></div>
<div><label for="file">CSV file</label><input id="file" name="file" type="file" accept=".csv,.iif,text/csv" required></div>
<div><button type="submit">Preview</button></div></div></form>
<p><a href="${withEnv('/panel/imports', env)}">Back to imports</a></p>`;
}
