/** Bundles `entry` (relative to the project root) to dist/<name>.mjs and returns its file URL. */
export function bundle(entry: string): string;
/** Where `bundle(entry)` writes: dist/<name>.mjs, as a file URL. */
export function bundleUrl(entry: string): string;
/** Bundles `entry` and every npm package it imports to dist/executable/<name>.cjs; returns its path. */
export function bundleExecutable(entry: string): string;
