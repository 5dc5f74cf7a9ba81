/**
 * The signals that stop Steward gracefully (local/cli/main.ts listens for them), by operating
 * system. Everywhere SIGTERM (process managers, `docker stop`, systemd) and SIGINT (Ctrl+C; the
 * Windows service wrapper also stops the service with a Ctrl+C). On Windows also SIGBREAK,
 * which Node raises for Ctrl+Break in the console, and SIGHUP, which it raises when the console
 * window is closed (Windows ends the process a few seconds later, so the stop must begin at once).
 * On Linux SIGHUP keeps its default, so a closed terminal behaves as it always has.
 */
export function stopSignals(platform: NodeJS.Platform): readonly NodeJS.Signals[] {
  return platform === "win32" ? ["SIGTERM", "SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGTERM", "SIGINT"];
}
