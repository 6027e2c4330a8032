// The panel's one vocabulary for people. The API words its validation messages
// with its own field paths, as the spec requires ("The checks.0.issueDate field must be …"); a
// panel page shows the same rule with the words the person sees: the form's label ("The date
// field …"), or, on an import's preview, the file's own column header and cell ("Column “Date”,
// "02/30/2026", is not a date …"). Every panel page that shows an API message passes it here.

import { printable } from '../../domain/safe-text.ts';

/** API field names in plain words: for a message that names a field the page has no label for. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  accountNumber: 'account number',
  addressLine1: 'address line 1',
  addressLine2: 'address line 2',
  address1: 'address line 1',
  address2: 'address line 2',
  bankAccountId: 'bank account',
  bankAddress: 'bank address',
  bankName: 'bank name',
  categoryId: 'category',
  checkId: 'check',
  clearedDate: 'cleared date',
  companyName: 'company',
  customElements: 'custom elements',
  fromAddressId: 'drawer address',
  invoiceNumber: 'invoice number',
  issueDate: 'date',
  nickName: 'nickname',
  noAmount: 'no amount',
  noDate: 'no date',
  noPayee: 'no payee',
  noSign: 'no signature',
  payeeEmail: "payee's email",
  payeeId: 'payee',
  payeePhone: "payee's phone",
  referenceId: 'reference',
  routingNumber: 'routing number',
  sendAttachment: 'attachment',
  serialNumber: 'check number',
  startingSerialNumber: 'first check number',
  timeZone: 'time zone',
  unitCost: 'unit cost',
  voucherId: 'voucher',
  voucherItems: 'voucher lines',
};

/** The words for an API field name (the name itself when it is already a word). */
export function wordsFor(field: string): string {
  return FIELD_WORDS[field] ?? field;
}

/** The API path a validation message names ("The checks.0.amount field …", "The selected x is invalid."). */
export function pathInMessage(message: string): string | null {
  return /^The (?:selected )?([A-Za-z0-9_.]+) /.exec(message)?.[1] ?? null;
}

const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A label as it reads inside a sentence: "Routing number" -> "routing number"; "ZIP code" stays. */
export function inSentence(label: string): string {
  return /^[A-Z][A-Z]/.test(label) ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * An API message about `path` worded with the form's label for it: "The routingNumber field must
 * be 9 digits." -> "The routing number field must be 9 digits.". Any other API name left in the
 * message is put in plain words too.
 */
export function withLabel(message: string, path: string, label: string): string {
  const own = message.replace(new RegExp(`\\b${literal(path)}\\b`, 'g'), inSentence(label));
  return plainWords(own);
}

/**
 * A message with every API name in it put in plain words: paths lose their item prefixes
 * ("checks.0.", "payees.3.") and known field names become words. For messages no label places
 * (a page-wide problem).
 */
export function plainWords(message: string): string {
  return message
    .replace(/\b(?:checks|payees|bankAccounts|categories|items|addresses)\.\d+\./g, '')
    .replace(/\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/g, (word) => FIELD_WORDS[word] ?? word);
}

/**
 * A row's message on an import preview, worded with the file's own column: `column` is the
 * header of the column the field came from (null when no column holds it), `value` what that
 * cell holds. "The amount field must be greater than 0." -> `Column “Amount”, "0", must be
 * greater than 0.`; an empty required cell -> `Column “Name” is empty: a check needs a payee.`
 */
export function inFileWords(
  message: string,
  field: string,
  column: string | null,
  value: string | null,
  missing: string,
): string {
  const subject = column === null ? missing : `Column “${column}”`;
  // A cell is quoted cut, and with any control character written as its code (never echoed raw).
  // The column's name and the cell are the file's text: they go into the messages through replacer
  // functions, never as a replacement string, where `$1`, `$&` and `$'` would be read as patterns.
  const quoted =
    value === null || value === '' ? null : `"${printable(value.length > 40 ? `${value.slice(0, 40)}…` : value)}"`;
  const path = literal(field);
  const required = new RegExp(`^The ${path} field is required\\.$`);
  if (required.test(message))
    return column === null
      ? `${missing}: choose it above or add a column for it.`
      : `${subject} is empty: it is required.`;
  // The message already quotes the cell ("The amount field "1,23" is ambiguous …").
  const quoting = new RegExp(`^The ${path} field ("[^"]*") `);
  if (quoting.test(message))
    return plainWords(message.replace(quoting, (_all, cell: string) => `${subject}, ${cell}, `));
  // A name the file gives that matches none ("The payee "Acme" is not one of your payees").
  const naming = new RegExp(`^The ${path} ("[^"]*") `);
  if (naming.test(message)) return plainWords(message.replace(naming, (_all, name: string) => `${subject}: ${name} `));
  const named = new RegExp(`^The (selected )?${path}( field)? `);
  if (named.test(message))
    return plainWords(message.replace(named, () => (quoted === null ? `${subject} ` : `${subject}, ${quoted}, `)));
  return plainWords(message);
}

/** An import's fields as its column menus name them (docs/imports.md lists the columns each takes). */
const IMPORT_FIELD_LABELS: Readonly<Record<string, string>> = {
  bankAccountId: 'Bank account',
  payee: 'Payee (name or id)',
  payeeId: 'Payee id',
  category: 'Category (name or id)',
  serialNumber: 'Check number',
  issueDate: 'Date',
  amount: 'Amount',
  memo: 'Memo',
  note: 'Note (not printed)',
  accountNumber: "Payee's account number",
  invoiceNumber: 'Invoice number',
  referenceId: 'Your reference',
  noSign: 'No signature (yes/no)',
  noAmount: 'No amount (yes/no)',
  noDate: 'No date (yes/no)',
  noPayee: 'No payee (yes/no)',
  name: 'Name',
  nickName: 'Nickname',
  company: 'Company',
  email: 'Email',
  phone: 'Phone',
  address1: 'Address line 1',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'ZIP code',
  country: 'Country',
};

export function importFieldLabel(field: string): string {
  return IMPORT_FIELD_LABELS[field] ?? wordsFor(field);
}
