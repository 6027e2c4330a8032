// ABA routing transit numbers: nine digits whose weighted sum (3, 7, 1 repeating) is a
// multiple of 10. Checked when a bank account is created and again before a MICR line is drawn.

const WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1];

export function isValidRoutingNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i += 1) sum += Number(value[i]) * (WEIGHTS[i] as number);
  return sum % 10 === 0;
}
