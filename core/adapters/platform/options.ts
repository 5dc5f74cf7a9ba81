/**
 * Settings the platform adapter needs. The shapes mirror `Config["platform"]` and `Config["cert"]`
 * (CONTRACT §2) so that the wiring hands those slices over unchanged.
 */

export interface PlatformConnectionOptions {
  /** Host name of the central node; the repository and engine both listen there. */
  readonly host: string;
  readonly repositoryPort: number;
  readonly enginePort: number;
  /** Value of the X-Qlik-User header, e.g. `UserDirectory=Internal;UserId=sa_repository`. */
  readonly userHeader: string;
  /** Whether the platform's server certificate must chain to `clientCertCA`. */
  readonly rejectUnauthorized: boolean;
  /** Upper bound of every platform call, in milliseconds. */
  readonly timeoutMs: number;
}

/** Paths of the PEM files exported from the platform's management console. */
export interface PlatformCertificateOptions {
  readonly clientCert: string;
  readonly clientCertKey: string;
  readonly clientCertCA: string;
  /** Passphrase of the key; empty when the key is not encrypted. */
  readonly clientCertPassphrase: string;
}

/** Certificate material, read once. Never logged, never put into an error message. */
export interface PlatformTlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca: Buffer | undefined;
  readonly passphrase: string | undefined;
}
