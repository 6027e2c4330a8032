// How often the event loop came round while some work ran: a counter that re-arms itself with
// setImmediate each turn. Tests that work gives the loop back count turns, never time.

/** Starts counting turns now; stop() ends the count and answers it. */
export function turnCounter(): { stop(): number } {
  let turns = 0;
  let counting = true;
  const count = (): void => {
    if (!counting) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  return {
    stop: () => {
      counting = false;
      return turns;
    },
  };
}
