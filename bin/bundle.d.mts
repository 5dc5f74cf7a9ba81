/** Bundles `entry` (relative to the project root) to dist/<name>.mjs and returns its file URL. */
export function bundle(entry: string): string;
