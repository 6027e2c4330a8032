/** A bank account number as the API and panel show it: the last four digits only. */
export function maskAccountNumber(accountNumber: string): string {
  return accountNumber.length <= 4 ? accountNumber : `****${accountNumber.slice(-4)}`;
}
