/**
 * Building blocks shared by every section schema: defaulted scalars, host names, ports, URLs,
 * durations and the small list shapes the config repeats (name/value pairs, string lists).
 * Every builder returns an optional schema with a default, so a missing key takes its default.
 */
import * as v from "valibot";
import { describeValue } from "../describe-value.ts";
import {
  hasUrlCredentials,
  isHost,
  isHostPort,
  isHttpUrl,
  isIpOrCidr,
  isRetentionDuration,
} from "../validators.ts";

/** Host values are no secret, so their messages show them: a placeholder is found at a glance. */
const notAHost = (issue: { input: unknown }) =>
  `${describeValue(issue.input)} is not a host name (RFC 1123) or an IPv4/IPv6 address`;

const notAHostPort = (issue: { input: unknown }) =>
  `${describeValue(issue.input)} is not host or host:port (port 1-65535)`;

export const bool = (fallback: boolean) => v.optional(v.boolean(), fallback);

export const str = (fallback: string) => v.optional(v.string(), fallback);

/**
 * Marks a setting that has no sensible default: it is "" unless set, and must be set (non-empty)
 * when its section is validated. The check lives in the preprocess walk (which knows which
 * sections are active), because the schema also builds the defaults of disabled sections.
 */
const requiredMarker = () =>
  v.metadata<string, { readonly requiredWhenActive: true }>({ requiredWhenActive: true });

/**
 * Marks a setting that names a file Steward reads (a certificate, its key, a CA). When its
 * section is validated and the value is not empty, the file is checked for readability in the
 * same pass as every other setting (core/adapters/local/config-file.ts), so that check-config
 * lists a missing file together with the rest instead of on the next round. `whenEmpty` is the
 * problem that check reports for an empty value: a file only the local process reads is needed
 * there, not wherever the schema is parsed.
 */
const fileMarker = (whenEmpty?: string) =>
  v.metadata<string, { readonly namesFile: true; readonly whenEmpty?: string }>(
    whenEmpty === undefined ? { namesFile: true } : { namesFile: true, whenEmpty },
  );

/** A file setting, "" unless set; see fileMarker for `whenEmpty`. */
export const filePath = (whenEmpty?: string) => v.optional(v.pipe(v.string(), fileMarker(whenEmpty)), "");

/** A file that must be set (a schema rule, like requiredText) when its section is validated. */
export const requiredFilePath = () => v.optional(v.pipe(v.string(), requiredMarker(), fileMarker()), "");

export const requiredFormat = (
  check: (s: string) => boolean,
  message: v.ErrorMessage<v.CheckIssue<string>>,
) =>
  v.optional(
    v.pipe(
      v.string(),
      requiredMarker(),
      v.check((s) => s === "" || check(s), message),
    ),
    "",
  );

/** A required string: "" until set, "required" when its section is validated and it is empty. */
export const requiredText = () => v.optional(v.pipe(v.string(), requiredMarker()), "");

export const requiredHost = () => requiredFormat(isHost, notAHost);

export const requiredHostPort = () => requiredFormat(isHostPort, notAHostPort);

/** What to do instead of `user:pass@` when a setting has nowhere else for credentials. */
const CREDENTIALS_HINT =
  "give credentials in a header setting, or use the URL with the token the service gives";

/**
 * Why a URL setting refuses its value. A URL with a user name or password gets its own reason and
 * where credentials go instead (`hint`), so that a file converted from Butler, whose HTTP client
 * took such URLs, names its fix; the value itself is never repeated (it holds the password).
 */
export function httpUrlRefusal(
  input: string,
  hint = CREDENTIALS_HINT,
  invalid = "must be an http(s) URL",
): string {
  return hasUrlCredentials(input)
    ? `must not hold a user name or password (user:pass@): HTTP requests refuse such URLs; ${hint}`
    : invalid;
}

const urlMessage =
  (hint?: string, invalid?: string) =>
  (issue: v.CheckIssue<string>): string =>
    httpUrlRefusal(issue.input, hint, invalid);

/** An http(s) URL without credentials, or "" (then "required" when its section is validated). */
export const requiredHttpUrl = (hint?: string) => requiredFormat(isHttpUrl, urlMessage(hint));

export const nonEmptyStr = (fallback: string) =>
  v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty")), fallback);

/** An integer in [min, max]; numbers only (no coercion from strings). */
export const int = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer("must be an integer"),
      v.minValue(
        min,
        max === Number.MAX_SAFE_INTEGER ? `must be >= ${min}` : `must be between ${min} and ${max}`,
      ),
      v.maxValue(max, `must be between ${min} and ${max}`),
    ),
    fallback,
  );

export const positiveInt = (fallback: number) => int(fallback, 1);

/** A duration in milliseconds: a non-negative integer. */
export const durationMs = (fallback: number) => int(fallback, 0);

export const port = (fallback: number) =>
  v.optional(
    v.pipe(
      v.number(),
      v.integer("must be a port number (integer 1-65535)"),
      v.minValue(1, "must be a port number (integer 1-65535)"),
      v.maxValue(65535, "must be a port number (integer 1-65535)"),
    ),
    fallback,
  );

export const hostSchema = v.pipe(v.string(), v.check(isHost, notAHost));

export const host = (fallback: string) => v.optional(hostSchema, fallback);

/**
 * The host names, besides loopback names and IP addresses, that a listener answers in a request's
 * `Host` header (local/http/host-check.ts): names only, no scheme or port.
 */
export const allowedHosts = () =>
  list(
    v.pipe(
      v.string(),
      v.check(isHost, "must be a host name such as qlik-ops.corp.local (no scheme, no port)"),
    ),
  );

/** Proxies whose `X-Forwarded-For` names the client: addresses or CIDR ranges. */
export const trustedProxies = () =>
  list(v.pipe(v.string(), v.check(isIpOrCidr, 'must be an IP address or a CIDR range such as "10.0.0.0/8"')));

/** Empty means "not configured"; anything else must be a valid host. */
export const optionalHost = (fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((s) => s === "" || isHost(s), notAHost),
    ),
    fallback,
  );

/** `host:port` (port optional), e.g. `server1.my.domain:4747`. */
export const hostPortSchema = v.pipe(v.string(), v.check(isHostPort, notAHostPort));

export const hostPort = (fallback: string) => v.optional(hostPortSchema, fallback);

/** An http(s) URL without credentials; `hint` says where credentials go instead. */
export const httpUrlSchema = (hint?: string) => v.pipe(v.string(), v.check(isHttpUrl, urlMessage(hint)));

export const httpUrl = (fallback: string, hint?: string) => v.optional(httpUrlSchema(hint), fallback);

/** An http(s) URL, "" for none; `hint` says why it must not hold credentials. */
export const optionalHttpUrl = (hint?: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((s) => s === "" || isHttpUrl(s), urlMessage(hint, "must be an http(s) URL or empty")),
    ),
    "",
  );

/** Retention durations of the time-series database: `0`, `INF` or e.g. `10d`, `1h30m`. */
export const retentionDuration = (fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check(isRetentionDuration, 'must be a duration such as "10d", "30m", "1h", "0" or "INF"'),
    ),
    fallback,
  );

export const list = <T extends v.GenericSchema>(item: T) => v.optional(v.array(item), []);

export const nonEmptyList = <T extends v.GenericSchema>(item: T) =>
  v.pipe(v.array(item), v.minLength(1, "must have at least one item"));

export const requiredStr = v.pipe(v.string(), v.minLength(1, "must not be empty"));

export const nameValue = v.object({ name: requiredStr, value: v.string() });

export type NameValue = v.InferOutput<typeof nameValue>;

export const nameValueList = () => list(nameValue);

export const stringList = () => list(requiredStr);

/** A nested section: all members optional, so `{}` fills every default. */
export const section = <T extends v.ObjectEntries>(entries: T) =>
  // Every member is optional with a default, so `{}` is a valid input; TS cannot prove it generically.
  v.optional(v.object(entries), {} as v.InferInput<v.ObjectSchema<T, undefined>>);
