/**
 * The move rule of migrate-config, seen through Butler's rules: a key goes to an absolute place
 * in the result, the mappings on the way are created, its members are converted against the
 * schema there, and two sources for one setting never pass silently.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { migrateConfigText } from "../../../../../core/config/migrate/convert.ts";

/** The sections these tests look at. */
type Service = Partial<Record<"fileOperations" | "taskEvents" | "platform" | "chat", unknown>>;

const OPTIONS = { sourceName: "butler.yaml", convertedBy: "steward 15.0.0" };

function migrate(body: string) {
  const result = migrateConfigText(`Butler:\n${body}`, OPTIONS);
  if (!result.ok) throw new Error(result.message);
  return { ...result, service: (parse(result.text) as { Service: Service }).Service };
}

describe("migrate-config's move rule", () => {
  it("creates the sections on the way to a moved key", () => {
    const { service, dropped } = migrate("  configDirectories:\n    qvdPath: /data/qvd\n");
    expect(service.fileOperations).toEqual({ tableDataDirectory: "/data/qvd" });
    expect(dropped).toEqual([]);
  });

  it("keeps the comment beside a moved key", () => {
    const { text } = migrate(
      "  configDirectories:\n    # where the extract layer writes\n    qvdPath: /data/qvd\n",
    );
    expect(text).toMatch(/# where the extract layer writes\n\s+tableDataDirectory: \/data\/qvd/);
  });

  it("converts a moved section's members against the schema at its new place, moves among them", () => {
    const { service, dropped } = migrate(
      "  udpServerConfig:\n    enable: true\n    serverHost: 0.0.0.0\n    portTaskFailure: 9000\n    spare: 1\n",
    );
    expect(service.taskEvents).toEqual({
      udpServerConfig: { serverHost: "0.0.0.0", portTaskEvents: 9000 },
      enable: true,
    });
    expect(dropped).toEqual([
      {
        path: "Butler.udpServerConfig.spare",
        reason: expect.stringContaining("Service.taskEvents.udpServerConfig.spare"),
      },
    ]);
  });

  it("keeps the first of two sources for one setting and leaves out the other, saying why", () => {
    const { service, dropped } = migrate(
      "  configEngine:\n    host: engine.example\n  configQRS:\n    host: repository.example\n",
    );
    expect(service.platform).toEqual({ host: "engine.example" });
    expect(dropped).toEqual([
      {
        path: "Butler.configQRS.host",
        reason: "Service.platform.host is already set from another key, and Steward has one setting for both",
      },
    ]);
  });

  it("takes a moved key out of its section and converts the rest of the section in place", () => {
    const { service, dropped } = migrate(
      "  slackNotification:\n    restMessage:\n      webhookURL: https://hooks.example/rest\n    spare: 1\n",
    );
    expect(service.chat).toEqual({ webhookURL: "https://hooks.example/rest" });
    expect(dropped.map((key) => key.path)).toEqual(["Butler.slackNotification.spare"]);
  });

  it("leaves out a moved key whose way is blocked by a value, naming the place", () => {
    const { service, dropped } = migrate(
      "  chat: off\n  slackNotification:\n    restMessage:\n      webhookURL: https://hooks.example/rest\n",
    );
    expect(service.chat).toBe("off");
    expect(dropped).toContainEqual({
      path: "Butler.slackNotification.restMessage.webhookURL",
      reason: "a value stands where Service.chat.webhookURL would go",
    });
  });
});
