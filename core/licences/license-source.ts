/**
 * What the licence monitor reads from (and, to release a licence, writes to) the platform: the
 * port the adapter (core/adapters/platform/license-repository.ts) implements and tests replace.
 * Every call takes the monitor's AbortSignal, so a shutdown gives a slow call up at once; every
 * failure rejects with a typed platform error naming the call. Its contract suite is
 * test/contracts/licence-source.contract.ts.
 */
import type { AccessLicenceEntry, LicenceUser, ReleasableType } from "./release-rules.ts";

export interface LicenseSource {
  /** `GET /qrs/license/accesstypeoverview`: the body, for readAccessLicences. */
  accessTypeOverview(signal?: AbortSignal): Promise<unknown>;
  /** `GET /qrs/license`: the body, for readServerLicence. */
  serverLicence(signal?: AbortSignal): Promise<unknown>;
  /** `GET /v1/systeminfo` on the version host and port: the body, for readVersionInfo. */
  systemInfo(signal?: AbortSignal): Promise<unknown>;
  /** `GET /qrs/license/<type>accesstype/full` filtered on `lastUsed le <cutoff>`. */
  accessLicences(
    type: ReleasableType,
    cutoffIso: string,
    signal?: AbortSignal,
  ): Promise<AccessLicenceEntry[]>;
  /** `GET /qrs/user/<id>`. */
  user(id: string, signal?: AbortSignal): Promise<LicenceUser>;
  /** `DELETE /qrs/license/<type>accesstype/<id>`: resolves once the repository answered 204. */
  release(type: ReleasableType, licenceId: string, signal?: AbortSignal): Promise<void>;
  close(): void;
}
