/**
 * Errors for calls that leave the process (broker, observability platform, chat webhook,
 * platform). The REST edge answers 502 for any UpstreamError and 503 for FeatureDisabledError.
 */

/** A system we depend on failed, refused or did not answer in time. */
export class UpstreamError extends Error {
  /** Short name of the upstream for logs and messages, e.g. "mqtt broker". */
  readonly upstream: string;
  constructor(upstream: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UpstreamError";
    this.upstream = upstream;
  }
}

/** The endpoint is enabled but the feature it relies on is switched off in the config. */
export class FeatureDisabledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FeatureDisabledError";
  }
}
