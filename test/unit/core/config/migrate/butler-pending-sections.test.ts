/**
 * The Butler rules that lead to sections this version of Steward's schema does not have yet
 * (the licence monitor, the alert destinations): checked against a schema that adds those
 * sections in the shape they take, so the renames and moves are known to land where they should.
 * Steward's own schema leaves the sections out, with the reason, until it has them.
 */
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { migrateConfigText } from "../../../../../core/config/migrate/convert.ts";
import { serviceSchema } from "../../../../../core/config/schema/config.ts";
import {
  bool,
  int,
  list,
  nameValueList,
  requiredStr,
  section,
  str,
} from "../../../../../core/config/schema/primitives.ts";
import { butlerFixture } from "../../../../helpers/butler-config.ts";

const releaseType = () => section({ enable: bool(true), releaseThresholdDays: int(30, 0, 3650) });

/** The licence monitor in the shape it takes: one section, one schedule, a part per Butler monitor. */
const licenseMonitor = section({
  enable: bool(false),
  frequency: str("every 6 hours"),
  timeseriesdb: section({ enable: bool(true), tag: section({ static: nameValueList() }) }),
  sendToMQTT: section({
    enable: bool(false),
    qlikSenseServerLicenseTopic: str(""),
    qlikSenseServerLicenseExpireTopic: str(""),
  }),
  accessLicenses: section({ enable: bool(true) }),
  serverLicense: section({ enable: bool(true), alertDaysBefore: int(30, 0, 3650) }),
  version: section({ enable: bool(true), host: str("") }),
  licenseRelease: section({
    enable: bool(false),
    dryRun: bool(true),
    neverRelease: section({
      user: list(v.object({ userDir: requiredStr, userId: requiredStr })),
      tag: list(requiredStr),
      customProperty: nameValueList(),
      userDirectory: list(requiredStr),
      inactive: str("ignore"),
      blocked: str("ignore"),
      removedExternally: str("ignore"),
    }),
    licenseType: section({ professional: releaseType(), analyzer: releaseType() }),
  }),
});

/** The email and Slack destinations with a few of Butler's keys. */
const alertKind = () => section({ enable: bool(false), subject: str(""), recipients: list(requiredStr) });
const emailNotification = section({
  enable: bool(false),
  smtp: section({ host: str(""), port: int(25, 1, 65535) }),
  reloadTaskFailure: alertKind(),
  reloadTaskAborted: alertKind(),
});
const slackNotification = section({
  enable: bool(false),
  reloadTaskFailure: section({ enable: bool(false), channel: str("") }),
});

const schema = v.object({ ...serviceSchema.entries, licenseMonitor, emailNotification, slackNotification });

const result = migrateConfigText(butlerFixture(), {
  sourceName: "butler.yaml",
  convertedBy: "steward 15.0.0",
  schema,
});
if (!result.ok) throw new Error(result.message);
type Section = "licenseMonitor" | "emailNotification" | "slackNotification" | "chat";
const service = (parse(result.text) as { Service: Partial<Record<Section, unknown>> }).Service;
const reasonOf = (path: string) => result.dropped.find((key) => key.path === path)?.reason;

describe("Butler's licence and version monitors, folded into licenseMonitor", () => {
  it("gives each monitor its part, on one schedule, with the switch on when one part is", () => {
    const monitor = service.licenseMonitor;
    expect(monitor).toMatchObject({
      enable: true,
      frequency: "every 6 hours",
      accessLicenses: { enable: true },
      serverLicense: { enable: true, alertDaysBefore: 45 },
      version: { enable: true, host: "sense-central.nordlys.example" },
      licenseRelease: { enable: true, dryRun: true, licenseType: { analyzer: { releaseThresholdDays: 45 } } },
      timeseriesdb: { enable: true, tag: { static: [{ name: "qs_env", value: "prod" }] } },
      sendToMQTT: {
        enable: true,
        qlikSenseServerLicenseTopic: "nordlys/qliksense/server_license",
        qlikSenseServerLicenseExpireTopic: "nordlys/qliksense/server_license_expire",
      },
    });
    expect(result.notes.find((note) => note.path === "Service.licenseMonitor.enable")?.message).toContain(
      "one of them was on",
    );
  });

  it("leaves out the other schedules and the second time-series blocks, saying why", () => {
    expect(reasonOf("Butler.qlikSenseLicense.serverLicenseMonitor.frequency")).toContain("one schedule");
    expect(reasonOf("Butler.qlikSenseVersion.versionMonitor.frequency")).toContain("one schedule");
    expect(reasonOf("Butler.qlikSenseLicense.licenseRelease.destination.influxDb.tag")).toContain(
      "Service.licenseMonitor.timeseriesdb.tag",
    );
    expect(reasonOf("Butler.qlikSenseLicense.serverLicenseMonitor.destination.mqtt.sendAlert")).toContain(
      "one switch",
    );
  });
});

describe("Butler's alert sections, under their own names", () => {
  it("keeps the email destination's members and leaves out a block the schema has no setting for, saying so", () => {
    expect(service.emailNotification).toMatchObject({
      enable: true,
      smtp: { host: "smtp.nordlys.example", port: 587 },
      reloadTaskFailure: {
        enable: true,
        recipients: ["bi-team@nordlys.example", "bi-oncall@nordlys.example"],
      },
    });
    // This schema lacks the Windows service blocks that Steward's has (and converts).
    expect(reasonOf("Butler.emailNotification.serviceStopped")).toContain(
      "Steward has no setting Service.emailNotification.serviceStopped",
    );
  });

  it("moves Slack's REST message hook to chat and keeps the alert kinds", () => {
    expect(service.slackNotification).toMatchObject({
      reloadTaskFailure: { channel: "bi-reload-failures" },
    });
    expect(service.slackNotification).not.toHaveProperty("restMessage");
    expect(service.chat).toEqual({ webhookURL: "https://hooks.slack.example/services/T000/B000/rest" });
  });
});
