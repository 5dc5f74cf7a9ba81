/**
 * Files Steward reads at run time that are not code (the API explorer's Swagger UI files), read
 * from wherever this Steward runs. Inside the executables of `npm run package` (steward.exe,
 * steward: Node single-executable applications) they are the executable's assets, stored at build
 * time under the key `<package>/<file>` (bin/package/single-executable.ts), because an executable
 * runs with no node_modules beside it. Everywhere else they are the files of the installed npm
 * package: the project's node_modules locally, the package installed beside the bundle in Lambda.
 * Every such file is read through here, so a file that is found from source is found in the
 * executable too.
 */
import { readFile } from "node:fs/promises";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join } from "node:path";

/** A file of an npm package that Steward reads at run time. */
export interface ShippedFile {
  package: string;
  /** Its path inside the package, with `/`. */
  file: string;
}

/** The key a file is stored under in the executable's assets. */
export function shippedFileKey({ package: name, file }: ShippedFile): string {
  return `${name}/${file}`;
}

type SingleExecutable = typeof import("node:sea");

/**
 * The single-executable API when this process is one, else undefined. `node:sea` exists from
 * Node 20.12; on an older Node the process is never an executable of the package.
 */
function singleExecutable(): SingleExecutable | undefined {
  if (!isBuiltin("node:sea")) return undefined;
  const sea = createRequire(import.meta.url)("node:sea") as SingleExecutable;
  return sea.isSea() ? sea : undefined;
}

/** True in the executables of `npm run package` (steward.exe, steward), false under node. */
export function isPackagedExecutable(): boolean {
  return singleExecutable() !== undefined;
}

/** The file's text (UTF-8); rejects when it is not there. */
export async function readShippedText(file: ShippedFile): Promise<string> {
  const executable = singleExecutable();
  if (executable !== undefined) return executable.getAsset(shippedFileKey(file), "utf8");
  const directory = dirname(createRequire(import.meta.url).resolve(`${file.package}/package.json`));
  return readFile(join(directory, file.file), "utf8");
}
