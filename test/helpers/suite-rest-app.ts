/**
 * A REST test app (rest-app.ts) for the tests of one file or `describe`: built before them and
 * closed, its directory removed, after them; or, with `perTest`, a new one for every test.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { createRestTestApp, type RestTestApp, type RestTestAppOptions, removeDir } from "./rest-app.ts";

/**
 * Call it at the top of a file or a `describe`. What it returns stands for the app of the moment:
 * its members are read from the app built for the running test(s).
 */
export function restTestAppForSuite(
  options: RestTestAppOptions = {},
  { perTest = false }: { perTest?: boolean } = {},
): RestTestApp {
  let current: RestTestApp | undefined;
  (perTest ? beforeEach : beforeAll)(async () => {
    current = await createRestTestApp(options);
  });
  (perTest ? afterEach : afterAll)(async () => {
    const app = current;
    current = undefined;
    if (app === undefined) return;
    await app.close();
    await removeDir(app.dir);
  });
  return new Proxy({} as RestTestApp, {
    get(_target, member) {
      if (current === undefined) throw new Error("the REST test app is built before the suite's tests");
      return Reflect.get(current, member);
    },
  });
}
