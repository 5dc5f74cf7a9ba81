/** platform (repository/engine API access), cert (client certificates) and chat. */
import * as v from "valibot";
import {
  bool,
  filePath,
  nonEmptyStr,
  optionalHost,
  port,
  positiveInt,
  requiredHttpUrl,
  section,
} from "./primitives.ts";

export const platformSchema = section({
  host: optionalHost(""),
  repositoryPort: port(4242),
  enginePort: port(4747),
  userHeader: nonEmptyStr("UserDirectory=Internal;UserId=sa_repository"),
  rejectUnauthorized: bool(true),
  timeoutMs: positiveInt(30000),
});

const CERTIFICATE_REQUIRED = "required (a certificate file) by the features that reach the platform";

/**
 * Validated only when a feature that reaches the platform is on (gates.ts); then each file must
 * be named and readable where the process runs (checked with the files, see filePath).
 */
export const certSchema = section({
  clientCert: filePath(CERTIFICATE_REQUIRED),
  clientCertKey: filePath(CERTIFICATE_REQUIRED),
  clientCertCA: filePath(CERTIFICATE_REQUIRED),
  // Butler SOS allows null for "no passphrase"; it becomes "".
  clientCertPassphrase: v.optional(
    v.pipe(
      v.nullable(v.string()),
      v.transform((s) => s ?? ""),
    ),
    "",
  ),
});

/** Validated only when restServer.endpointsEnable.chatPostMessage is on. */
export const chatSchema = section({ webhookURL: requiredHttpUrl() });
