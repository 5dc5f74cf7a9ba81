/**
 * Starts the process's parts one after the other and stops them in reverse order. Each part's
 * stop() is put on a stack the moment its start returns, so the stop order is the reverse of the
 * start order by construction, and a part that fails to start stops the ones already running
 * before the error goes on: never a half-started process.
 */
import type { Logger, Stoppable } from "../core/ports.ts";

export interface NamedPart<S extends Stoppable = Stoppable> {
  name: string;
  start(): Promise<S>;
}

export interface PartStarter {
  /** Starts the part now and puts its stop() on the stack; resolves with what its start returned. */
  start<S extends Stoppable>(name: string, start: () => Promise<S>): Promise<S>;
  /** The same, for a part built as a NamedPart (a tracked one, the broker connection). */
  add<S extends Stoppable>(part: NamedPart<S>): Promise<S>;
}

export interface RunningParts extends Stoppable {
  /** The names of the parts that started, in start order. */
  readonly names: readonly string[];
}

/**
 * Runs `startAll`, which starts the parts in order through the starter it is given. If it
 * throws, what already started is stopped (in reverse) before the error propagates.
 */
export async function startInOrder(
  logger: Logger,
  startAll: (parts: PartStarter) => Promise<void>,
): Promise<RunningParts> {
  const running: { name: string; part: Stoppable }[] = [];
  const names: string[] = [];
  const stopAll = async (): Promise<void> => {
    for (const { name, part } of running.reverse()) {
      try {
        await part.stop();
      } catch (error) {
        logger.error(`stopping ${name} failed`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    running.length = 0;
  };
  const start = async <S extends Stoppable>(name: string, begin: () => Promise<S>): Promise<S> => {
    const part = await begin();
    running.push({ name, part });
    names.push(name);
    return part;
  };
  try {
    await startAll({ start, add: (part) => start(part.name, () => part.start()) });
  } catch (error) {
    await stopAll();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return { names, stop: () => (stopping ??= stopAll()) };
}
