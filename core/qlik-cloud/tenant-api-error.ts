/**
 * The one error a tenant client throws: the tenant answered other than 2xx, or the call failed
 * before an answer (time limit, network, a redirect not followed, given up). `status` is the HTTP
 * status, or what happened instead; it is the label the API errors are counted under. The message
 * names the tenant, the call and Qlik's own `errors[0]` title and detail when the answer had
 * them, never a credential.
 */

export type TenantCallFailure = "timeout" | "network" | "redirect" | "aborted";

export interface TenantApiErrorOptions {
  readonly tenant: string;
  readonly method: string;
  readonly path: string;
  readonly status: number | TenantCallFailure;
  /** Qlik's `errors[0].code` and `.title`/`.detail`, or what went wrong. */
  readonly code?: string | undefined;
  readonly detail?: string | undefined;
  readonly cause?: unknown;
}

export class TenantApiError extends Error {
  override readonly name = "TenantApiError";
  readonly tenant: string;
  readonly status: number | TenantCallFailure;
  readonly code: string | undefined;

  constructor(options: TenantApiErrorOptions) {
    const what =
      typeof options.status === "number" ? `answered ${options.status}` : failureText(options.status);
    const detail = options.detail === undefined ? "" : `: ${options.detail}`;
    super(
      `Qlik Cloud tenant ${options.tenant}: ${options.method} ${options.path} ${what}${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.tenant = options.tenant;
    this.status = options.status;
    this.code = options.code;
  }
}

function failureText(failure: TenantCallFailure): string {
  switch (failure) {
    case "timeout":
      return "got no answer in time";
    case "network":
      return "could not be reached";
    case "redirect":
      return "answered with a redirect, which is not followed";
    case "aborted":
      return "was given up";
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Qlik's error body, read defensively: `{errors: [{code, title, detail}]}` in most APIs, with
 * deprecated `error`/`message` beside it in the licence API.
 */
export function qlikErrorOf(body: unknown): { code?: string; detail?: string } {
  if (!isRecord(body)) return {};
  const first = Array.isArray(body.errors) && isRecord(body.errors[0]) ? body.errors[0] : body;
  const code = typeof first.code === "string" ? first.code.slice(0, 100) : undefined;
  const parts = [first.title, first.detail, first.message].filter(
    (part): part is string => typeof part === "string" && part !== "",
  );
  const detail = parts.length === 0 ? undefined : parts.join(" - ").slice(0, 500);
  return { ...(code === undefined ? {} : { code }), ...(detail === undefined ? {} : { detail }) };
}
