/**
 * A resource for the tests of one file or `describe` (a server, an app): started before them, or
 * before each with `perTest`, and stopped after. What it returns stands for the resource of the
 * moment: its members are read from the one started for the running test(s). With `skip`
 * (the tests are skipped) nothing is started.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

export interface SuiteResourceOptions {
  perTest?: boolean;
  skip?: boolean;
}

/** Call it at the top of a file or a `describe`; `what` names the resource in errors. */
export function resourceForSuite<T extends object>(
  what: string,
  start: () => Promise<T>,
  stop: (resource: T) => Promise<void>,
  { perTest = false, skip = false }: SuiteResourceOptions = {},
): T {
  let current: T | undefined;
  (perTest ? beforeEach : beforeAll)(async () => {
    if (!skip) current = await start();
  });
  (perTest ? afterEach : afterAll)(async () => {
    const resource = current;
    current = undefined;
    if (resource !== undefined) await stop(resource);
  });
  return new Proxy({} as T, {
    get(_target, member) {
      if (current === undefined) throw new Error(`the ${what} is started before the suite's tests`);
      return Reflect.get(current, member);
    },
  });
}
