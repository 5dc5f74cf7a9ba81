/**
 * The layout of the Qlik Cloud table (infra/qlik-cloud.ts), which holds what the cloud functions
 * keep of the tenants between invocations: hash key `pk`, range key `sk` (both strings), TTL
 * attribute `expiresAt` (Unix seconds). Each kind of item has its own `pk` prefix, so that one
 * table serves them all without their keys meeting:
 * - `run#<tenant>` / reload id: a run taken by the webhook or polling function
 *   (dynamo-cloud-run-inbox.ts);
 * - `cursor#<tenant>` / input: how far polling has read (dynamo-cloud-cursor-store.ts).
 * A table of its own rather than the REST API's key-value table: there, the runs would be keys
 * that the API lists, changes and deletes, and that count against its limits.
 */

export const QLIK_CLOUD_TABLE_KEYS = { hash: "pk", range: "sk" } as const;
export const QLIK_CLOUD_TABLE_TTL = "expiresAt";

/** Whether a failure is DynamoDB refusing a conditional write (the condition did not hold). */
export function conditionFailed(error: unknown): boolean {
  return (error as { name?: unknown }).name === "ConditionalCheckFailedException";
}

/** A DynamoDB call of the Qlik Cloud table that failed, naming what was asked. */
export class QlikCloudTableError extends Error {
  override name = "QlikCloudTableError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
