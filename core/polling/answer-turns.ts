/**
 * One answer per turn of the event loop: a poller hands each answer to its destinations (mapping,
 * points encoded, broker messages written) in a turn of its own, so that a round's answers that
 * arrive together never hold the loop for all of them at once, and whatever else is waiting (a
 * scrape of the agent's metrics) is served between two of them. `defer` schedules a callback for
 * a later turn (setImmediate in Node.js); `turn()` resolves in the next turn no answer took yet,
 * one waiter per deferred callback, in the order they asked.
 */
export interface AnswerTurns {
  turn(): Promise<void>;
}

export function createAnswerTurns(defer: (callback: () => void) => void): AnswerTurns {
  const waiting: (() => void)[] = [];
  let scheduled = false;
  function next(): void {
    scheduled = false;
    const resume = waiting.shift();
    if (waiting.length > 0) schedule();
    resume?.();
  }
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    defer(next);
  }
  return {
    turn: () =>
      new Promise<void>((resolve) => {
        waiting.push(resolve);
        schedule();
      }),
  };
}
