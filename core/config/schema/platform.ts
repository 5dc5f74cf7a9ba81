/** platform (repository/engine API access), cert (client certificates) and chat. */
import * as v from "valibot";
import {
  bool,
  nonEmptyStr,
  optionalHost,
  port,
  positiveInt,
  requiredHttpUrl,
  section,
  str,
} from "./primitives.ts";

export const platformSchema = section({
  host: optionalHost(""),
  repositoryPort: port(4242),
  enginePort: port(4747),
  userHeader: nonEmptyStr("UserDirectory=Internal;UserId=sa_repository"),
  rejectUnauthorized: bool(true),
  timeoutMs: positiveInt(30000),
});

/** Certificate file paths are checked for readability at load time, when a feature needs them. */
export const certSchema = section({
  clientCert: str(""),
  clientCertKey: str(""),
  clientCertCA: str(""),
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
