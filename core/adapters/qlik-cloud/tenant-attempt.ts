/**
 * One HTTP attempt at a tenant: the request built under the tenant's URL, sent with `fetch` under
 * a time limit counted on the injected clock (so tests move it by hand), its answer read up to a
 * bounded size. Redirects are not followed: a tenant's REST API answers at its own address, and a
 * redirect followed would carry the bearer token to wherever it points; a 3xx is reported with its
 * target, so the operator can correct `url`. What did not end in an answer (time limit, network,
 * given up) throws TenantApiError; every answer, 2xx or not, is returned for the caller to judge.
 */
import type { Clock, TenantRequest } from "../../ports.ts";
import { TenantApiError } from "../../qlik-cloud/index.ts";

export interface AttemptAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text; "" for none. */
  readonly text: string;
}

export interface AttemptOptions {
  readonly tenant: string;
  readonly baseUrl: URL;
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** Largest answer read; a larger one fails the call (a script log of a huge app included). */
  readonly maxBodyBytes: number;
}

/** The request's URL under the tenant's (which may carry a path of its own, behind a proxy). */
export function tenantUrl(baseUrl: URL, request: Pick<TenantRequest, "path" | "query">): URL {
  const url = new URL(baseUrl.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}${request.path}`;
  url.search = "";
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

async function readWithin(response: Response, maxBytes: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}

export async function attempt(
  options: AttemptOptions,
  request: TenantRequest,
  headers: Record<string, string>,
): Promise<AttemptAnswer> {
  const method = request.method ?? "GET";
  const failure = (
    status: "timeout" | "network" | "aborted" | "redirect",
    detail?: string,
    cause?: unknown,
  ) => new TenantApiError({ tenant: options.tenant, method, path: request.path, status, detail, cause });
  if (request.signal?.aborted) throw failure("aborted");
  const controller = new AbortController();
  let timedOut = false;
  const timer = options.clock.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onAbort = () => controller.abort();
  request.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const response = await fetch(tenantUrl(options.baseUrl, request), {
      method,
      headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
      ...(body === undefined ? {} : { body }),
      redirect: "manual",
      signal: controller.signal,
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const location = response.headers.get("location") ?? "nowhere";
      throw failure(
        "redirect",
        `${response.status} to ${location.slice(0, 200)}; set the tenant's url to where it answers`,
      );
    }
    const text = await readWithin(response, options.maxBodyBytes);
    if (text === undefined)
      throw failure("network", `the answer is larger than ${options.maxBodyBytes} bytes`);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (error instanceof TenantApiError) throw error;
    if (timedOut) throw failure("timeout", `no answer within ${options.timeoutMs} ms`, error);
    if (request.signal?.aborted) throw failure("aborted", undefined, error);
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    throw failure("network", typeof code === "string" ? code : describe(error), error);
  } finally {
    options.clock.clearTimeout(timer);
    request.signal?.removeEventListener("abort", onAbort);
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));
