/**
 * qlikSenseUrls and genericUrls: the links alerts carry (the management console, the hub, an
 * app's page, and links of the operator's own such as a runbook or a ticketing system), under
 * Butler's names so that existing alert templates keep working. Empty means "no link".
 */
import * as v from "valibot";
import { isHttpUrl } from "../validators.ts";
import { list, requiredStr, section } from "./primitives.ts";

const URL_MESSAGE = "must be an http(s) URL or empty";

/** An http(s) URL, or "" for none. */
const optionalUrl = () =>
  v.optional(
    v.pipe(
      v.string(),
      v.check((s) => s === "" || isHttpUrl(s), URL_MESSAGE),
    ),
    "",
  );

export const qlikSenseUrlsSchema = section({
  qmc: optionalUrl(),
  hub: optionalUrl(),
  /** An app's page is `<appBaseUrl>/<app id>`, e.g. `https://sense.example.com/sense/app`. */
  appBaseUrl: optionalUrl(),
});

export const genericUrlSchema = v.object({
  id: requiredStr,
  linkText: requiredStr,
  comment: v.optional(v.string(), ""),
  url: v.pipe(v.string(), v.check(isHttpUrl, "must be an http(s) URL")),
});

export const genericUrlsSchema = list(genericUrlSchema);
