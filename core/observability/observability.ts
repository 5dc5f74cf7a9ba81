/** Where observability posts go (resolved once at wiring) and how accounts are picked by name. */
import type { NameValue, ObservabilityAccount } from "../ports.ts";

/** Where one kind of post (events or metrics) goes: resolved once at wiring from the config. */
export interface ObservabilityDestination {
  url: string;
  headers: readonly NameValue[];
  staticAttributes: readonly NameValue[];
  /** The accounts named by `restServer.observability.<kind>.destinationAccount`. */
  accounts: readonly ObservabilityAccount[];
}

/** Picks the configured accounts by name; unknown names are reported so wiring can fail loudly. */
export function selectAccounts(
  all: readonly ObservabilityAccount[],
  names: readonly string[],
): { accounts: ObservabilityAccount[]; unknown: string[] } {
  const accounts: ObservabilityAccount[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const account = all.find((candidate) => candidate.accountName === name);
    if (account === undefined) unknown.push(name);
    else accounts.push(account);
  }
  return { accounts, unknown };
}
