/** Settings the platform adapter needs: the `platform` and `cert` config slices. */
import type { CertConfig, PlatformConfig } from "../../config/index.ts";

/** `platform.*`: host, repositoryPort, enginePort, userHeader, rejectUnauthorized, timeoutMs. */
export type PlatformConnectionOptions = Pick<
  PlatformConfig,
  "host" | "repositoryPort" | "enginePort" | "userHeader" | "rejectUnauthorized" | "timeoutMs"
>;

/** `cert.*`: paths of the PEM files exported from the platform's management console. */
export type PlatformCertificateOptions = CertConfig;

/** Certificate material, read once. Never logged, never put into an error message. */
export interface PlatformTlsMaterial {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca: Buffer | undefined;
  readonly passphrase: string | undefined;
}
