import { describe, expect, it } from "vitest";
import { createObsPlatformDestination } from "../../../../../core/alerts/obs-platform/obs-platform-alert-destination.ts";
import { ObservabilityPostError } from "../../../../../core/observability/observability-post-error.ts";
import type {
  ObservabilityAccount,
  ObservabilityEvent,
  ObservabilityLogBatch,
} from "../../../../../core/ports.ts";
import { admitted } from "../../../../helpers/admitted-destination.ts";
import { newRelicConfig } from "../../../../helpers/alert-configs.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";
import { failedAlert } from "../../../../helpers/task-alert-fixture.ts";
import { LINKS } from "../../../../helpers/task-alerts.ts";

const ACCOUNTS: ObservabilityAccount[] = [
  { accountName: "Prod", insertApiKey: "secret-key-prod", accountId: "111" },
  { accountName: "Audit", insertApiKey: "secret-key-audit", accountId: "222" },
];

interface Posted {
  readonly what: "event" | "log";
  readonly account: string;
  readonly body: ObservabilityEvent | ObservabilityLogBatch;
}

/** A client that records each post and fails for the accounts named in `failFor`. */
function recordingClient(failFor: readonly string[] = []) {
  const posted: Posted[] = [];
  const answer = async (what: Posted["what"], body: Posted["body"], account: ObservabilityAccount) => {
    if (failFor.includes(account.accountName))
      throw new ObservabilityPostError(
        account.accountName,
        403,
        `Posting failed for ${account.accountName}: HTTP 403`,
      );
    posted.push({ what, account: account.accountName, body });
  };
  return {
    posted,
    client: {
      postEvents: (events: readonly ObservabilityEvent[], account: ObservabilityAccount) =>
        answer("event", events[0] as ObservabilityEvent, account),
      postLogs: (batches: readonly ObservabilityLogBatch[], account: ObservabilityAccount) =>
        answer("log", batches[0] as ObservabilityLogBatch, account),
    },
  };
}

const onFor = (accounts: string[], log = false) =>
  newRelicConfig({
    enable: true,
    reloadTaskFailure: {
      destination: {
        event: { enable: true, sendToAccount: { always: { enable: true, account: accounts } } },
        log: { enable: log, sendToAccount: { always: { enable: true, account: accounts } } },
      },
    },
  });

function destinationFor(config: ReturnType<typeof newRelicConfig>, failFor: readonly string[] = []) {
  const { client, posted } = recordingClient(failFor);
  const logger = recordingLogger();
  const destination = admitted(
    createObsPlatformDestination(config, {
      clientFor: () => client,
      accounts: ACCOUNTS,
      logger,
      view: { links: LINKS, hostName: "sense.example.com", version: "9.9.9" },
    }),
  );
  return { destination, posted, logger };
}

describe("the observability-platform destination: what it handles and where it posts", () => {
  it("handles failed and aborted reloads only as switched on, and nothing while the section is off", () => {
    expect(destinationFor(newRelicConfig({})).destination.handles("reloadTaskFailure")).toBe(false);
    const { destination } = destinationFor(onFor(["Prod"]));
    expect(destination.name).toBe("obs-platform");
    expect(destination.handles("reloadTaskFailure")).toBe(true);
    expect(destination.handles("reloadTaskAborted")).toBe(false);
    expect(destination.handles("reloadTaskSuccess")).toBe(false);
  });

  it("posts the event, and the log entry when it is on, to each selected account", async () => {
    // Prepare
    const { destination, posted } = destinationFor(onFor(["Prod", "Audit"], true));

    // Act
    const result = await destination.send(failedAlert());

    // Assess
    expect(result).toEqual({ outcome: "sent", messages: 4 });
    expect(posted.map((p) => `${p.what} ${p.account}`).sort()).toEqual([
      "event Audit",
      "event Prod",
      "log Audit",
      "log Prod",
    ]);
    const event = posted.find((p) => p.what === "event")?.body as ObservabilityEvent | undefined;
    expect(event?.eventType).toBe("qs_reloadTaskFailedEvent");
  });

  it("logs an account name that is not defined and still serves the others, without any key", async () => {
    // Prepare
    const { destination, posted, logger } = destinationFor(onFor(["Prod", "Nowhere"]));

    // Act
    const result = await destination.send(failedAlert());

    // Assess
    expect(result).toEqual({ outcome: "sent", messages: 1 });
    expect(posted.map((p) => p.account)).toEqual(["Prod"]);
    const warnings = logger.at("warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain("thirdPartyToolsCredentials.obsPlatform");
    expect(warnings[0]?.fields?.accounts).toBe("Nowhere");
    expect(JSON.stringify(logger.entries)).not.toContain("secret-key");
  });

  it("skips with the reason when no named account is defined", async () => {
    const { destination, posted } = destinationFor(onFor(["Nowhere"]));
    expect(await destination.send(failedAlert())).toEqual({
      outcome: "skipped",
      reason: "no known observability account",
    });
    expect(posted).toEqual([]);
  });

  it("fails naming the account that failed, never its key, after posting to the others", async () => {
    // Prepare
    const { destination, posted } = destinationFor(onFor(["Prod", "Audit"]), ["Audit"]);

    // Act
    const sent = destination.send(failedAlert());

    // Assess
    await expect(sent).rejects.toThrow(/1 of 2 posts failed \(1 sent\): event to Audit: .*HTTP 403/);
    await expect(sent).rejects.not.toThrow(/secret-key/);
    expect(posted.map((p) => p.account)).toEqual(["Prod"]);
  });
});

describe("the observability-platform destination: rate limits per task", () => {
  it("sends a task's alert once per window; a repeat is suppressed", async () => {
    // Prepare
    const { destination, posted } = destinationFor(onFor(["Prod"], true));

    // Act
    const first = await destination.send(failedAlert());
    const repeat = await destination.send(failedAlert());

    // Assess
    expect(first).toEqual({ outcome: "sent", messages: 2 });
    expect(repeat).toEqual({ outcome: "suppressed", reason: "this task had an alert within 15 s" });
    expect(posted).toHaveLength(2);
  });

  it("keeps the event's and the log entry's limits apart: one left out never holds back the other", async () => {
    // Prepare
    const { client, posted } = recordingClient();
    const destination = admitted(
      createObsPlatformDestination(onFor(["Prod"], true), {
        clientFor: () => client,
        accounts: ACCOUNTS,
        logger: recordingLogger(),
        view: { links: LINKS, hostName: "sense.example.com", version: "9.9.9" },
      }),
    );
    destination.rateLimit.take(`event|reloadTaskFailure|${failedAlert().event.taskId}`, 15);

    // Act
    const result = await destination.send(failedAlert());

    // Assess
    expect(result).toEqual({ outcome: "sent", messages: 1, suppressed: 1 });
    expect(posted.map((p) => p.what)).toEqual(["log"]);
  });
});
