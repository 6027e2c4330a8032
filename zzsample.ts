import type { CheckDocument } from './src/render/check-document.ts';
export function sample(i: number): CheckDocument {
  return {
    environment: 'live',
    from: { name: 'Bluebird Garden Supply LLC', addressLines: ['1200 Orchard Lane, Suite 4', 'Springfield, IL 62704'] },
    bankName: 'First Prairie Community Bank',
    routingNumber: '011000015',
    accountNumber: '123456789',
    checkNumber: String(10001 + i),
    issueDate: '2026-11-21',
    payee: { name: 'Harper & Lowe Irrigation Co.', addressLines: ['88 Riverside Drive', 'Peoria, IL 61602'] },
    amountCents: 123456 + i,
    memo: 'October irrigation repairs',
    invoiceNumber: `INV-${i}`,
    signature: null,
    customElements: { element1: 'Dept 7' },
    noSign: false,
    noAmount: false,
    noDate: false,
    noPayee: false,
    voucher: {
      voucherNumber: 'V-7781',
      date: '2026-11-20',
      memo: 'Net 30',
      items: [
        {
          invoiceNumber: 'INV-0415',
          name: 'Drip line',
          description: 'Drip line repair, zones 3 and 4',
          quantity: 1,
          unitCostCents: 84000,
          totalCents: 84000,
        },
        {
          invoiceNumber: 'INV-0416',
          name: 'Controller',
          description: 'Smart controller, 12 zones',
          quantity: 2,
          unitCostCents: 19728,
          totalCents: 39456 + i,
        },
      ],
    },
  };
}
