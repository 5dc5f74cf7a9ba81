/** Reads the platform client certificate, key and CA once, at wiring time. */
import { readFile } from "node:fs/promises";
import { PlatformCertificateError } from "../../platform/index.ts";
import type { PlatformCertificateOptions, PlatformTlsMaterial } from "./options.ts";

async function readPem(setting: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "read failed";
    // The path is configuration, not a secret; the file content never reaches the message.
    throw new PlatformCertificateError(`Service.cert.${setting}: cannot read ${path} (${code})`, {
      cause: error,
    });
  }
}

/** Loads the PEM files named in `cert.*`. The CA is optional (empty path = system roots). */
export async function loadPlatformTlsMaterial(
  options: PlatformCertificateOptions,
): Promise<PlatformTlsMaterial> {
  const [cert, key, ca] = await Promise.allSettled([
    readPem("clientCert", options.clientCert),
    readPem("clientCertKey", options.clientCertKey),
    options.clientCertCA === "" ? Promise.resolve(undefined) : readPem("clientCertCA", options.clientCertCA),
  ]);
  // The first unreadable file in the order of the settings, whichever read failed first.
  for (const read of [cert, key, ca]) if (read.status === "rejected") throw read.reason;
  const value = <T>(read: PromiseSettledResult<T>): T => (read as PromiseFulfilledResult<T>).value;
  return {
    cert: value(cert),
    key: value(key),
    ca: value(ca),
    passphrase: options.clientCertPassphrase === "" ? undefined : options.clientCertPassphrase,
  };
}
