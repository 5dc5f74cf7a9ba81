/**
 * Who is in a virtual proxy's session list: the `DIR\ID` of each session, de-duplicated in
 * first-seen order and joined with `,`, and the `userSessions.excludeUser` matcher. A user is
 * excluded when both `directory` and `userId` equal the session's exactly — case-sensitive, as in
 * Butler SOS and as UDP user events match `userEvents.excludeUser`.
 */
import type { UserSessionsConfig } from "../config/index.ts";
import type { ProxySession } from "../ports.ts";

/** True when the user is on the exclusion list. */
export type UserExclusion = (userDirectory: string, userId: string) => boolean;

export function createUserExclusion(excludeUser: UserSessionsConfig["excludeUser"]): UserExclusion {
  // Directory → user ids: no separator character can make two different pairs collide.
  const byDirectory = new Map<string, Set<string>>();
  for (const { directory, userId } of excludeUser) {
    const ids = byDirectory.get(directory) ?? new Set<string>();
    ids.add(userId);
    byDirectory.set(directory, ids);
  }
  if (byDirectory.size === 0) return () => false;
  return (userDirectory, userId) => byDirectory.get(userDirectory)?.has(userId) === true;
}

/** `DIR\ID` of every session, each once, in first-seen order, joined with `,`. */
export function uniqueUserList(sessions: readonly ProxySession[]): string {
  return [...new Set(sessions.map((s) => `${s.userDirectory}\\${s.userId}`))].join(",");
}
