/**
 * Starts services in order and stops them in reverse order. If one fails to start, the ones
 * already running are stopped before the error propagates: never a half-started process.
 */
import type { Logger, Service } from "../core/ports.ts";

export interface NamedService {
  name: string;
  start(): Promise<Service>;
}

export async function startInOrder(services: readonly NamedService[], logger: Logger): Promise<Service> {
  const running: { name: string; service: Service }[] = [];
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
  for (const entry of services) {
    try {
      running.push({ name: entry.name, service: await entry.start() });
    } catch (error) {
      await stopAll();
      throw error;
    }
  }
  let stopping: Promise<void> | undefined;
  return { stop: () => (stopping ??= stopAll()) };
}
