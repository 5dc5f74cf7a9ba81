/**
 * How much of AWS the stack may use, chosen at deploy time (`sst deploy`, `sst dev`) from the
 * environment, each with a default (docs/aws.md, "Limits"):
 * - the API's throttle, on each route of the API Gateway stage: `STEWARD_API_RATE_LIMIT` requests
 *   per second in the long run and `STEWARD_API_BURST_LIMIT` at once. Beyond them the gateway
 *   answers 429 before any function runs, so a flood costs no Lambda time and no DynamoDB write.
 * - each function's reserved concurrency: `STEWARD_INGEST_CONCURRENCY`, `STEWARD_REST_CONCURRENCY`,
 *   `STEWARD_CONSUMER_CONCURRENCY` instances at most, and as many always kept for it whatever
 *   else runs in the account, so that a flood on one API can neither starve the other functions
 *   nor take the account's whole Lambda concurrency. The consumer's queue subscription polls with
 *   at most as many batches at once (the event source mapping's maximum concurrency, 2 or more),
 *   so its messages are never handed to a function with no room for them.
 * - the Qlik Cloud webhook function's reserved concurrency, `STEWARD_QLIK_CLOUD_WEBHOOK_CONCURRENCY`,
 *   and how often the polling function runs, `STEWARD_QLIK_CLOUD_POLL_MINUTES` (a whole number of
 *   minutes that divides an hour, so that the schedule's slots are the same every hour;
 *   infra/qlik-cloud.ts).
 * A value that is not a whole number within its range stops the deploy with the variable's name.
 */

/** A limit read from the environment: `name`, its default and the range AWS accepts. */
function limit(name: string, fallback: number, min: number, max: number): number {
  const text = process.env[name]?.trim();
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${text}"`);
  }
  return value;
}

/** Requests per second and at once on each route of the API (API Gateway accepts 10,000 / 5,000 per account). */
export const apiThrottle = {
  rateLimit: limit("STEWARD_API_RATE_LIMIT", 100, 1, 10_000),
  burstLimit: limit("STEWARD_API_BURST_LIMIT", 200, 1, 5_000),
};

/** Instances each function may run at once, all reserved for it. */
export const reservedConcurrency = {
  ingest: limit("STEWARD_INGEST_CONCURRENCY", 20, 1, 1000),
  rest: limit("STEWARD_REST_CONCURRENCY", 10, 1, 1000),
  consumer: limit("STEWARD_CONSUMER_CONCURRENCY", 5, 2, 1000),
  qlikCloudWebhook: limit("STEWARD_QLIK_CLOUD_WEBHOOK_CONCURRENCY", 10, 1, 1000),
};

/** Minutes between two polls of the Qlik Cloud tenants: 1 to 60, dividing 60. */
export const qlikCloudPollMinutes = (() => {
  const minutes = limit("STEWARD_QLIK_CLOUD_POLL_MINUTES", 5, 1, 60);
  if (60 % minutes !== 0) {
    throw new Error(
      `STEWARD_QLIK_CLOUD_POLL_MINUTES must divide an hour (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30 or 60), not "${minutes}"`,
    );
  }
  return minutes;
})();
