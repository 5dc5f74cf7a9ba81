import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PlatformConnectionOptions } from "../../../../../core/adapters/platform/options.ts";
import {
  type ClosablePlatformClient,
  createQlikPlatformClient,
} from "../../../../../core/adapters/platform/platform-client.ts";
import { loadPlatformTlsMaterial } from "../../../../../core/adapters/platform/tls-material.ts";
import {
  PlatformCertificateError,
  PlatformConnectionClosedError,
  PlatformResponseError,
  PlatformTimeoutError,
  PlatformUnreachableError,
} from "../../../../../core/platform/errors.ts";
import { systemClock } from "../../../../../core/system-clock.ts";
import { APP_SALES, TAG_WITH_QUOTE, TASK_SALES } from "../../../../../local/simulated-platform/catalogue.ts";
import { describePlatformClientContract } from "../../../../contracts/platform-client.contract.ts";
import { startTestPlatform, type TestPlatform } from "../../../../fixtures/platform/test-platform.ts";
import { recordingLogger } from "../../../../helpers/recording-logger.ts";

let sim: TestPlatform;
let client: ClosablePlatformClient;
const testLogger = recordingLogger();
const openClients: ClosablePlatformClient[] = [];

async function makeClient(
  overrides: Partial<PlatformConnectionOptions> = {},
  certificates = sim.certificates,
): Promise<ClosablePlatformClient> {
  const made = createQlikPlatformClient({
    connection: sim.connection(overrides),
    tls: await loadPlatformTlsMaterial(certificates),
    clock: systemClock,
    logger: testLogger,
  });
  openClients.push(made);
  return made;
}

beforeAll(async () => {
  sim = await startTestPlatform();
  client = await makeClient();
});

afterAll(async () => {
  for (const made of openClients) made.close();
  await sim?.stop();
});

beforeEach(() => sim.reset());

describePlatformClientContract("Qlik Sense adapter against the simulated platform", {
  client: () => client,
  startedTaskIds: () => sim.repository.startedTaskIds,
});

describe("repository calls on the wire", () => {
  it("sends the same 16-character xrfkey as query parameter and header, plus X-Qlik-User", async () => {
    // Act
    await client.findTaskById(TASK_SALES);
    // Assess: the simulation answers 403 unless query and header match, so a found task proves it
    const call = sim.repository.calls[0];
    expect(call?.query.xrfkey).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(call?.user).toBe("UserDirectory=Internal;UserId=sa_repository");
    expect(call?.clientCertCn).toBe("QlikClient");
  });

  it("looks a task up in full (with its tags and custom properties) by an id filter and starts it through the synchronous start call", async () => {
    await client.findTaskById(TASK_SALES);
    await client.startTask(TASK_SALES);
    expect(sim.repository.calls.map((c) => [c.method, c.path, c.query.filter])).toEqual([
      ["GET", "/qrs/task/full", `id eq ${TASK_SALES}`],
      ["POST", `/qrs/task/${TASK_SALES}/start/synchronous`, undefined],
    ]);
  });

  it("lists the apps with GET /qrs/app and no filter", async () => {
    // Act
    await client.listRepositoryApps();
    // Assess
    expect(sim.repository.calls.map((c) => [c.method, c.path, c.query.filter])).toEqual([
      ["GET", "/qrs/app", undefined],
    ]);
  });

  it("doubles single quotes in tag filters", async () => {
    await client.findTasksByTag(TAG_WITH_QUOTE);
    expect(sim.repository.calls[0]?.query.filter).toBe("tags.name eq 'It''s nightly'");
  });

  it("works with a passphrase-protected client key", async () => {
    const withPassphrase = await makeClient(
      {},
      {
        ...sim.certificates,
        clientCertKey: sim.pki.encryptedClientKeyPath,
        clientCertPassphrase: sim.pki.passphrase,
      },
    );
    expect(await withPassphrase.findTaskById(TASK_SALES)).toEqual({
      id: TASK_SALES,
      name: "Reload Sales",
      tags: ["nightly", TAG_WITH_QUOTE],
      customProperties: [{ name: "Department", value: "Finance" }],
    });
  });
});

describe("engine calls on the wire", () => {
  it("opens a session of its own on the app, reloads with the requested mode and saves after success", async () => {
    await client.reloadApp(APP_SALES, { mode: 2, partial: true });
    expect(sim.engine.calls.map((c) => [c.method, c.params])).toEqual([
      ["OpenDoc", { qDocName: APP_SALES, qNoData: false }],
      ["DoReload", { qMode: 2, qPartial: true, qDebug: false }],
      ["DoSave", { qFileName: "" }],
    ]);
    const paths = new Set(sim.engine.calls.map((c) => c.path));
    expect([...paths]).toEqual([
      expect.stringMatching(new RegExp(`^/app/${APP_SALES}/identity/steward-[0-9a-f-]{36}$`)),
    ]);
  });

  it("dumps an app opened without data, with lists, properties and media filtered to /media/", async () => {
    const dump = await client.dumpApp(APP_SALES);
    expect(sim.engine.calls[0]?.params).toEqual({ qDocName: APP_SALES, qNoData: true });
    expect(dump).toMatchObject({
      appId: APP_SALES,
      properties: { qTitle: "Sales dashboard" },
      loadScript: expect.stringContaining("LOAD * INLINE"),
      lineage: [{ qDiscriminator: "INLINE;" }, { qDiscriminator: "lib://DataFiles/sales.csv" }],
      sheets: [{ qInfo: { qId: "sheet-1", qType: "sheet" } }],
      stories: [{ qInfo: { qId: "story-1" } }],
      masterobjects: [{ qInfo: { qId: "master-1" } }],
      dimensions: [{ qDim: { qFieldDefs: ["Region"] } }],
      measures: [{ qMeasure: { qDef: "Sum(Sales)" } }],
      variables: [
        { qName: "vThreshold" },
        { qName: "ThousandSep", qIsScriptCreated: true, qIsReserved: true },
      ],
      bookmarks: [{ qInfo: { qId: "bm-1" }, qData: { qBookMark: { qStateData: [] } } }],
      snapshots: [],
      dataconnections: [{ qName: "DataFiles", qType: "folder" }],
      embeddedmedia: [{ qUrlDef: "/media/Logo.png" }],
    });
    expect(dump.appprops).toHaveLength(3);
    expect((dump.fields as unknown[]).length).toBe(3);
    expect(dump.variables).not.toContainEqual(expect.objectContaining({ qIsConfig: expect.anything() }));
  });

  it("reloads and dumps the same app concurrently, each in a session of its own", async () => {
    const [reloaded, dump] = await Promise.all([
      client.reloadApp(APP_SALES, { mode: 0, partial: false }),
      client.dumpApp(APP_SALES),
      client.reloadApp(APP_SALES, { mode: 0, partial: false }),
    ]);
    expect(reloaded).toBe(true);
    expect(dump.appId).toBe(APP_SALES);
  });

  it("omits lineage when the engine does not support it", async () => {
    sim.engine.lineageSupported = false;
    const dump = await client.dumpApp(APP_SALES);
    expect(dump).not.toHaveProperty("lineage");
    expect(dump.sheets).toHaveLength(1);
  });
});

describe("platform failures", () => {
  it("reports a repository that answers 500 as PlatformResponseError with the status", async () => {
    sim.repository.fault = "status500";
    const failure = client.findTaskById(TASK_SALES);
    await expect(failure).rejects.toBeInstanceOf(PlatformResponseError);
    await expect(failure).rejects.toThrow(/HTTP 500/);
  });

  it("reports malformed repository JSON as PlatformResponseError", async () => {
    sim.repository.fault = "malformedJson";
    await expect(client.findTasksByTag("nightly")).rejects.toThrow(/malformed JSON/);
  });

  it.each([
    ["status500", /HTTP 500/],
    ["malformedJson", /malformed JSON/],
    ["objectBody", /malformed app list: not a list/],
    ["entryWithoutId", /malformed app list: entry 1 has no string id/],
  ] as const)("rejects the app list as a whole when the repository answers %s", async (fault, reason) => {
    sim.repository.fault = fault;
    const failure = client.listRepositoryApps();
    await expect(failure).rejects.toBeInstanceOf(PlatformResponseError);
    await expect(failure).rejects.toThrow(reason);
  });

  it("reports a repository closing the socket as PlatformConnectionClosedError", async () => {
    sim.repository.fault = "closeSocket";
    await expect(client.startTask(TASK_SALES)).rejects.toBeInstanceOf(PlatformConnectionClosedError);
  });

  it("gives up on a repository that never answers after timeoutMs", async () => {
    sim.repository.fault = "hang";
    const impatient = await makeClient({ timeoutMs: 300 });
    const started = Date.now();
    await expect(impatient.findTaskById(TASK_SALES)).rejects.toBeInstanceOf(PlatformTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("reports a closed port as PlatformUnreachableError naming the reason", async () => {
    const nowhere = await makeClient({ repositoryPort: 1, enginePort: 1 });
    await expect(nowhere.findTaskById(TASK_SALES)).rejects.toThrow(PlatformUnreachableError);
    await expect(nowhere.listApps()).rejects.toThrow(/unreachable: .*ECONNREFUSED/);
  });

  it("is refused by a platform that does not trust its client certificate", async () => {
    const stranger = await makeClient(
      {},
      {
        ...sim.certificates,
        clientCert: sim.pki.strangerCertPath,
        clientCertKey: sim.pki.strangerKeyPath,
      },
    );
    await expect(stranger.findTaskById(TASK_SALES)).rejects.toThrow(/trusts the client certificate/);
    await expect(stranger.listApps()).rejects.toThrow(/trusts the client certificate/);
    expect(sim.repository.calls).toHaveLength(0);
  });

  it("refuses a platform whose certificate is not signed by the configured CA", async () => {
    const wrongCa = await makeClient({}, { ...sim.certificates, clientCertCA: sim.pki.strangerCertPath });
    await expect(wrongCa.findTaskById(TASK_SALES)).rejects.toBeInstanceOf(PlatformUnreachableError);
    await expect(wrongCa.dumpApp(APP_SALES)).rejects.toBeInstanceOf(PlatformUnreachableError);
  });

  it("rejects a pending engine call when the engine closes the socket mid-call", async () => {
    sim.engine.fault = { method: "DoReload", kind: "closeSocket" };
    await expect(client.reloadApp(APP_SALES, { mode: 0, partial: false })).rejects.toBeInstanceOf(
      PlatformConnectionClosedError,
    );
  });

  it("rejects the engine call answered with malformed JSON", async () => {
    sim.engine.fault = { method: "GetScript", kind: "malformedJson" };
    await expect(client.dumpApp(APP_SALES)).rejects.toThrow(/engine at .* sent malformed JSON/);
  });

  it("reports an engine error answer with its code", async () => {
    sim.engine.fault = { method: "GetDocList", kind: "error" };
    const failure = client.listApps();
    await expect(failure).rejects.toBeInstanceOf(PlatformResponseError);
    await expect(failure).rejects.toThrow(/refused GetDocList: Access denied \(code 5\)/);
  });

  it("gives up on an engine method that never answers after timeoutMs", async () => {
    sim.engine.fault = { method: "DoReload", kind: "hang" };
    const impatient = await makeClient({ timeoutMs: 300 });
    await expect(impatient.reloadApp(APP_SALES, { mode: 0, partial: false })).rejects.toBeInstanceOf(
      PlatformTimeoutError,
    );
  });

  it("never puts certificate or key material into errors or logs", async () => {
    sim.repository.fault = "status500";
    const error = await client.findTaskById(TASK_SALES).catch((e: unknown) => e as Error);
    const key = (await readFile(sim.pki.clientKeyPath, "utf8")).split("\n")[1] ?? "";
    const text = `${String(error)} ${JSON.stringify(testLogger.entries)}`;
    expect(key.length).toBeGreaterThan(20);
    expect(text).not.toContain(key);
    expect(text).not.toContain("PRIVATE KEY");
  });

  it("names the setting and path of an unreadable certificate file", async () => {
    const failure = loadPlatformTlsMaterial({
      ...sim.certificates,
      clientCertKey: "/nonexistent/client_key.pem",
    });
    await expect(failure).rejects.toBeInstanceOf(PlatformCertificateError);
    await expect(failure).rejects.toThrow(
      "Service.cert.clientCertKey: cannot read /nonexistent/client_key.pem (ENOENT)",
    );
  });
});
