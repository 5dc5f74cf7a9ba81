/**
 * The API explorer's files from the pinned `swagger-ui-dist` package, each read once and kept in
 * memory. Read through shipped-files.ts: from the project's node_modules locally, from the
 * package installed beside the bundle in Lambda (infra/rest.ts, `nodejs.install`), from the
 * executable's assets in the executables of `npm run package`; so one adapter serves every
 * runtime without a CDN.
 */
import { readShippedText, type ShippedFile } from "./shipped-files.ts";

/** Reads one of the package's files as text (the API explorer's `ExplorerAssets`). */
export interface PackageTextFiles {
  read(name: string): Promise<string>;
}

export const SWAGGER_UI_PACKAGE = "swagger-ui-dist";

/** The package file served under `name`. */
export function swaggerUiFile(name: string): ShippedFile {
  return { package: SWAGGER_UI_PACKAGE, file: name };
}

export class ExplorerAssetError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "ExplorerAssetError";
  }
}

export function swaggerUiAssets(): PackageTextFiles {
  const cache = new Map<string, Promise<string>>();
  return {
    read(name) {
      let file = cache.get(name);
      if (file === undefined) {
        file = (async () => {
          try {
            return await readShippedText(swaggerUiFile(name));
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
