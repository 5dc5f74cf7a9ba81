/**
 * The app's owner and their email addresses: the owner as the app names it (from the app
 * already read, or `GET /qrs/app/<id>` when that read failed or named none), then the user's
 * `email` attributes. Either call failing makes the owner "not available" with the reason: an
 * owner without known addresses must not look like an owner who has none.
 */

import { type AppOwner, available, type Enriched, notAvailable } from "../alerts/index.ts";
import { describeError } from "../shared/describe-error.ts";
import type { OwnerReference, RepositoryApp, TaskRepository } from "./task-repository.ts";

export async function lookUpAppOwner(
  appId: string,
  app: RepositoryApp | undefined,
  repository: TaskRepository,
  signal: AbortSignal | undefined,
): Promise<Enriched<AppOwner>> {
  if (appId === "") return notAvailable("the task has no app");
  let owner: OwnerReference | undefined = app?.owner;
  try {
    owner ??= await repository.appOwner(appId, signal);
    if (owner === undefined) return notAvailable(`the repository names no owner of app ${appId}`);
    const emails = await repository.userEmails(owner.id, signal);
    if (emails === undefined)
      return notAvailable(`the repository knows no user ${owner.id} (the app's owner)`);
    return available({ ...owner, emails });
  } catch (error) {
    return notAvailable(`reading the app's owner failed: ${describeError(error)}`);
  }
}
