/**
 * A command-line option that takes a whole number within bounds (the simulators' --port, --servers,
 * --tenants, --every): its value, the fallback when it is absent, or the command's own usage error
 * naming the option, its bounds and what was given.
 */
export function wholeNumberOption(
  option: { readonly name: string; readonly text: string | undefined },
  bounds: { readonly fallback: number; readonly min: number; readonly max: number },
  usageError: (message: string) => Error,
): number {
  const { name, text } = option;
  if (text === undefined) return bounds.fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < bounds.min || value > bounds.max) {
    throw usageError(`${name} must be a whole number from ${bounds.min} to ${bounds.max} (got "${text}")`);
  }
  return value;
}
