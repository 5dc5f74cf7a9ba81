/**
 * The session lists one simulated proxy answers on `GET /qps<prefix>/session`:
 * per virtual proxy prefix a set of sessions where, at each call, some end and some start, from
 * a pool of 40 users in two directories. Entries have the proxy's shape
 * (`UserDirectory`, `UserId`, `SessionId`, `Attributes: []`).
 */
import { randomUUID } from "node:crypto";

export interface SessionEntry {
  readonly UserDirectory: string;
  readonly UserId: string;
  readonly SessionId: string;
  readonly Attributes: readonly unknown[];
}

/** The next session list of the virtual proxy with this prefix (`""` for the root proxy). */
export type SessionSimulation = (prefix: string) => readonly SessionEntry[];

const MAX_SESSIONS = 60;

export function createSessionSimulation(random: () => number): SessionSimulation {
  const byPrefix = new Map<string, SessionEntry[]>();

  function newSession(): SessionEntry {
    const user = Math.floor(random() * 40);
    return {
      UserDirectory: user < 30 ? "LAB" : "INTERNAL",
      UserId: user < 30 ? `user${String(user).padStart(2, "0")}` : `svc_monitor${user - 30}`,
      SessionId: randomUUID(),
      Attributes: [],
    };
  }

  return (prefix) => {
    const previous =
      byPrefix.get(prefix) ?? Array.from({ length: 3 + Math.floor(random() * 10) }, newSession);
    const kept = previous.filter(() => random() > 0.15);
    const started = Math.floor(random() * 4);
    for (let i = 0; i < started && kept.length < MAX_SESSIONS; i++) kept.push(newSession());
    byPrefix.set(prefix, kept);
    return kept;
  };
}
