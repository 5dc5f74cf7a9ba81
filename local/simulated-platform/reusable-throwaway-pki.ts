/**
 * Whether the certificate files in a folder are throw-away certificates that `simulate-platform
 * --generate-certs` made itself and can use again: all five files, the CA named as this command
 * names its CA, the server and client certificates signed by that CA and matching their keys,
 * none expired, and the server certificate naming the host Steward connects to. The handbook's
 * pages each start the simulator with `--generate-certs`, so a second page must not be refused;
 * anything else in the folder (a real export of the platform) is never replaced without `--force`.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { isIP } from "node:net";
import { basename } from "node:path";
import { CA_COMMON_NAME, type ThrowawayPkiFiles } from "./throwaway-pki.ts";

export type PkiReuse =
  | { readonly ok: true; readonly validTo: Date }
  | { readonly ok: false; readonly reason: string };

interface Pair {
  readonly what: string;
  readonly certFile: string;
  readonly keyFile: string;
}

/** Reads the five files and decides; never throws. */
export async function reusableThrowawayPki(
  files: ThrowawayPkiFiles,
  connectHost: string,
  now: number = Date.now(),
): Promise<PkiReuse> {
  const texts = new Map<string, string>();
  for (const path of Object.values(files) as string[]) {
    try {
      texts.set(path, await readFile(path, "utf8"));
    } catch {
      return { ok: false, reason: `${basename(path)} cannot be read` };
    }
  }
  try {
    return decide(files, connectHost, now, (path) => texts.get(path) ?? "");
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function decide(
  files: ThrowawayPkiFiles,
  connectHost: string,
  now: number,
  text: (path: string) => string,
): PkiReuse {
  const ca = new X509Certificate(text(files.ca));
  if (ca.subject !== `CN=${CA_COMMON_NAME}`) {
    return { ok: false, reason: `${basename(files.ca)} is not the CA this command makes (${ca.subject})` };
  }
  const pairs: Pair[] = [
    { what: "server", certFile: files.serverCert, keyFile: files.serverKey },
    { what: "client", certFile: files.clientCert, keyFile: files.clientKey },
  ];
  let validTo = Date.parse(ca.validTo);
  for (const { what, certFile, keyFile } of pairs) {
    const cert = new X509Certificate(text(certFile));
    if (!cert.checkIssued(ca) || !cert.verify(ca.publicKey)) {
      return { ok: false, reason: `the ${what} certificate is not signed by ${basename(files.ca)}` };
    }
    if (!cert.checkPrivateKey(createPrivateKey(text(keyFile)))) {
      return { ok: false, reason: `${basename(keyFile)} is not the key of ${basename(certFile)}` };
    }
    validTo = Math.min(validTo, Date.parse(cert.validTo));
    if (what === "server") {
      const named = isIP(connectHost) === 0 ? cert.checkHost(connectHost) : cert.checkIP(connectHost);
      if (named === undefined)
        return { ok: false, reason: `the server certificate does not name ${connectHost}` };
    }
  }
  if (validTo <= now) return { ok: false, reason: `they expired on ${new Date(validTo).toISOString()}` };
  return { ok: true, validTo: new Date(validTo) };
}
