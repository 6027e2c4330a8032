// JPMorgan Chase "ARP Standard Input & Output Specifications", issue records, positions 1–94.
// Source: the bank's one-page specification as published at
// https://ja.scribd.com/document/391740224/ARP-Standard-Input-and-Output-Spec ("ARP Standard Input
// and Output Spec"; Bank One, now part of JPMorgan Chase), also reproduced in a payables vendor's
// manual (M500-AP-1002, https://wells.manymanuals.com/food-warmers/m500/user-manual-31821/7).
// Tested against the record built by hand from that field table (the spec prints no sample line):
// test/fixtures/positive-pay/chase-arp.txt.
import type { PositivePayLayout } from './layout.ts';

const SPACE = { source: { kind: 'filler' }, width: 1 } as const;

export const CHASE_ARP: PositivePayLayout = {
  name: 'fixed',
  title: 'JPMorgan Chase ARP Standard Input (fixed width, 94)',
  source: {
    url: 'https://ja.scribd.com/document/391740224/ARP-Standard-Input-and-Output-Spec',
    document: 'ARP Standard Input & Output Specifications',
    sample: 'no sample line in the spec; expected record built by hand from its field table',
  },
  record: { kind: 'fixed' },
  codes: { issue: 'I', void: 'V' },
  detail: [
    { source: { kind: 'code' }, width: 1 }, // 1: record type
    SPACE, // 2
    { source: { kind: 'accountNumber' }, width: 20 }, // 3–22
    SPACE, // 23
    { source: { kind: 'checkNumber' }, width: 18 }, // 24–41
    SPACE, // 42
    { source: { kind: 'amount', format: 'cents' }, width: 18 }, // 43–60, 9(16)V99
    SPACE, // 61
    { source: { kind: 'issueDate', format: 'YYYYMMDD' }, width: 8 }, // 62–69
    SPACE, // 70
    { source: { kind: 'filler' }, width: 8 }, // 71–78: paid date, spaces on input files
    SPACE, // 79
    { source: { kind: 'payee' }, width: 15 }, // 80–94: Additional Data
  ],
  lineEnding: '\r\n',
  text: 'asciiUpper',
  extension: 'txt',
  contentType: 'text/plain; charset=us-ascii',
};
