/**
 * A listener's server certificate, read from the files of its `tls` block and checked the way a
 * TLS server would use it, so that what cannot be served is a configuration problem naming the
 * setting and the file instead of a handshake every client fails: a file that cannot be read,
 * PEM that holds no certificate or key, an encrypted key without its passphrase or with a wrong
 * one, a key that is not the certificate's, a CA file without certificates (OpenSSL would skip it
 * silently), a PFX that is not one, that the passphrase does not open, that holds no key or uses a
 * cipher OpenSSL 3 no longer opens (RC2, as older Windows exports do). The listener
 * (listener-certificate.ts) and the configuration check (local/cli/certificate-check.ts) both read
 * through here: one set of rules, one wording.
 *
 * The certificate served is read back from the TLS context built of the files (the first of a
 * PEM chain, the PFX's own): its subject and dates are what the logs and the warnings name.
 * Dates are warnings, not errors: an expired certificate, one that expires within
 * EXPIRY_WARNING_DAYS or one not valid yet still lets Steward start (clients decide whether they
 * take it), but the operator is told which and when.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { createSecureContext, type SecureContext, type SecureContextOptions, TLSSocket } from "node:tls";
import {
  type CertificateForm,
  type ConfigProblem,
  cannotReadFile,
  certificateForm,
  type NamedListenerTls,
} from "../../core/config/index.ts";

/** The oldest protocol a listener speaks: TLS 1.0 and 1.1 are broken and every client since 2014 speaks 1.2. */
export const MIN_TLS_VERSION = "TLSv1.2";

/** A certificate this close to its end is warned about at start and once a day. */
export const EXPIRY_WARNING_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ServerCertificate {
  /** The options of the TLS server: the material as read, TLS 1.2 at least. */
  readonly options: SecureContextOptions;
  /** The context built of them, as a server takes it (`setSecureContext` takes the options). */
  readonly context: SecureContext;
  /** The certificate served, e.g. `CN=qlik-ops.corp.local`. */
  readonly subject: string;
  readonly validFrom: Date;
  readonly validTo: Date;
  /** The setting that holds the certificate: `….tls.cert` or `….tls.pfx`. */
  readonly certificateSetting: string;
}

export type CertificateReading =
  | { readonly ok: true; readonly certificate: ServerCertificate }
  | {
      readonly ok: false;
      readonly problems: readonly ConfigProblem[];
      /** True when a file could not be read (the file check of the configuration reports those). */
      readonly unreadable: boolean;
    };

class CertificateProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly unreadable = false,
  ) {
    super(message);
  }
}

type FileKey = "cert" | "key" | "pfx" | "ca";

interface ReadFile {
  readonly absolute: string;
  readonly bytes: Buffer;
}

class BlockFiles {
  constructor(
    private readonly named: NamedListenerTls,
    private readonly cwd: string,
  ) {}

  at(key: string): string {
    return `${this.named.path}.${key}`;
  }

  get passphrase(): string {
    return this.named.settings.passphrase;
  }

  /** The file of `key`, or undefined when the setting is empty. */
  async read(key: FileKey): Promise<ReadFile | undefined> {
    const file = this.named.settings[key];
    if (file === "") return undefined;
    const absolute = resolve(this.cwd, file);
    try {
      return { absolute, bytes: await readFile(absolute) };
    } catch (error) {
      throw new CertificateProblem(this.at(key), cannotReadFile(absolute, error), true);
    }
  }
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** The PEM certificates of a file; a problem at `path` when it holds none or one does not parse. */
function pemCertificates(path: string, file: ReadFile): string[] {
  const blocks = file.bytes.toString("utf8").match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    throw new CertificateProblem(
      path,
      `${file.absolute} holds no certificate in PEM form (-----BEGIN CERTIFICATE-----); a DER (.cer) file converts with certutil -encode or openssl x509 -inform der`,
    );
  }
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new CertificateProblem(
        path,
        `${file.absolute} holds a certificate that does not parse (${reasonOf(error)})`,
      );
    }
  }
  return blocks;
}

const isEncryptedPem = (text: string) => /ENCRYPTED PRIVATE KEY|Proc-Type: 4,ENCRYPTED/.test(text);

function privateKey(files: BlockFiles, file: ReadFile): KeyObject {
  const text = file.bytes.toString("utf8");
  const passphrase = files.passphrase;
  try {
    return createPrivateKey({ key: text, format: "pem", ...(passphrase === "" ? {} : { passphrase }) });
  } catch (error) {
    if (isEncryptedPem(text)) {
      throw new CertificateProblem(
        files.at("passphrase"),
        passphrase === ""
          ? `required: the key in ${file.absolute} is encrypted`
          : `does not decrypt the key in ${file.absolute} (${reasonOf(error)})`,
      );
    }
    throw new CertificateProblem(
      files.at("key"),
      `${file.absolute} holds no private key in PEM form (-----BEGIN PRIVATE KEY-----) (${reasonOf(error)})`,
    );
  }
}

/** cert and key (PEM): each checked on its own, then the key against the certificate. */
async function pemOptions(files: BlockFiles): Promise<SecureContextOptions> {
  const certFile = (await files.read("cert")) as ReadFile;
  const keyFile = (await files.read("key")) as ReadFile;
  const [leaf] = pemCertificates(files.at("cert"), certFile);
  const keyObject = privateKey(files, keyFile);
  if (!new X509Certificate(leaf as string).checkPrivateKey(keyObject)) {
    throw new CertificateProblem(
      files.at("key"),
      `the key in ${keyFile.absolute} is not the key of the certificate in ${certFile.absolute}`,
    );
  }
  return {
    cert: certFile.bytes,
    key: keyFile.bytes,
    ...(files.passphrase === "" ? {} : { passphrase: files.passphrase }),
  };
}

/** What OpenSSL's reason for refusing a PFX means for whoever exported it. */
function pfxProblem(files: BlockFiles, file: ReadFile, error: unknown): CertificateProblem {
  const reason = reasonOf(error);
  if (/mac verify failure/i.test(reason)) {
    return new CertificateProblem(
      files.at("passphrase"),
      files.passphrase === ""
        ? `required: ${file.absolute} is protected by a passphrase`
        : `does not open ${file.absolute} (${reason})`,
    );
  }
  if (/Unsupported PKCS12/i.test(reason)) {
    return new CertificateProblem(
      files.at("pfx"),
      `${file.absolute} is encrypted with a cipher OpenSSL 3 no longer opens (RC2, as older Windows exports are): export it again with AES256-SHA256, or as PEM files (${reason})`,
    );
  }
  if (/private key/i.test(reason)) {
    return new CertificateProblem(
      files.at("pfx"),
      `${file.absolute} holds no private key: export the certificate with its private key (${reason})`,
    );
  }
  return new CertificateProblem(files.at("pfx"), `${file.absolute} is not a PFX (PKCS#12) file (${reason})`);
}

async function pfxOptions(files: BlockFiles): Promise<SecureContextOptions> {
  const file = (await files.read("pfx")) as ReadFile;
  const options = { pfx: file.bytes, passphrase: files.passphrase };
  try {
    createSecureContext(options);
  } catch (error) {
    throw pfxProblem(files, file, error);
  }
  return options;
}

/** The certificate a context serves (a server socket that never connects reads it). */
function servedCertificate(context: SecureContext): X509Certificate {
  const socket = new TLSSocket(null as never, { isServer: true, secureContext: context });
  try {
    const served = socket.getCertificate();
    if (served === null || !("raw" in served)) throw new Error("the TLS context holds no certificate");
    return new X509Certificate(served.raw);
  } finally {
    socket.destroy();
  }
}

async function readMaterial(named: NamedListenerTls, form: CertificateForm, cwd: string) {
  const files = new BlockFiles(named, cwd);
  // One file after the other, so that the problem reported is the first in the settings' order.
  const material = form === "pfx" ? await pfxOptions(files) : await pemOptions(files);
  const ca = await files.read("ca");
  const options: SecureContextOptions = {
    ...material,
    ...(ca === undefined ? {} : { ca: pemCertificates(files.at("ca"), ca) }),
    minVersion: MIN_TLS_VERSION,
  };
  let context: SecureContext;
  try {
    context = createSecureContext(options);
  } catch (error) {
    throw new CertificateProblem(
      named.path,
      `the certificate files do not make a TLS context (${reasonOf(error)})`,
    );
  }
  return {
    options,
    context,
    served: servedCertificate(context),
    setting: files.at(form === "pfx" ? "pfx" : "cert"),
  };
}

/** Reads and checks the certificate of an enabled `tls` block (paths relative to `cwd`). */
export async function readServerCertificate(
  named: NamedListenerTls,
  cwd: string,
): Promise<CertificateReading> {
  const shape = certificateForm(named);
  if ("problems" in shape) return { ok: false, problems: shape.problems, unreadable: false };
  try {
    const { options, context, served, setting } = await readMaterial(named, shape.form, cwd);
    return {
      ok: true,
      certificate: {
        options,
        context,
        subject: served.subject.replaceAll("\n", ", "),
        validFrom: new Date(served.validFrom),
        validTo: new Date(served.validTo),
        certificateSetting: setting,
      },
    };
  } catch (error) {
    if (!(error instanceof CertificateProblem)) throw error;
    return {
      ok: false,
      problems: [{ path: error.path, message: error.message }],
      unreadable: error.unreadable,
    };
  }
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** What the certificate's dates mean at `nowMs`: a warning at its setting, or undefined. */
export function certificateDateWarning(
  certificate: ServerCertificate,
  nowMs: number,
): ConfigProblem | undefined {
  const { subject, validFrom, validTo, certificateSetting: path } = certificate;
  if (validTo.getTime() <= nowMs) {
    return {
      path,
      message: `the certificate (${subject}) expired on ${day(validTo)}: clients refuse it; renew it and replace the file (it is read again without a restart)`,
    };
  }
  if (validFrom.getTime() > nowMs) {
    return {
      path,
      message: `the certificate (${subject}) is not valid before ${validFrom.toISOString()}: clients refuse it until then (is this machine's clock right?)`,
    };
  }
  const daysLeft = Math.floor((validTo.getTime() - nowMs) / DAY_MS);
  if (daysLeft >= EXPIRY_WARNING_DAYS) return undefined;
  return {
    path,
    message: `the certificate (${subject}) expires on ${day(validTo)}, in ${daysLeft} days: renew it and replace the file (it is read again without a restart)`,
  };
}

export interface CertificateCheck {
  readonly problems: ConfigProblem[];
  readonly warnings: ConfigProblem[];
}

/**
 * The configuration check of every listed block: its problems, and the warnings of its dates.
 * A block whose form is wrong (the schema's cross-checks report it) or whose file cannot be read
 * (the file check reports it) adds nothing, so that no problem is reported twice.
 */
export async function checkListenerCertificates(
  blocks: readonly NamedListenerTls[],
  cwd: string,
  nowMs: number,
): Promise<CertificateCheck> {
  const check: CertificateCheck = { problems: [], warnings: [] };
  const readings = await Promise.all(blocks.map((named) => readServerCertificate(named, cwd)));
  readings.forEach((reading, i) => {
    if (reading.ok) {
      const warning = certificateDateWarning(reading.certificate, nowMs);
      if (warning !== undefined) check.warnings.push(warning);
    } else if (!reading.unreadable && "form" in certificateForm(blocks[i] as NamedListenerTls)) {
      check.problems.push(...reading.problems);
    }
  });
  return check;
}
