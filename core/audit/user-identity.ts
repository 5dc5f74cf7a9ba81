/**
 * Parses the platform's user string of `payload.context.user` into directory and id, the same way for
 * every destination, so that they all store the same user for an event.
 */

export interface UserIdentity {
  /** The trimmed user string, or null when absent, empty or `N/A`. */
  user: string | null;
  userDirectory: string | null;
  userId: string | null;
}

const NONE: UserIdentity = { user: null, userDirectory: null, userId: null };

/**
 * Accepts `UserDirectory=LAB; UserId=goran`, `LAB; UserId=goran` (a bare first segment is the
 * directory), keys case-insensitive, and `LAB\goran`. Anything else (a cloud e-mail, say) keeps
 * `user` and leaves directory and id null.
 */
export function parseUserIdentity(raw: unknown): UserIdentity {
  if (typeof raw !== "string") return NONE;
  const user = raw.trim();
  if (user === "" || user.toUpperCase() === "N/A") return NONE;
  return { user, ...parseSegments(user) };
}

function parseSegments(user: string): Omit<UserIdentity, "user"> {
  if (user.includes(";")) {
    let userDirectory: string | null = null;
    let userId: string | null = null;
    user.split(";").forEach((segment, index) => {
      const part = segment.trim();
      const eq = part.indexOf("=");
      if (eq < 0) {
        if (index === 0 && part !== "") userDirectory = part;
        return;
      }
      const key = part.slice(0, eq).trim().toLowerCase();
      const value = part.slice(eq + 1).trim();
      if (value === "") return;
      if (key === "userdirectory") userDirectory = value;
      else if (key === "userid") userId = value;
    });
    if (userDirectory !== null && userId !== null) return { userDirectory, userId };
    return { userDirectory: null, userId: null };
  }
  const slash = user.indexOf("\\");
  if (slash > 0 && slash < user.length - 1) {
    return { userDirectory: user.slice(0, slash), userId: user.slice(slash + 1) };
  }
  return { userDirectory: null, userId: null };
}
