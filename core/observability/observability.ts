/** Observability platform calls of the REST API: types shared by the edge and the poster. */

export interface NameValue {
  name: string;
  value: string;
}

export interface ObservabilityAccount {
  accountName: string;
  insertApiKey: string;
  accountId: string | number;
}

/** Where one kind of post (events or metrics) goes: resolved once at wiring from the config. */
export interface ObservabilityDestination {
  url: string;
  headers: readonly NameValue[];
  staticAttributes: readonly NameValue[];
  /** The accounts named by `restServer.observability.<kind>.destinationAccount`. */
  accounts: readonly ObservabilityAccount[];
}

export interface ObservabilityEvent {
  eventType: string;
  /** Epoch ms; absent or ≤ 0 means now. */
  timestamp?: number;
  attributes: readonly NameValue[];
}

export interface ObservabilityMetric {
  name: string;
  type: "gauge";
  value: number;
  timestamp?: number;
  /** Milliseconds covered by the value; sent as `interval.ms` when given. */
  interval?: number;
  attributes: readonly NameValue[];
}

/** The 202 body of the REST observability calls. */
export interface ObservabilityResult {
  observabilityResultCode: string;
  observabilityResultText: string;
}

export interface ObservabilityPoster {
  postEvent(event: ObservabilityEvent): Promise<ObservabilityResult>;
  postMetric(metric: ObservabilityMetric): Promise<ObservabilityResult>;
}

/**
 * Posts many events in one request to one account (the event API takes a JSON array): the
 * agent's batched UDP event destination, one batch per account so that a retry never repeats
 * what another account accepted. Throws ObservabilityPostError.
 */
export interface ObservabilityEventBatchPoster {
  postEvents(events: readonly ObservabilityEvent[], account: ObservabilityAccount): Promise<void>;
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
