/** A RateLimitStore adapter could not count a hit (e.g. DynamoDB unreachable). */
export class RateLimitStoreError extends Error {
  override readonly name = "RateLimitStoreError";
}
