/**
 * The certificates of `steward simulate-platform`, in one folder under the file names of the
 * platform's own export: with `generateCerts`, new throw-away ones are written first, unless the
 * folder already holds throw-away ones this command made that still serve (reused, and said so,
 * so that the handbook's copy-paste lines work a second time); other certificate files there are
 * refused unless `force` (the folder may hold a real export). Then the server's certificate, key
 * and CA are read, and what would make Steward's certificate check fail (a host the certificate
 * does not name, an expired certificate) comes back as warnings.
 */
import { X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isIP } from "node:net";
import { basename } from "node:path";
import { reusableThrowawayPki } from "../simulated-platform/reusable-throwaway-pki.ts";
import type { SimulatedTls } from "../simulated-platform/simulated-server.ts";
import {
  DEFAULT_SERVER_NAMES,
  existingPkiFiles,
  generateThrowawayPki,
  type ThrowawayPkiFiles,
  throwawayPkiFiles,
  writeThrowawayPki,
} from "../simulated-platform/throwaway-pki.ts";

export interface CertificateOptions {
  /** Absolute. */
  readonly certsDir: string;
  readonly generateCerts: boolean;
  readonly force: boolean;
  /** The address Steward connects to, which the server certificate must name. */
  readonly connectHost: string;
}

export interface SimulatedPlatformCertificates {
  readonly files: ThrowawayPkiFiles;
  readonly tls: SimulatedTls & { readonly cert: string };
  readonly warnings: readonly string[];
  /** What was done with the folder that the user should know (certificates reused). */
  readonly notes: readonly string[];
}

/** Throws CertificateFilesError when the files cannot be written or read. */
export async function prepareCertificates(
  options: CertificateOptions,
): Promise<SimulatedPlatformCertificates> {
  const files = throwawayPkiFiles(options.certsDir);
  const notes = options.generateCerts ? await generateCertificates(options, files) : [];
  const tls = await readCertificates(options.certsDir, files);
  return { files, tls, warnings: certificateWarnings(tls.cert, options.connectHost, files), notes };
}

/** A certificate problem the user can fix: one line, no stack. */
export class CertificateFilesError extends Error {
  override readonly name = "CertificateFilesError";
}

/** Writes new throw-away certificates, or reuses those of an earlier run; returns the notes. */
async function generateCertificates(
  options: CertificateOptions,
  files: ThrowawayPkiFiles,
): Promise<string[]> {
  if (!options.force) {
    const existing = await existingPkiFiles(files);
    if (existing.length > 0) {
      const reuse = await reusableThrowawayPki(files, options.connectHost);
      if (reuse.ok) {
        const until = reuse.validTo.toISOString().slice(0, 10);
        return [
          `using the throw-away certificates already in ${options.certsDir} (valid until ${until}); add --force for new ones`,
        ];
      }
      throw new CertificateFilesError(
        `${options.certsDir} already holds certificate files (${existing.map((path) => basename(path)).join(", ")}); ` +
          "run without --generate-certs to use them, or add --force to replace them with new throw-away ones " +
          `(they are not throw-away certificates of this command that it can use again: ${reuse.reason})`,
      );
    }
  }
  const { connectHost } = options;
  const serverNames = DEFAULT_SERVER_NAMES.includes(connectHost)
    ? DEFAULT_SERVER_NAMES
    : [...DEFAULT_SERVER_NAMES, connectHost];
  const pki = await generateThrowawayPki({ serverNames });
  try {
    await writeThrowawayPki(options.certsDir, pki, { overwrite: options.force });
  } catch (error) {
    throw new CertificateFilesError(`cannot write certificates into ${options.certsDir}: ${reason(error)}`);
  }
  return [];
}

async function readCertificates(
  dir: string,
  files: ThrowawayPkiFiles,
): Promise<{ cert: string; key: string; ca: string }> {
  const existing = new Set(await existingPkiFiles(files));
  const missing = Object.values(files).filter((path: string) => !existing.has(path));
  if (missing.length > 0) {
    throw new CertificateFilesError(
      `certificate files missing in ${dir}: ${missing.map((path) => basename(path)).join(", ")}; ` +
        "add --generate-certs to write throw-away certificates there (or choose the folder with --certs DIR)",
    );
  }
  const read = (path: string) =>
    readFile(path, "utf8").catch((error: unknown) => {
      throw new CertificateFilesError(`cannot read ${path}: ${reason(error)}`);
    });
  const [cert, key, ca] = await Promise.all([read(files.serverCert), read(files.serverKey), read(files.ca)]);
  return { cert, key, ca };
}

/** What would make Steward's TLS check fail against these certificates, said before it does. */
function certificateWarnings(serverPem: string, connectHost: string, files: ThrowawayPkiFiles): string[] {
  const warnings: string[] = [];
  let server: X509Certificate;
  try {
    server = new X509Certificate(serverPem);
  } catch (error) {
    return [`cannot read the certificate in ${files.serverCert}: ${reason(error)}`];
  }
  const named = isIP(connectHost) === 0 ? server.checkHost(connectHost) : server.checkIP(connectHost);
  if (named === undefined) {
    warnings.push(
      `the server certificate ${files.serverCert} does not name ${connectHost}, so Steward will refuse it ` +
        "(add --generate-certs --force for certificates that do)",
    );
  }
  if (Date.parse(server.validTo) < Date.now()) {
    warnings.push(
      `the server certificate ${files.serverCert} expired on ${server.validTo} ` +
        "(add --generate-certs --force for new throw-away ones)",
    );
  }
  return warnings;
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}
