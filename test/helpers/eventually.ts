/**
 * Waiting in tests for something that happens on real time (another process, a socket, a
 * broker): the condition is polled every `pollMs` until it holds or `timeoutMs` has passed.
 */

/** Resolves true once `condition` holds, false when `timeoutMs` passed first. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  pollMs = 10,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return true;
}

/** Resolves once `condition` holds; rejects when `timeoutMs` passed first. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  pollMs = 10,
): Promise<void> {
  if (!(await eventually(condition, timeoutMs, pollMs))) throw new Error("condition not met in time");
}
