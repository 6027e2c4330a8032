// Task: the MICR test page of a bank account (GET /bankAccounts/{id}/micr-test.pdf and the panel's
// link). The bank account is read on the main thread; only the drawing runs here.
import { type MicrTestPageInput, renderMicrTestPagePdf } from '../../render/micr-test-page.ts';
import { outcomeOf, type RenderOutcome } from './render-outcome.ts';

export function run(input: MicrTestPageInput): Promise<RenderOutcome> {
  return outcomeOf(() => renderMicrTestPagePdf(input));
}
