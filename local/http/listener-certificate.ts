/**
 * The certificate an HTTPS listener serves, kept current without a restart: renewing a
 * certificate is replacing its files, and a listener that took the new one only at the next
 * restart would serve the old one until it expires.
 *
 * - At open the files are read and checked (server-certificate.ts); what
 *   cannot be served fails the start with the setting and the file named. An INFO names the
 *   certificate served and its end; a WARN says when it expired, is not valid yet or expires
 *   within 30 days (again once a day while that holds).
 * - The files are read again every FILE_CHECK_INTERVAL_MS and compared with what is served, byte
 *   for byte. Polling, not `fs.watch`: change events do not come from network shares or every file
 *   system, editors and renewal tools replace a file by renaming another over it (the watch then
 *   follows the old file), and a copy can keep the size and, on coarse file systems, the
 *   modification time. Reading a few kilobytes every few seconds costs nothing and sees every
 *   change, whatever made it.
 * - Changed files that make a usable certificate become the server's context
 *   (`server.setSecureContext`): new connections get the new certificate, connections already open
 *   keep theirs and go on. An INFO names the new certificate and its end.
 * - Changed files that do not (a half-copied file, a key that is not the new certificate's, a
 *   file removed) leave the previous certificate in use; once the same files have looked the same
 *   on two reads in a row (a copy still in progress is not reported), an ERROR says what is wrong,
 *   once per state of the files and at most once a minute.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Server as TlsServer } from "node:tls";
import {
  type Config,
  formatProblem,
  type ListenerTlsSection,
  listenerTlsOf,
  type NamedListenerTls,
} from "../../core/config/index.ts";
import { createLogThrottle } from "../../core/logging/log-throttle.ts";
import type { Clock, Logger, Stoppable, TimerHandle } from "../../core/ports.ts";
import {
  certificateDateWarning,
  readServerCertificate,
  type ServerCertificate,
} from "./server-certificate.ts";

/** How often the files are read again: a renewed certificate is served within this. */
export const FILE_CHECK_INTERVAL_MS = 5_000;

/** How often a certificate near or past its end is warned about again. */
const DATE_WARNING_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** The `tls` of a section whose listener runs, its relative paths from `cwd`; undefined: plain HTTP. */
export function listenerTls(
  config: Config,
  section: ListenerTlsSection,
  cwd: string,
): ListenerTls | undefined {
  const named = listenerTlsOf(config, section);
  return named === undefined ? undefined : { named, cwd };
}

/** A listener's `tls` block, and where its relative paths start. */
export interface ListenerTls {
  readonly named: NamedListenerTls;
  readonly cwd: string;
  /** FILE_CHECK_INTERVAL_MS unless given (tests shorten it). */
  readonly checkIntervalMs?: number | undefined;
}

export interface CertificateOwner {
  /** The listener as the log names it, e.g. `REST API`. */
  readonly name: string;
  readonly logger: Logger;
  readonly clock: Clock;
}

/** The certificate of a listener cannot be served: the start fails with this. */
export class ListenerCertificateError extends Error {
  override name = "ListenerCertificateError";
}

export interface ListenerCertificate {
  /** The certificate served now. */
  current(): ServerCertificate;
  /** Reads the files again from now on, handing a usable change to `server`; stop() ends it. */
  watch(server: TlsServer): Stoppable;
}

const FILE_KEYS = ["cert", "key", "pfx", "ca"] as const;

/** The contents of the block's files, one string to compare; a file that cannot be read adds its error. */
async function snapshotOf(tls: ListenerTls): Promise<string> {
  const files = FILE_KEYS.map((key) => tls.named.settings[key]).filter((file) => file !== "");
  const parts = await Promise.all(
    files.map((file) =>
      readFile(resolve(tls.cwd, file)).then(
        (bytes) => bytes.toString("base64"),
        (error: NodeJS.ErrnoException) => `!${error.code ?? "error"}`,
      ),
    ),
  );
  return parts.join("|");
}

function described(certificate: ServerCertificate): Record<string, string> {
  return { subject: certificate.subject, validUntil: certificate.validTo.toISOString() };
}

/** Reads the block's certificate (ListenerCertificateError when it cannot be served) and logs it. */
export async function openListenerCertificate(
  tls: ListenerTls,
  owner: CertificateOwner,
): Promise<ListenerCertificate> {
  const { name, logger, clock } = owner;
  let snapshot = await snapshotOf(tls);
  const reading = await readServerCertificate(tls.named, tls.cwd);
  if (!reading.ok) {
    throw new ListenerCertificateError(`${name}: ${reading.problems.map(formatProblem).join("; ")}`);
  }
  let current = reading.certificate;
  logger.info(`${name} serves HTTPS`, described(current));
  let datesToldAt = clock.now();
  const warnDates = () => {
    const warning = certificateDateWarning(current, clock.now());
    if (warning !== undefined) logger.warn(`${name}: ${formatProblem(warning)}`);
  };
  warnDates();

  const throttle = createLogThrottle();
  /** The unusable files seen last, and whether that state was already reported. */
  let unusable: { snapshot: string; reported: boolean } | undefined;

  async function look(server: TlsServer): Promise<void> {
    if (clock.now() - datesToldAt >= DATE_WARNING_INTERVAL_MS) {
      datesToldAt = clock.now();
      warnDates();
    }
    const seen = await snapshotOf(tls);
    if (seen === snapshot) {
      unusable = undefined;
      return;
    }
    const next = await readServerCertificate(tls.named, tls.cwd);
    if (next.ok) {
      server.setSecureContext(next.certificate.options);
      current = next.certificate;
      snapshot = seen;
      unusable = undefined;
      logger.info(
        `${name}: the certificate files changed; new connections get the new certificate`,
        described(current),
      );
      warnDates();
      return;
    }
    // Reported once the same files were read twice in a row: a copy in progress is not.
    if (unusable?.snapshot !== seen) {
      unusable = { snapshot: seen, reported: false };
      return;
    }
    if (unusable.reported) return;
    unusable.reported = true;
    const states = throttle.admit("unusable", clock.now());
    if (states === undefined) return;
    logger.error(
      `${name}: the certificate files changed but cannot be served; the previous certificate is still served`,
      { problem: next.problems.map(formatProblem).join("; "), ...described(current) },
    );
  }

  return {
    current: () => current,
    watch(server) {
      const interval = tls.checkIntervalMs ?? FILE_CHECK_INTERVAL_MS;
      let timer: TimerHandle | undefined;
      let looking: Promise<void> = Promise.resolve();
      let stopped = false;
      const schedule = () => {
        timer = clock.setTimeout(() => {
          looking = look(server)
            .catch((error: unknown) =>
              logger.error(`${name}: could not read the certificate files again`, {
                error: error instanceof Error ? error.message : String(error),
              }),
            )
            .finally(() => {
              if (!stopped) schedule();
            });
        }, interval);
      };
      schedule();
      return {
        async stop() {
          stopped = true;
          clock.clearTimeout(timer);
          await looking;
        },
      };
    },
  };
}
