// "Did you mean …?" for a field a schema does not know: a misspelling of one of our own fields
// (`adress1`, `referenceID` on a route that says `referenceId`) deserves its name, not a bare
// "not allowed" that leaves the client guessing.

/** Levenshtein distance, case-insensitive: a client that only got the case wrong is one letter away at most. */
export function editDistance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
}

/**
 * The closest of `known` to `name`, when close enough to be a slip of the keyboard: at most two
 * edits, and fewer than a third of the name (so `id` is not "meant" for `to`). Ties go to the
 * first in schema order; a different casing of a known name always wins.
 */
export function closestField(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  const letters = name.replace(/[0-9]/g, '');
  for (const candidate of known) {
    // `element11` beside `element1`…`element10` is a numbered field out of range, not a slip.
    if (candidate.replace(/[0-9]/g, '') === letters && candidate !== name) continue;
    const distance = candidate.toLowerCase() === name.toLowerCase() ? 0 : editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.min(2, Math.floor(Math.max(name.length, 1) / 3));
  return bestDistance <= limit ? best : undefined;
}
