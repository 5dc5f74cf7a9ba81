/** The node options Steward runs with (bin/node-flags.mjs). */
export const NODE_FLAGS: readonly string[];
