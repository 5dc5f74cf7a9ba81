/**
 * What the simulated tenant's routes take and give: the request as a route reads it and the
 * answer it makes, with Qlik's error body (`{errors: [{code, title, detail?}]}`), and the opaque
 * page cursors its lists hand out (base64 of an offset, as the audits API's look).
 */

export interface RouteRequest {
  readonly method: string;
  /** Without the query. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The JSON body, parsed; undefined when there was none. */
  readonly body: unknown;
  /** The tenant's own address, for absolute links. */
  readonly baseUrl: string;
}

export interface RouteAnswer {
  readonly status: number;
  /** JSON, or text when `contentType` says so. */
  readonly body?: unknown;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export const json = (status: number, body: unknown): RouteAnswer => ({ status, body });

export const problem = (status: number, code: string, title: string, detail?: string): RouteAnswer =>
  json(status, {
    errors: [{ code, title, ...(detail === undefined ? {} : { detail }), status: String(status) }],
  });

export const notFound = (what: string) => problem(404, "HTTP-404", "Not found", `${what} not found`);

export const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString("base64url");

export function decodeCursor(text: string | null): number {
  if (text === null) return 0;
  const match = /^offset:(\d+)$/.exec(Buffer.from(text, "base64url").toString("utf8"));
  return match === null ? 0 : Number(match[1]);
}

/** `limit` within 1 and `max`, `fallback` when absent or not a number. */
export function limitOf(query: URLSearchParams, fallback: number, max: number): number {
  const value = Number(query.get("limit") ?? fallback);
  return Number.isInteger(value) ? Math.min(max, Math.max(1, value)) : fallback;
}

/** One page of `items` from the `next` cursor, with Qlik's `links` (absolute hrefs). */
export function page<T>(
  items: readonly T[],
  request: RouteRequest,
  options: { limit: number; linkBase?: string },
): { data: T[]; links: Record<string, { href: string }> } {
  const offset = decodeCursor(request.query.get("next"));
  const data = items.slice(offset, offset + options.limit);
  const self = new URL(`${options.linkBase ?? request.baseUrl}${request.path}`);
  for (const [name, value] of request.query) if (name !== "next") self.searchParams.set(name, value);
  const links: Record<string, { href: string }> = { self: { href: self.href } };
  if (offset + options.limit < items.length) {
    const next = new URL(self.href);
    next.searchParams.set("next", encodeCursor(offset + options.limit));
    links.next = { href: next.href };
  }
  return { data, links };
}

/** Items sorted by a `±field` parameter of dates; `fallback` when the parameter is absent. */
export function sortedBy<T extends object>(
  items: readonly T[],
  sort: string,
  allowed: readonly string[],
): T[] {
  const descending = sort.startsWith("-");
  const field = sort.replace(/^[+-]/, "");
  if (!allowed.includes(field)) return [...items];
  const value = (item: T) => {
    const raw = (item as Record<string, unknown>)[field];
    return typeof raw === "string" ? Date.parse(raw) : Number.NEGATIVE_INFINITY;
  };
  return [...items].sort((a, b) => (descending ? value(b) - value(a) : value(a) - value(b)));
}
