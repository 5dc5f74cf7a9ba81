/** obsPlatform (observability platform destination) and its account credentials. */
import * as v from "valibot";
import { bool, httpUrl, list, nameValueList, requiredStr, section } from "./primitives.ts";

const enableOn = () => section({ enable: bool(true) });

/** The platform takes its key in a header; a header of the operator's own goes in `header` beside the URL. */
const HEADER_HINT = "send them as a header in the header list beside this URL";

const attribute = () =>
  section({ static: nameValueList(), dynamic: section({ serviceVersion: enableOn() }) });

export const obsPlatformSchema = section({
  enable: bool(false),
  event: section({
    url: httpUrl("https://insights-collector.eu01.nr-data.net", HEADER_HINT),
    header: nameValueList(),
    attribute: attribute(),
  }),
  metric: section({
    destinationAccount: list(requiredStr),
    url: httpUrl("https://insights-collector.eu01.nr-data.net/metric/v1", HEADER_HINT),
    header: nameValueList(),
    dynamic: section({
      engine: section({
        memory: enableOn(),
        cpu: enableOn(),
        calls: enableOn(),
        selections: enableOn(),
        sessions: enableOn(),
        users: enableOn(),
        saturated: enableOn(),
      }),
      apps: section({
        docCount: enableOn(),
        activeDocs: enableOn(),
        loadedDocs: enableOn(),
        inMemoryDocs: enableOn(),
      }),
      cache: section({ cache: enableOn() }),
      proxy: section({ sessions: enableOn() }),
    }),
    attribute: attribute(),
  }),
});

/** Account IDs are numeric in the platform; YAML may hold either form, the config holds a string. */
const accountId = v.pipe(
  v.union(
    [requiredStr, v.pipe(v.number(), v.integer("must be an integer"))],
    "must be a string or an integer",
  ),
  v.transform((id) => String(id)),
);

export const thirdPartyToolsCredentialsSchema = section({
  obsPlatform: list(v.object({ accountName: requiredStr, insertApiKey: requiredStr, accountId })),
});
