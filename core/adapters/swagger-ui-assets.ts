/**
 * The API explorer's files read from the installed `swagger-ui-dist` package (pinned in
 * package.json), each read once and kept in memory. Locally the package is in the project's
 * node_modules; the REST Lambda gets it installed beside its bundle (infra/rest.ts,
 * `nodejs.install`), so one adapter serves both runtimes without a CDN.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** Reads one of the package's files as text (the API explorer's `ExplorerAssets`). */
export interface PackageTextFiles {
  read(name: string): Promise<string>;
}

export class ExplorerAssetError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "ExplorerAssetError";
  }
}

/** The directory of the installed package, resolved from this module (throws when absent). */
function packageDirectory(): string {
  const require = createRequire(import.meta.url);
  return dirname(require.resolve("swagger-ui-dist/package.json"));
}

/** `directory` overrides where the package is (tests); by default it is resolved on first read. */
export function swaggerUiAssets(directory?: string): PackageTextFiles {
  const cache = new Map<string, Promise<string>>();
  let root = directory;
  return {
    read(name) {
      let file = cache.get(name);
      if (file === undefined) {
        file = (async () => {
          try {
            root ??= packageDirectory();
            return await readFile(join(root, name), "utf8");
          } catch (error) {
            cache.delete(name);
            throw new ExplorerAssetError(`API explorer file ${name} cannot be read`, { cause: error });
          }
        })();
        cache.set(name, file);
      }
      return file;
    },
  };
}
