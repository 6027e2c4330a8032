// A tool some tests need from the machine (Chromium, poppler's pdftoppm): where it is missing the
// tests are skipped with a note naming how to install it, except in CI (CI=true), where a missing
// tool fails the run instead of silently testing less.
export function requiredInCiElseSkipped(present: boolean, what: string, install: string): boolean {
  if (present) return true;
  if (process.env.CI === 'true') throw new Error(`${what} is required in CI and is missing (${install})`);
  process.stderr.write(`\n${what} missing, its tests skipped (${install})\n`);
  return false;
}
