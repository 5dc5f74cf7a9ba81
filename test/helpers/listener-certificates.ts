/**
 * Server certificates for the HTTPS tests of the listeners, written to a directory as an operator
 * would place them: a test CA and a server certificate for 127.0.0.1 and localhost
 * (`@peculiar/x509`, the generator of the simulated platform), the key also encrypted with a
 * passphrase, and the pair as a PFX (PKCS#12, AES-256, as a current Windows export) made with
 * Debian's openssl, the way a Windows operator exports it from the certificate store.
 */
import { execFileSync } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ListenerTlsSettings } from "../../core/config/listener-tls.ts";
import { generateThrowawayPki } from "../../local/simulated-platform/throwaway-pki.ts";

export const TEST_PASSPHRASE = "correct horse battery staple";

export interface ListenerCertificateFiles {
  /** The test CA (PEM) clients trust. */
  readonly ca: string;
  readonly caPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** The key encrypted with TEST_PASSPHRASE. */
  readonly encryptedKeyPath: string;
  /** cert and key as a PFX protected by TEST_PASSPHRASE. */
  readonly pfxPath: string;
  /** The server certificate's PEM. */
  readonly cert: string;
}

/** A CA and a server certificate whose CN is `commonName`, written under `directory` with `prefix`. */
export async function writeListenerCertificates(
  directory: string,
  prefix = "server",
  commonName = "127.0.0.1",
  days = 365,
): Promise<ListenerCertificateFiles> {
  const pki = await generateThrowawayPki({
    serverNames: [commonName, "127.0.0.1", "localhost"],
    days,
  });
  const at = (name: string) => join(directory, `${prefix}${name}`);
  const files = {
    ca: pki.ca.cert,
    caPath: at("-ca.pem"),
    certPath: at(".pem"),
    keyPath: at("_key.pem"),
    encryptedKeyPath: at("_key_encrypted.pem"),
    pfxPath: at(".pfx"),
    cert: pki.server.cert,
  };
  writeFileSync(files.caPath, pki.ca.cert);
  writeFileSync(files.certPath, pki.server.cert);
  writeFileSync(files.keyPath, pki.server.key);
  const encrypted = createPrivateKey(pki.server.key).export({
    type: "pkcs8",
    format: "pem",
    cipher: "aes-256-cbc",
    passphrase: TEST_PASSPHRASE,
  });
  writeFileSync(files.encryptedKeyPath, encrypted);
  execFileSync("openssl", [
    "pkcs12",
    "-export",
    "-in",
    files.certPath,
    "-inkey",
    files.keyPath,
    "-out",
    files.pfxPath,
    "-passout",
    `pass:${TEST_PASSPHRASE}`,
  ]);
  return files;
}

/** A `tls` block as the schema gives it: enabled, with `settings` over empty defaults. */
export function tlsSettings(settings: Partial<ListenerTlsSettings>): ListenerTlsSettings {
  return { enable: true, cert: "", key: "", pfx: "", ca: "", passphrase: "", ...settings };
}
