// A check's amount as the API reads it (a number or a numeric string), in cents, with the rule's
// message naming the field when it is not one.
import { parseAmountToCents, type AmountProblem } from '../../domain/money.ts';
import { rules } from '../validation.ts';

function amountRule(path: string, problem: AmountProblem) {
  switch (problem) {
    case 'format':
      return rules.custom(path, 'must be a number');
    case 'precision':
      return rules.custom(path, 'must have at most 2 decimal places');
    case 'positive':
      return rules.custom(path, 'must be greater than 0');
    case 'max':
      return rules.custom(path, 'must not be greater than 99999999.99');
  }
}

export function cents(path: string, value: number | string): number {
  const parsed = parseAmountToCents(value);
  if ('problem' in parsed) throw amountRule(path, parsed.problem);
  return parsed.cents;
}
