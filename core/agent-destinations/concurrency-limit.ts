/** Runs at most `max` tasks at once; the others wait their turn in call order. */

export interface ConcurrencyLimit {
  run<R>(task: () => Promise<R>): Promise<R>;
  /** Tasks running now. */
  active(): number;
}

export function createConcurrencyLimit(max: number): ConcurrencyLimit {
  const limit = Math.max(1, max);
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(task) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      running += 1;
      try {
        return await task();
      } finally {
        running -= 1;
        waiting.shift()?.();
      }
    },
    active: () => running,
  };
}
