/**
 * qlikSenseUrls and genericUrls: the links alerts carry (the management console, the hub, an
 * app's page, and links of the operator's own such as a runbook or a ticketing system), under
 * Butler's names so that existing alert templates keep working. Empty means "no link".
 */
import * as v from "valibot";
import { httpUrlSchema, list, optionalHttpUrl, requiredStr, section } from "./primitives.ts";

/** Alerts carry these links to every recipient: credentials in one would be shown to all of them. */
const LINK_HINT = "a link in an alert is shown to every recipient, so it must not carry credentials";

export const qlikSenseUrlsSchema = section({
  qmc: optionalHttpUrl(LINK_HINT),
  hub: optionalHttpUrl(LINK_HINT),
  /** An app's page is `<appBaseUrl>/<app id>`, e.g. `https://sense.example.com/sense/app`. */
  appBaseUrl: optionalHttpUrl(LINK_HINT),
});

export const genericUrlSchema = v.object({
  id: requiredStr,
  linkText: requiredStr,
  comment: v.optional(v.string(), ""),
  url: httpUrlSchema(LINK_HINT),
});

export const genericUrlsSchema = list(genericUrlSchema);
