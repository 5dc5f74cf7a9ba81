/**
 * Request members Steward renamed, still accepted under Butler's names so that existing load
 * scripts keep working (docs/moving-from-butler.md). An alias is read only when
 * Steward's member is absent (Steward's name wins when both are given); it is never echoed:
 * answers use Steward's names. Each table maps Steward's name to Butler's.
 */
import * as v from "valibot";

export type MemberAliases = Readonly<Record<string, string>>;

/** POST /v4/schedules. */
export const SCHEDULE_CREATE_ALIASES: MemberAliases = { platformTaskId: "qlikSenseTaskId" };

/** PUT /v4/app/{appId}/reload. */
export const APP_RELOAD_ALIASES: MemberAliases = {
  startPlatformTaskOnSuccess: "startQSEoWTaskOnSuccess",
  startPlatformTaskOnFailure: "startQSEoWTaskOnFailure",
};

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** The body with each alias moved to Steward's name, unless that name is already given. */
export function renameAliasedMembers(body: Record<string, unknown>, aliases: MemberAliases) {
  const renamed: Record<string, unknown> = { ...body };
  for (const [name, alias] of Object.entries(aliases)) {
    if (!Object.hasOwn(renamed, alias)) continue;
    if (renamed[name] === undefined) renamed[name] = renamed[alias];
    delete renamed[alias];
  }
  return renamed;
}

/**
 * `schema` (an object schema) that also accepts the aliased members. The renaming runs before
 * validation, so an alias is checked exactly like the member it stands for, and an alias that
 * is ignored (its member was given too) is not checked at all.
 */
export function withMemberAliases<S extends v.GenericSchema>(schema: S, aliases: MemberAliases) {
  const accepted = Object.entries(aliases)
    .map(([name, alias]) => `${alias} for ${name}`)
    .join(", ");
  return v.pipe(
    v.custom<Record<string, unknown>>(
      isPlainObject,
      (issue) => `Invalid type: Expected Object but received ${issue.received}`,
    ),
    // What the schema then checks: the cast only names the type the schema itself verifies.
    v.transform((body) => renameAliasedMembers(body, aliases) as v.InferInput<S>),
    schema,
    v.metadata({
      description: `Also accepted, as Butler named them: ${accepted} (ignored when the member itself is given).`,
    }),
  );
}
