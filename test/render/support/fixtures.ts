// Fictional check data shared by the render tests, the sample script and the speed script.

import type { CheckDocument } from '../../../src/render/check-document.ts';

export function sampleCheck(overrides: Partial<CheckDocument> = {}): CheckDocument {
  return {
    environment: 'live',
    from: {
      name: 'Bluebird Garden Supply LLC',
      addressLines: ['1200 Orchard Lane, Suite 4', 'Springfield, IL 62704', '(217) 555-0142'],
    },
    bankName: 'First Prairie Community Bank',
    // Passes the ABA checksum, but prefix 50 is not assigned to any US bank: safely fictional.
    routingNumber: '500000005',
    accountNumber: '0012345678',
    checkNumber: '10001',
    issueDate: '2026-11-21',
    payee: {
      name: 'Harper & Lowe Irrigation Co.',
      addressLines: ['88 Riverside Drive', 'Peoria, IL 61602'],
    },
    amountCents: 123456,
    memo: 'October irrigation repairs',
    invoiceNumber: 'INV-2026-0415',
    signature: null,
    customElements: {},
    noSign: false,
    noAmount: false,
    noDate: false,
    noPayee: false,
    voucher: null,
    ...overrides,
  };
}
