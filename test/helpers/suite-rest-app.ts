/**
 * A REST test app (rest-app.ts) for the tests of one file or `describe`: built before them and
 * closed, its directory removed, after them; or, with `perTest`, a new one for every test.
 */
import { createRestTestApp, type RestTestApp, type RestTestAppOptions, removeDir } from "./rest-app.ts";
import { resourceForSuite } from "./suite-resource.ts";

/** Call it at the top of a file or a `describe`; what it returns stands for the app of the moment. */
export function restTestAppForSuite(
  options: RestTestAppOptions = {},
  { perTest = false }: { perTest?: boolean } = {},
): RestTestApp {
  return resourceForSuite(
    "REST test app",
    () => createRestTestApp(options),
    async (app) => {
      await app.close();
      await removeDir(app.dir);
    },
    { perTest },
  );
}
