/**
 * The category of a tracked error, as Butler SOS names it: timeout, connection_refused,
 * host_not_found, connection_reset, auth_error (401/403), not_found (404), rate_limited (429),
 * http_5xx, http_4xx, certificate_error, mqtt_error, new_relic_error or unknown, read from the
 * error and its `cause` chain (system error codes, HTTP statuses, messages).
 */

export interface ErrorFacts {
  readonly category: string;
  /** A system error code such as ECONNREFUSED, when one is in the chain. */
  readonly code?: string | undefined;
  /** The HTTP status an upstream answered, when one is in the chain. */
  readonly httpStatus?: number | undefined;
}

const CODE_CATEGORIES: Readonly<Record<string, string>> = {
  ETIMEDOUT: "timeout",
  ESOCKETTIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  ECONNREFUSED: "connection_refused",
  ENOTFOUND: "host_not_found",
  EAI_AGAIN: "host_not_found",
  ECONNRESET: "connection_reset",
  EPIPE: "connection_reset",
  UND_ERR_SOCKET: "connection_reset",
};

function statusCategory(status: number): string {
  if (status === 401 || status === 403) return "auth_error";
  if (status === 404) return "not_found";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "http_5xx";
  return "http_4xx";
}

function chain(error: unknown): unknown[] {
  const out: unknown[] = [];
  let current = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth += 1) {
    out.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return out;
}

function read(link: unknown, key: string): unknown {
  return typeof link === "object" && link !== null ? (link as Record<string, unknown>)[key] : undefined;
}

/** Categorises `error`; `fallback` is the category when nothing more specific is known. */
export function categorizeError(error: unknown, fallback = "unknown"): ErrorFacts {
  const links = chain(error);
  const code = links.map((link) => read(link, "code")).find((c): c is string => typeof c === "string");
  const httpStatus = links
    .map((link) => read(link, "status") ?? read(link, "statusCode"))
    .find((s): s is number => typeof s === "number" && s >= 100 && s <= 599);
  const messages = links.map((link) =>
    link instanceof Error ? `${link.name} ${link.message}` : String(link),
  );
  const text = messages.join(" ");
  let category: string | undefined = code === undefined ? undefined : CODE_CATEGORIES[code];
  if (category === undefined && /TimeoutError|timed? ?out/i.test(text)) category = "timeout";
  if (category === undefined && httpStatus !== undefined && httpStatus >= 400)
    category = statusCategory(httpStatus);
  if (category === undefined && /\b(cert|certificate|tls|ssl)\b/i.test(text)) category = "certificate_error";
  return { category: category ?? fallback, code, httpStatus };
}
