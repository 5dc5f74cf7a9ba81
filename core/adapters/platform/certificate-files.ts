/**
 * The `cert.*` files of the monitoring calls, re-read when they change on disk (path, size or
 * modification time), so that a certificate renewed on the platform and copied over the old files
 * is taken without a restart.
 *
 * - The files are stat'ed on demand, by the calls, at most once per `checkIntervalMs` (1 s by
 *   default): a round of 200 servers costs one check, not 200, and no timer runs between rounds.
 * - When a file changed, all three are read again and checked to form a usable client
 *   certificate (a TLS context is built from them: a half-copied PEM or a wrong passphrase fails
 *   here, not in every call). That context is the one every connection of that material uses:
 *   built once, not once per connection (200 servers' connections would otherwise each parse
 *   the certificate, key and CA and keep their own copy, about 2 ms and tens of KB each).
 * - When that fails, the previous material stays in use and the failure is logged at WARN once
 *   per state of the files (not once per call); the calls go on. Monitoring with the previous
 *   certificate is better than none while someone is still copying files; once the files are
 *   whole again the next check takes them.
 * - A file that is gone (or cannot be stat'ed: no permission) is different: someone removed the
 *   certificate, and calls with one the operator took away must not go on unnoticed. Until it is
 *   back `current()` rejects with CertificateFilesUnavailableError, which the pollers take as
 *   "skip this round" (PlatformMonitor.ready); one ERROR names the file and the reason (once per
 *   state of the files, not per call or round), and an INFO says when it is back and calls go on.
 * - At open, a file that cannot be read or material that does not work is a
 *   PlatformCertificateError (a start-up error).
 */
import { stat } from "node:fs/promises";
import { createSecureContext, type SecureContext } from "node:tls";
import { PlatformCertificateError, PlatformError } from "../../platform/index.ts";
import type { Clock, Logger } from "../../ports.ts";
import type { PlatformCertificateOptions, PlatformTlsMaterial } from "./options.ts";
import { loadPlatformTlsMaterial } from "./tls-material.ts";

/** The material in use, its TLS context and a number that grows each time it was reloaded. */
export interface CertificateSnapshot {
  readonly material: PlatformTlsMaterial;
  /** Client certificate, key and CA as one TLS context, for every connection of this material. */
  readonly secureContext: SecureContext;
  readonly generation: number;
}

interface Usable {
  readonly material: PlatformTlsMaterial;
  readonly secureContext: SecureContext;
}

export interface CertificateFiles {
  /**
   * The current material, after checking the files when the last check is old enough; rejects
   * with CertificateFilesUnavailableError while a file is gone.
   */
  current(): Promise<CertificateSnapshot>;
}

/** A `cert.*` file is gone or cannot be stat'ed: no call is made until it is back. */
export class CertificateFilesUnavailableError extends PlatformError {
  override name = "CertificateFilesUnavailableError";
}

export interface CertificateFilesOptions {
  /** Absolute paths (the opener resolves them from the working directory). */
  readonly files: PlatformCertificateOptions;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Minimum time between two checks of the files; 1000 ms by default. */
  readonly checkIntervalMs?: number;
}

interface FilesState {
  /** path, size and mtime of each file; a file that cannot be stat'ed contributes its error code. */
  signature: string;
  /** `path (CODE)` of each file that cannot be stat'ed. */
  missing: string[];
}

async function stateOf(files: PlatformCertificateOptions): Promise<FilesState> {
  const paths = [files.clientCert, files.clientCertKey, files.clientCertCA].filter((path) => path !== "");
  const missing: string[] = [];
  const parts = await Promise.all(
    paths.map(async (path) => {
      try {
        const info = await stat(path);
        return `${path}|${info.size}|${info.mtimeMs}`;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
        missing.push(`${path} (${code})`);
        return `${path}|${code}`;
      }
    }),
  );
  return { signature: parts.join("\n"), missing: missing.sort() };
}

/** Reads the files and checks that they form a usable client certificate: its TLS context. */
async function loadUsable(files: PlatformCertificateOptions): Promise<Usable> {
  const material = await loadPlatformTlsMaterial(files);
  try {
    const secureContext = createSecureContext({
      cert: material.cert,
      key: material.key,
      ...(material.ca === undefined ? {} : { ca: material.ca }),
      ...(material.passphrase === undefined ? {} : { passphrase: material.passphrase }),
    });
    return { material, secureContext };
  } catch (error) {
    // OpenSSL's reason (bad decrypt, no start line, key mismatch...) names no key material.
    throw new PlatformCertificateError(
      `Service.cert: ${files.clientCert} and ${files.clientCertKey} do not form a usable client certificate (${(error as Error).message})`,
      { cause: error },
    );
  }
}

/** Reads the files once (PlatformCertificateError when they cannot be used) and watches them on demand. */
export async function openCertificateFiles(options: CertificateFilesOptions): Promise<CertificateFiles> {
  const { files, clock, logger } = options;
  const checkIntervalMs = options.checkIntervalMs ?? 1000;
  let loadedSignature = (await stateOf(files)).signature;
  let snapshot: CertificateSnapshot = { ...(await loadUsable(files)), generation: 1 };
  let failedSignature: string | undefined;
  /** Set while a file is gone: what `current()` rejects with. */
  let unavailable: { error: CertificateFilesUnavailableError; missing: string; sinceMs: number } | undefined;
  let lastCheck = clock.now();
  let checking: Promise<CertificateSnapshot> | undefined;

  /** Rejects while a file is gone (one ERROR per set of missing files); notes when all are back. */
  function checkPresent(missing: readonly string[]): void {
    if (missing.length === 0) {
      if (unavailable === undefined) return;
      logger.info("platform certificate files are back; platform calls go on", {
        clientCert: files.clientCert,
        missingForMs: clock.now() - unavailable.sinceMs,
      });
      unavailable = undefined;
      return;
    }
    const list = missing.join(", ");
    if (unavailable?.missing !== list) {
      logger.error(
        "platform certificate file missing or unreadable; platform polls are skipped until it is back",
        {
          files: list,
        },
      );
      unavailable = {
        error: new CertificateFilesUnavailableError(
          `Service.cert: ${list}: the client certificate is missing; calls are skipped until it is back`,
        ),
        missing: list,
        sinceMs: unavailable?.sinceMs ?? clock.now(),
      };
    }
    throw unavailable.error;
  }

  async function check(): Promise<CertificateSnapshot> {
    lastCheck = clock.now();
    const { signature, missing } = await stateOf(files);
    checkPresent(missing);
    if (signature === loadedSignature) return snapshot;
    try {
      const usable = await loadUsable(files);
      loadedSignature = signature;
      failedSignature = undefined;
      snapshot = { ...usable, generation: snapshot.generation + 1 };
      logger.info("platform certificate files changed on disk; using the new certificate", {
        clientCert: files.clientCert,
      });
    } catch (error) {
      if (signature !== failedSignature) {
        failedSignature = signature;
        logger.warn(
          "platform certificate files changed but cannot be used; keeping the previous certificate",
          {
            error: `${(error as Error).name}: ${(error as Error).message}`,
          },
        );
      }
    }
    return snapshot;
  }

  return {
    current() {
      if (checking !== undefined) return checking;
      if (clock.now() - lastCheck < checkIntervalMs)
        return unavailable === undefined ? Promise.resolve(snapshot) : Promise.reject(unavailable.error);
      checking = check().finally(() => {
        checking = undefined;
      });
      return checking;
    },
  };
}
