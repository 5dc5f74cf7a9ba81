/**
 * Starts the process's parts one after the other and stops them in reverse order. Each part's
 * stop() is put on a stack the moment its start returns, so the stop order is the reverse of the
 * start order by construction, and a part that fails to start stops the ones already running
 * before the error goes on: never a half-started process.
 */
import type { Logger, Service } from "../core/ports.ts";

export interface NamedService<S extends Service = Service> {
  name: string;
  start(): Promise<S>;
}

export interface PartStarter {
  /** Starts the part now and puts its stop() on the stack; resolves with what its start returned. */
  start<S extends Service>(name: string, start: () => Promise<S>): Promise<S>;
  /** The same, for a part built as a NamedService (a tracked one, the broker connection). */
  add<S extends Service>(part: NamedService<S>): Promise<S>;
}

export interface RunningParts extends Service {
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
  const running: { name: string; service: Service }[] = [];
  const names: string[] = [];
  const stopAll = async (): Promise<void> => {
    for (const { name, service } of running.reverse()) {
      try {
        await service.stop();
      } catch (error) {
        logger.error(`stopping ${name} failed`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    running.length = 0;
  };
  const start = async <S extends Service>(name: string, begin: () => Promise<S>): Promise<S> => {
    const service = await begin();
    running.push({ name, service });
    names.push(name);
    return service;
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
