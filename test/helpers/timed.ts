/** How a promise settled (its rejection, or undefined) and how long it took, for "never hangs" checks. */
export async function timed(pending: Promise<unknown>): Promise<{ error: unknown; elapsedMs: number }> {
  const started = Date.now();
  const error = await pending.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  return { error, elapsedMs: Date.now() - started };
}
