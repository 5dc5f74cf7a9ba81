/**
 * Fetches a pinned npm package's tarball with `npm pack` (the registry npm is configured with)
 * into the cache directory, checks it against its pinned integrity every time it is used, and
 * unpacks it once. A cached tarball that no longer matches is fetched again; a fresh one that
 * does not match stops the build, naming both digests.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { PinnedPackage } from "./pinned-packages.ts";

/** The tarball's integrity in the registry's form: `sha512-<base64>`. */
export function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

/** Fetches (or finds in `cache`) the package and returns the directory it is unpacked in (its `package/`). */
export function fetchPinnedPackage(pinned: PinnedPackage, cache: string): string {
  const id = `${pinned.name}-${pinned.version}`;
  const tarball = join(cache, `${id}.tgz`);
  const unpacked = join(cache, id);
  if (!existsSync(tarball) || integrityOf(tarball) !== pinned.integrity) {
    rmSync(unpacked, { recursive: true, force: true });
    download(pinned, tarball);
  }
  if (!existsSync(join(unpacked, "package", "package.json"))) {
    const partial = mkdtempSync(join(cache, `${id}.unpacking-`));
    execFileSync("tar", ["-xzf", tarball, "-C", partial]);
    rmSync(unpacked, { recursive: true, force: true });
    renameSync(partial, unpacked);
  }
  return join(unpacked, "package");
}

function download(pinned: PinnedPackage, tarball: string): void {
  const spec = `${pinned.name}@${pinned.version}`;
  console.error(`fetching ${spec} from the npm registry`); // standard output is for results
  const cache = join(tarball, "..");
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, "download-"));
  try {
    execFileSync("npm", ["pack", spec, "--pack-destination", staging, "--silent"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    const fetched = join(staging, `${pinned.name}-${pinned.version}.tgz`);
    const found = integrityOf(fetched);
    if (found !== pinned.integrity) {
      throw new Error(`${spec}: the registry's tarball is ${found}, not the pinned ${pinned.integrity}`);
    }
    renameSync(fetched, tarball);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
