/**
 * Who receives a reload-task alert's email, decided per alert:
 * 1. every address in the task's custom property named by `alertEnabledByEmailAddress`, always;
 * 2. the `recipients` list, for every task, or — with `alertEnableByCustomProperty.enable` — only
 *    for tasks whose custom property has the enabled value;
 * 3. the app owner's addresses (all of them), when `appOwnerAlert.enable` and the owner is
 *    included (everyone, or the listed owners) and not excluded.
 * Addresses are de-duplicated (case-insensitively, the first spelling kept) and checked; a value
 * that is not an address is refused with the reason, never silently dropped.
 *
 * What the repository could not tell never loses the alert: without the task's custom properties
 * the global list is used (a surplus email is better than a lost one), and an owner that could
 * not be looked up only leaves the owner out.
 */

import { addressKey, isEmailAddress } from "../../shared/email-address.ts";
import type { AppOwner, CustomPropertyValue, TaskAlert } from "../task-alert.ts";
import type { RecipientDecision } from "./email-messages.ts";

export interface OwnerRef {
  readonly directory: string;
  readonly userId: string;
}

export interface RecipientRules {
  readonly alertEnableByCustomProperty: {
    readonly enable: boolean;
    readonly customPropertyName: string;
    readonly enabledValue: string;
  };
  readonly alertEnabledByEmailAddress: { readonly customPropertyName: string };
  readonly recipients: readonly string[];
  readonly appOwnerAlert?: {
    readonly enable: boolean;
    readonly includeOwner: { readonly includeAll: boolean; readonly user: readonly OwnerRef[] };
    readonly excludeOwner: { readonly user: readonly OwnerRef[] };
  };
}

/** A custom property value may hold several addresses separated by commas or semicolons. */
const SEPARATOR = /[,;]/;

function propertyValues(properties: readonly CustomPropertyValue[], name: string): string[] {
  return properties
    .filter((property) => property.name === name)
    .flatMap((property) => property.value.split(SEPARATOR))
    .map((value) => value.trim())
    .filter((value) => value !== "");
}

const sameOwner = (owner: AppOwner, ref: OwnerRef) =>
  owner.userDirectory.toLowerCase() === ref.directory.toLowerCase() &&
  owner.userId.toLowerCase() === ref.userId.toLowerCase();

function ownerAddresses(alert: TaskAlert, rules: RecipientRules, notes: string[]): string[] {
  const ownerRules = rules.appOwnerAlert;
  if (ownerRules === undefined || !ownerRules.enable) return [];
  if (!alert.appOwner.available) {
    notes.push(`app owner not available: ${alert.appOwner.reason}`);
    return [];
  }
  const owner = alert.appOwner.value;
  const included =
    ownerRules.includeOwner.includeAll || ownerRules.includeOwner.user.some((ref) => sameOwner(owner, ref));
  if (!included || ownerRules.excludeOwner.user.some((ref) => sameOwner(owner, ref))) return [];
  if (owner.emails.length === 0)
    notes.push(`app owner ${owner.userDirectory}\\${owner.userId} has no email address`);
  return [...owner.emails];
}

function globalListApplies(alert: TaskAlert, rules: RecipientRules, notes: string[]): boolean {
  const gate = rules.alertEnableByCustomProperty;
  if (!gate.enable) return true;
  if (!alert.task.available) {
    notes.push(`task not available (${alert.task.reason}): the recipients list is used`);
    return true;
  }
  return propertyValues(alert.task.value.customProperties, gate.customPropertyName).includes(
    gate.enabledValue,
  );
}

export function taskEmailRecipients(alert: TaskAlert, rules: RecipientRules): RecipientDecision {
  const notes: string[] = [];
  const candidates: { value: string; source: string }[] = [];
  const taskProperties = alert.task.available ? alert.task.value.customProperties : [];
  const propertyName = rules.alertEnabledByEmailAddress.customPropertyName;
  for (const value of propertyValues(taskProperties, propertyName))
    candidates.push({ value, source: `task custom property ${propertyName}` });
  if (globalListApplies(alert, rules, notes))
    for (const value of rules.recipients) candidates.push({ value: value.trim(), source: "recipients" });
  for (const value of ownerAddresses(alert, rules, notes))
    candidates.push({ value: value.trim(), source: "app owner" });

  const seen = new Set<string>();
  const recipients: string[] = [];
  const refused: { value: string; source: string }[] = [];
  for (const candidate of candidates) {
    if (!isEmailAddress(candidate.value)) {
      refused.push(candidate);
      continue;
    }
    const key = addressKey(candidate.value);
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(candidate.value);
  }
  return { recipients, refused, notes };
}
