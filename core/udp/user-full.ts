/**
 * User normalisation of UDP events: dashboards group by `DIR\ID`, so it is built from directory and
 * id whenever both are known — also over the scheduler's own field 12 — and a lone `DIR\ID` splits
 * into the two when both are missing.
 */

export interface UserFields {
  user_directory: string;
  user_id: string;
}

/** The `user_full` of the event; may fill `user_directory` and `user_id` from `given`. */
export function normaliseUser(user: UserFields, given = ""): string {
  if (user.user_directory !== "" && user.user_id !== "") return `${user.user_directory}\\${user.user_id}`;
  const slash = given.indexOf("\\");
  if (user.user_directory === "" && user.user_id === "" && slash > 0 && slash < given.length - 1) {
    user.user_directory = given.slice(0, slash);
    user.user_id = given.slice(slash + 1);
    return given;
  }
  return "";
}
