/**
 * HTTPS on the listeners clients reach over the network: which sections have a `tls` block, what
 * a block must hold when it is enabled (cert and key, or a pfx, never both), and the block of a
 * section as the listener and the configuration check take it, named by its setting path so
 * every problem says which setting to fix. Opening the files is the local adapter's job
 * (local/http/server-certificate.ts); the rules here need no file.
 */
import type { ConfigProblem } from "./problems.ts";
import type { Config } from "./schema/config.ts";

/** The sections whose listener can serve HTTPS (`<section>.tls`). */
export const LISTENER_TLS_SECTIONS = [
  "auditEvents",
  "restServer",
  "configVisualisation",
  "scrapeEndpoint",
] as const;

export type ListenerTlsSection = (typeof LISTENER_TLS_SECTIONS)[number];

/** A `tls` block as the schema gives it. */
export type ListenerTlsSettings = Config["auditEvents"]["tls"];

/** An enabled `tls` block and the setting path that names it (`Service.restServer.tls`). */
export interface NamedListenerTls {
  readonly path: string;
  readonly settings: ListenerTlsSettings;
}

/** Where the certificate comes from, once a block holds what it must. */
export type CertificateForm = "pem" | "pfx";

/** The form of an enabled block, or the problems that keep it from having one. */
export function certificateForm(
  named: NamedListenerTls,
): { form: CertificateForm } | { problems: ConfigProblem[] } {
  const { cert, key, pfx } = named.settings;
  const at = (key: string) => `${named.path}.${key}`;
  if (pfx !== "") {
    if (cert === "" && key === "") return { form: "pfx" };
    return {
      problems: [
        {
          path: at("pfx"),
          message: "set either pfx (a PKCS#12 file) or cert and key (PEM files), not both",
        },
      ],
    };
  }
  const problems: ConfigProblem[] = [];
  if (cert === "")
    problems.push({
      path: at("cert"),
      message:
        "required when tls.enable is true: the server certificate (PEM), or pfx instead of cert and key",
    });
  if (key === "")
    problems.push({
      path: at("key"),
      message: "required when tls.enable is true: the private key of the certificate (PEM), or pfx instead",
    });
  return problems.length === 0 ? { form: "pem" } : { problems };
}

/** The enabled `tls` block of a section whose listener runs, or undefined (plain HTTP). */
export function listenerTlsOf(config: Config, section: ListenerTlsSection): NamedListenerTls | undefined {
  const settings = config[section];
  if (!settings.enable || !settings.tls.enable) return undefined;
  return { path: `Service.${section}.tls`, settings: settings.tls };
}

/** A configuration error for every enabled block that lacks what it needs, or holds both forms. */
export function checkListenerTls(config: Config, out: ConfigProblem[]): void {
  for (const section of LISTENER_TLS_SECTIONS) {
    const named = listenerTlsOf(config, section);
    if (named === undefined) continue;
    const shape = certificateForm(named);
    if ("problems" in shape) out.push(...shape.problems);
  }
}
