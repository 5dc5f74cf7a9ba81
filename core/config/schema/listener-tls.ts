/**
 * `tls` of a listener that clients reach over the network (`auditEvents`, `restServer`,
 * `configVisualisation`, `scrapeEndpoint`): HTTPS with a server certificate, either PEM files
 * (`cert` and `key`) or a PFX (PKCS#12, what Windows exports), `ca` for the intermediate
 * certificates sent with it, `passphrase` for an encrypted key or the PFX. Validated only when
 * `enable` is true; the section is marked, so that the configuration check lists it and opens its
 * files together (a key must decrypt and belong to the certificate) in the same pass as the rest.
 */
import * as v from "valibot";
import { bool, filePath, str } from "./primitives.ts";

/** The marker the preprocess walk (preprocess.ts) finds a listener's `tls` by. */
export const LISTENER_TLS_MARKER = "listenerTls";

const entries = {
  enable: bool(false),
  cert: filePath(),
  key: filePath(),
  pfx: filePath(),
  ca: filePath(),
  passphrase: str(""),
};

export const listenerTlsSchema = () =>
  v.optional(
    v.pipe(v.object(entries), v.metadata({ [LISTENER_TLS_MARKER]: true })),
    // Every member is optional with a default, so `{}` is a valid input (as for section()).
    {} as v.InferInput<v.ObjectSchema<typeof entries, undefined>>,
  );
