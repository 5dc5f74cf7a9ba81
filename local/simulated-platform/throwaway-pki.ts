/**
 * Throw-away certificates for the simulated platform, made in pure JavaScript (`@peculiar/x509`
 * on WebCrypto, ECDSA P-256) so that `steward simulate-platform` works where no openssl CLI is
 * installed: a CA, a server certificate for the given host names and addresses, and a client
 * certificate, all signed by that CA. The test fixtures use the same generator.
 *
 * `writeThrowawayPki` writes them under the file names of the platform's own certificate export
 * (`root.pem`, `server.pem`, `server_key.pem`, `client.pem`, `client_key.pem`). The CA key is
 * returned but never written: nobody can sign anything else with a CA whose key is gone.
 */
import { KeyObject, type webcrypto } from "node:crypto";
import { access, chmod, mkdir, writeFile } from "node:fs/promises";
import { isIP } from "node:net";
import { join } from "node:path";
import type { Extension, JsonGeneralNames, Name } from "@peculiar/x509";
import { installReflectMetadataShim } from "./reflect-metadata-shim.ts";

/** A certificate and its private key, both PEM (the key unencrypted PKCS#8). */
export interface PemCertificateAndKey {
  readonly cert: string;
  readonly key: string;
}

export interface ThrowawayPki {
  readonly ca: PemCertificateAndKey;
  readonly server: PemCertificateAndKey;
  readonly client: PemCertificateAndKey;
}

export interface ThrowawayPkiOptions {
  /** DNS names and IP addresses the server certificate is valid for; the first is its CN. */
  readonly serverNames?: readonly string[];
  /** Days the certificates stay valid from now. */
  readonly days?: number;
  /** CN of the client certificate; the platform's own export names it QlikClient. */
  readonly clientName?: string;
}

export interface SelfSignedCertificateOptions {
  readonly commonName: string;
  readonly days?: number;
}

export interface WriteThrowawayPkiOptions {
  /** Replace files that already exist; by default an existing file stops the write. */
  readonly overwrite?: boolean;
}

/** Paths of the files `writeThrowawayPki` wrote. */
export interface ThrowawayPkiFiles {
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
  readonly clientCert: string;
  readonly clientKey: string;
}

export class ThrowawayPkiError extends Error {
  override readonly name = "ThrowawayPkiError";
}

export const DEFAULT_SERVER_NAMES: readonly string[] = ["localhost", "127.0.0.1"];
export const DEFAULT_VALIDITY_DAYS = 30;
export const CA_COMMON_NAME = "Steward Simulated Platform CA";
export const DEFAULT_CLIENT_NAME = "QlikClient";

/** The file names of the platform's certificate export. */
export const THROWAWAY_PKI_FILE_NAMES = {
  ca: "root.pem",
  serverCert: "server.pem",
  serverKey: "server_key.pem",
  clientCert: "client.pem",
  clientKey: "client_key.pem",
} as const satisfies Record<keyof ThrowawayPkiFiles, string>;

/** Certificates start this much before now, so a peer whose clock runs behind accepts them. */
const CLOCK_SKEW_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** Ten years: far beyond a throw-away certificate's life, and far below where dates overflow. */
const MAX_VALIDITY_DAYS = 3650;
const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;
const SIGNING_ALGORITHM = { name: "ECDSA", hash: "SHA-256" } as const;

type X509 = typeof import("@peculiar/x509");
let loadingX509: Promise<X509> | undefined;

// Loaded on first use: only the certificate-making command pays for the library, and tsyringe,
// which it loads, needs the metadata shim installed first.
function loadX509(): Promise<X509> {
  loadingX509 ??= (async () => {
    installReflectMetadataShim();
    const x509 = await import("@peculiar/x509");
    x509.cryptoProvider.set(globalThis.crypto);
    return x509;
  })();
  return loadingX509;
}

interface Validity {
  readonly notBefore: Date;
  readonly notAfter: Date;
}

function validityFor(days: number): Validity {
  if (!Number.isFinite(days) || days <= 0 || days > MAX_VALIDITY_DAYS) {
    throw new ThrowawayPkiError(
      `certificate validity must be a positive number of days up to ${MAX_VALIDITY_DAYS}, got ${days}`,
    );
  }
  const now = Date.now();
  return { notBefore: new Date(now - CLOCK_SKEW_MS), notAfter: new Date(now + days * DAY_MS) };
}

function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return globalThis.crypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"]);
}

function privateKeyPem(key: webcrypto.CryptoKey): string {
  return KeyObject.from(key).export({ type: "pkcs8", format: "pem" }) as string;
}

function subjectAltNames(names: readonly string[]): JsonGeneralNames {
  return names.map((name) => ({ type: isIP(name) === 0 ? "dns" : "ip", value: name }));
}

interface Issuer {
  /** The CA certificate's own subject, so a leaf's issuer matches it byte for byte. */
  readonly subject: Name;
  readonly keys: webcrypto.CryptoKeyPair;
}

async function createSelfSigned(
  x509: X509,
  commonName: string,
  validity: Validity,
): Promise<Issuer & { readonly cert: string }> {
  const keys = await generateKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [commonName] }],
    keys,
    ...validity,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { subject: cert.subjectName, keys, cert: cert.toString("pem") };
}

async function issueLeaf(
  x509: X509,
  issuer: Issuer,
  commonName: string,
  validity: Validity,
  extensions: readonly Extension[],
): Promise<PemCertificateAndKey> {
  const keys = await generateKeyPair();
  const cert = await x509.X509CertificateGenerator.create({
    subject: [{ CN: [commonName] }],
    issuer: issuer.subject,
    publicKey: keys.publicKey,
    signingKey: issuer.keys.privateKey,
    ...validity,
    signingAlgorithm: SIGNING_ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey),
      ...extensions,
    ],
  });
  return { cert: cert.toString("pem"), key: privateKeyPem(keys.privateKey) };
}

/** A CA, a server certificate (serverAuth) and a client certificate (clientAuth) signed by it. */
export async function generateThrowawayPki(options: ThrowawayPkiOptions = {}): Promise<ThrowawayPki> {
  const serverNames = options.serverNames ?? DEFAULT_SERVER_NAMES;
  const [serverCommonName] = serverNames;
  if (serverCommonName === undefined || serverNames.some((name) => name.trim() === "")) {
    throw new ThrowawayPkiError("the server certificate needs at least one name, and no empty name");
  }
  const validity = validityFor(options.days ?? DEFAULT_VALIDITY_DAYS);
  const x509 = await loadX509();
  const ca = await createSelfSigned(x509, CA_COMMON_NAME, validity);
  const server = await issueLeaf(x509, ca, serverCommonName, validity, [
    new x509.SubjectAlternativeNameExtension(subjectAltNames(serverNames)),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
  ]);
  const client = await issueLeaf(x509, ca, options.clientName ?? DEFAULT_CLIENT_NAME, validity, [
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
  ]);
  return { ca: { cert: ca.cert, key: privateKeyPem(ca.keys.privateKey) }, server, client };
}

/**
 * A lone self-signed certificate shaped like a CA (what `openssl req -x509` makes): a stranger
 * no platform CA vouches for, usable both as a client certificate and as a wrong CA.
 */
export async function generateSelfSignedCertificate(
  options: SelfSignedCertificateOptions,
): Promise<PemCertificateAndKey> {
  const validity = validityFor(options.days ?? DEFAULT_VALIDITY_DAYS);
  const made = await createSelfSigned(await loadX509(), options.commonName, validity);
  return { cert: made.cert, key: privateKeyPem(made.keys.privateKey) };
}

/**
 * Writes the CA certificate, server and client certificates and keys into `dir` (created if
 * missing), keys readable by the owner only. Refuses, before writing anything, when one of the
 * files exists, unless `overwrite` is set.
 */
export async function writeThrowawayPki(
  dir: string,
  pki: ThrowawayPki,
  options: WriteThrowawayPkiOptions = {},
): Promise<ThrowawayPkiFiles> {
  const files = throwawayPkiFiles(dir);
  const contents: readonly (readonly [path: string, pem: string, secret: boolean])[] = [
    [files.ca, pki.ca.cert, false],
    [files.serverCert, pki.server.cert, false],
    [files.serverKey, pki.server.key, true],
    [files.clientCert, pki.client.cert, false],
    [files.clientKey, pki.client.key, true],
  ];
  await mkdir(dir, { recursive: true });
  const overwrite = options.overwrite === true;
  if (!overwrite) {
    const existing = await existingPkiFiles(files);
    if (existing.length > 0) {
      throw new ThrowawayPkiError(
        `will not overwrite existing certificate files: ${existing.join(", ")} (ask to overwrite, or choose another folder)`,
      );
    }
  }
  for (const [path, pem, secret] of contents) {
    const mode = secret ? 0o600 : 0o644;
    // "wx" still refuses a file that appeared since the check above.
    await writeFile(path, pem, { mode, flag: overwrite ? "w" : "wx" });
    // An overwritten file keeps its old mode; a key must not stay readable by others.
    if (overwrite && secret) await chmod(path, mode);
  }
  return files;
}

/** The paths of the PKI's files in `dir`, under the names of the platform's export. */
export function throwawayPkiFiles(dir: string): ThrowawayPkiFiles {
  const names = THROWAWAY_PKI_FILE_NAMES;
  return {
    ca: join(dir, names.ca),
    serverCert: join(dir, names.serverCert),
    serverKey: join(dir, names.serverKey),
    clientCert: join(dir, names.clientCert),
    clientKey: join(dir, names.clientKey),
  };
}

/** Those of the files that exist, in the order of `ThrowawayPkiFiles`. */
export async function existingPkiFiles(files: ThrowawayPkiFiles): Promise<string[]> {
  const found = await Promise.all(
    Object.values(files).map((path: string) =>
      access(path).then(
        () => path,
        () => undefined,
      ),
    ),
  );
  return found.filter((path): path is string => path !== undefined);
}
