/**
 * One licence monitor run's readings: the access licences, the server licence and the version,
 * each read only when its switch is on, and each on its own, so that one that fails (named in
 * `errors`, and told to `onError` for the log and the error tracking) never keeps the others from
 * going out. A reading the signal gave up (Steward stopping) is no failure: it is left out, and
 * neither named in `errors` nor told to `onError`.
 */
import type { LicenseMonitorConfig } from "../../../core/config/index.ts";
import {
  type AccessLicenceReading,
  type LicenseSource,
  readAccessLicences,
  readServerLicence,
  readVersionInfo,
  type ServerLicenceReading,
  type VersionReading,
} from "../../../core/licences/index.ts";
import { describeError } from "../../../core/shared/describe-error.ts";

export interface LicenceRunReadings {
  readonly access: readonly AccessLicenceReading[] | undefined;
  readonly server: ServerLicenceReading | undefined;
  readonly version: VersionReading | undefined;
  /** The failed readings by name (`accessLicences`, `serverLicence`, `version`): why each failed. */
  readonly errors: Readonly<Record<string, string>>;
}

export interface ReadLicencesOptions {
  readonly source: LicenseSource;
  readonly settings: Pick<LicenseMonitorConfig, "accessLicenses" | "serverLicense" | "version">;
  readonly atMs: number;
  readonly signal: AbortSignal;
  /** Told of each failed reading: its name, what it is in words, and the error. */
  readonly onError: (name: string, what: string, error: unknown) => void;
}

export async function readLicences(options: ReadLicencesOptions): Promise<LicenceRunReadings> {
  const { source, settings, atMs, signal } = options;
  const errors: Record<string, string> = {};
  async function reading<T>(name: string, what: string, on: boolean, read: () => Promise<T>) {
    if (!on || signal.aborted) return undefined;
    try {
      return await read();
    } catch (error) {
      if (signal.aborted) return undefined;
      errors[name] = describeError(error);
      options.onError(name, what, error);
      return undefined;
    }
  }
  const access = await reading(
    "accessLicences",
    "access licence overview",
    settings.accessLicenses.enable,
    async () => readAccessLicences(await source.accessTypeOverview(signal)),
  );
  const server = await reading("serverLicence", "server licence", settings.serverLicense.enable, async () =>
    readServerLicence(await source.serverLicence(signal), atMs),
  );
  const version = await reading("version", "platform version", settings.version.enable, async () =>
    readVersionInfo(await source.systemInfo(signal)),
  );
  return { access, server, version, errors };
}
