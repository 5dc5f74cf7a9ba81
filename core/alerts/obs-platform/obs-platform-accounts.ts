/**
 * Which observability accounts get a reload alert's event or log entry: those listed under
 * `sendToAccount.always` (when on), the values of the task's custom property named by
 * `sendToAccount.byCustomProperty` (when on; its switch is honoured, not merely present), and
 * the section's `destinationAccount` list, each name once. The destination looks the names up
 * in `thirdPartyToolsCredentials.obsPlatform`. A Qlik Cloud reload's app has no custom
 * properties, so its accounts are those of `always` and `destinationAccount`.
 */
import type { NameValue } from "../../ports.ts";
import type { CloudReloadAlert } from "../cloud-reload-alert.ts";
import { foundValue, type TaskAlert } from "../task-alert.ts";

export interface SendToAccount {
  readonly byCustomProperty: { readonly enable: boolean; readonly customPropertyName: string };
  readonly always: { readonly enable: boolean; readonly account: readonly string[] };
}

/** The account names of one target (event or log) for this alert, without repeats. */
export function accountNamesFor(
  alert: TaskAlert | CloudReloadAlert,
  sendTo: SendToAccount,
  everyAlert: readonly string[],
): string[] {
  const names: string[] = [];
  if (sendTo.always.enable) names.push(...sendTo.always.account);
  if (sendTo.byCustomProperty.enable) {
    const properties: readonly NameValue[] =
      ("task" in alert ? foundValue(alert.task) : undefined)?.customProperties ?? [];
    for (const property of properties)
      if (property.name === sendTo.byCustomProperty.customPropertyName && property.value !== "")
        names.push(property.value);
  }
  names.push(...everyAlert);
  return [...new Set(names)];
}
