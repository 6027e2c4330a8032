/** A bank account number as the API and panel show it: the last four digits only. */
export function maskAccountNumber(accountNumber: string): string {
  return accountNumber.length <= 4 ? accountNumber : `****${accountNumber.slice(-4)}`;
}

/**
 * The account number a test environment's checks carry in their MICR line, whatever the bank
 * account holds. Test bank accounts often hold the real number, and a test check is a picture of a
 * check anyone with a test key can download: it must not print a number a forger could use. A
 * fixed number, not one derived from the real one, so nothing of the real number can be recovered
 * from it; the routing number stays, so the line still reads as that bank's.
 */
export const TEST_ACCOUNT_NUMBER = '000123456789';
