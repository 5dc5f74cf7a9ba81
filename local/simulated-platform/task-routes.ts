/**
 * The simulated repository's answers to what reload-task alerts look up: tasks of every type
 * (beside the catalogue's reload tasks), apps in full with their owners, users with email
 * attributes, the execution result of each execution id, and script logs (a ticket, then the
 * download). An execution is known once it is recorded (`recordExecution`): the `--task-events`
 * sender records each run before it sends the datagram, and tests record theirs; an unknown
 * execution id gets an empty list, as from the real repository. `scriptLogFault` makes every
 * script-log call answer 404, as a platform whose log has been removed. `scriptLogDelayMs` is how
 * long after a run is recorded its log's download still answers 404, as the real platform's does
 * for a moment after a run ends (0, the default: at once).
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { APP_BROKEN, APP_SALES, SIM_APPS, SIM_TASKS } from "./catalogue.ts";
import type { FilterClause } from "./qrs-filter-parser.ts";

export const TASK_EXTERNAL_PROGRAM = "b2c3d4e5-1111-4bbb-8ccc-000000000001";
export const TASK_USER_SYNC = "b2c3d4e5-2222-4bbb-8ccc-000000000002";
export const TASK_DISTRIBUTE = "b2c3d4e5-3333-4bbb-8ccc-000000000003";
export const TASK_PRELOAD = "b2c3d4e5-4444-4bbb-8ccc-000000000004";

export const OWNER_ID = "c3d4e5f6-1111-4ccc-8ddd-000000000001";
export const OWNER_EMAIL = "anna.berg@example.com";

export type SimRunOutcome = "failed" | "aborted" | "success";

export interface SimExecution {
  readonly executionId: string;
  readonly taskId: string;
  readonly outcome: SimRunOutcome;
  /** Epoch ms of the run's end; it started a minute before. */
  readonly stoppedAtMs: number;
}

export interface TaskEventRoutesState {
  readonly executions: Map<string, SimExecution>;
  /** Ticket id → the execution whose log it downloads. */
  readonly tickets: Map<string, string>;
  /** Execution id → when its log becomes downloadable (epoch ms). */
  readonly logReadyAtMs: Map<string, number>;
  scriptLogFault: boolean;
  scriptLogDelayMs: number;
}

/** Tasks of the types the catalogue (reload tasks only) does not have. */
const OTHER_TASKS = [
  { id: TASK_EXTERNAL_PROGRAM, name: "Copy QVDs to archive", taskType: 1, appId: "" },
  { id: TASK_USER_SYNC, name: "Sync ACME directory", taskType: 2, appId: "" },
  { id: TASK_DISTRIBUTE, name: "Distribute Sales", taskType: 3, appId: APP_SALES },
  { id: TASK_PRELOAD, name: "Preload Sales", taskType: 4, appId: APP_SALES },
] as const;

const STATUS: Readonly<Record<SimRunOutcome, number>> = { aborted: 6, success: 7, failed: 8 };
const RUN_MS = 60_000;

export function createTaskEventRoutesState(): TaskEventRoutesState {
  return {
    executions: new Map(),
    tickets: new Map(),
    logReadyAtMs: new Map(),
    scriptLogFault: false,
    scriptLogDelayMs: 0,
  };
}

export function resetTaskEventRoutesState(state: TaskEventRoutesState): void {
  state.executions.clear();
  state.tickets.clear();
  state.logReadyAtMs.clear();
  state.scriptLogFault = false;
  state.scriptLogDelayMs = 0;
}

/** Makes the repository know a run: its execution result, and for a reload task its script log. */
export function recordExecution(state: TaskEventRoutesState, execution: SimExecution): void {
  const id = execution.executionId.toLowerCase();
  state.executions.set(id, execution);
  state.logReadyAtMs.set(id, Date.now() + state.scriptLogDelayMs);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" }).end(JSON.stringify(body));
}

const idClause = (clauses: readonly FilterClause[], path: string) =>
  clauses.find((clause) => clause.path.toLowerCase() === path.toLowerCase())?.value.toLowerCase();

/**
 * Answers a GET that belongs to task-event lookups; false when the request is not one of them
 * (the catalogue's own routes answer it then).
 */
export function answerTaskEventCall(
  state: TaskEventRoutesState,
  res: ServerResponse,
  url: URL,
  clauses: readonly FilterClause[],
): boolean {
  const path = url.pathname;
  if (path === "/qrs/task/full") {
    const task = OTHER_TASKS.find((t) => t.id === idClause(clauses, "id"));
    if (task === undefined) return false;
    send(res, 200, [otherTask(task)]);
    return true;
  }
  if (path === "/qrs/app/full") {
    const app = SIM_APPS.find((a) => a.id === idClause(clauses, "id"));
    send(res, 200, app === undefined ? [] : [fullApp(app.id, app.name)]);
    return true;
  }
  if (path === "/qrs/executionresult/full") {
    const execution = state.executions.get(idClause(clauses, "executionID") ?? "");
    send(res, 200, execution === undefined ? [] : [executionResult(execution)]);
    return true;
  }
  return answerById(state, res, url);
}

function answerById(state: TaskEventRoutesState, res: ServerResponse, url: URL): boolean {
  const segments = url.pathname.split("/").slice(2).map(decodeURIComponent);
  const [entity, id = "", action] = segments;
  if (entity === "app" && segments.length === 2) {
    const app = SIM_APPS.find((a) => a.id === id.toLowerCase());
    if (app === undefined) send(res, 404, "Cannot find the item");
    else send(res, 200, fullApp(app.id, app.name));
    return true;
  }
  if (entity === "user" && segments.length === 2) {
    if (id.toLowerCase() === OWNER_ID) send(res, 200, owner(true));
    else send(res, 404, "Cannot find the item");
    return true;
  }
  if (entity === "reloadtask" && (action === "scriptlog" || action === "scriptlogfile")) {
    answerTicket(state, res, url, action);
    return true;
  }
  if (entity === "download" && id === "reloadtask" && segments[3] === "scriptlog.txt") {
    answerDownload(state, res, action ?? "");
    return true;
  }
  return false;
}

function answerTicket(state: TaskEventRoutesState, res: ServerResponse, url: URL, action: string): void {
  const wanted =
    action === "scriptlog"
      ? url.searchParams.get("fileReferenceId")
      : url.searchParams.get("executionResultId");
  const execution = [...state.executions.values()].find((run) =>
    action === "scriptlog" ? fileReferenceOf(run) === wanted : resultIdOf(run) === wanted,
  );
  if (execution === undefined || state.scriptLogFault) {
    send(res, 404, "Cannot find the script log");
    return;
  }
  const ticket = randomUUID();
  state.tickets.set(ticket, execution.executionId.toLowerCase());
  send(res, 200, { value: ticket });
}

function answerDownload(state: TaskEventRoutesState, res: ServerResponse, ticket: string): void {
  const id = state.tickets.get(ticket) ?? "";
  const execution = state.executions.get(id);
  if (execution === undefined || state.scriptLogFault || Date.now() < (state.logReadyAtMs.get(id) ?? 0)) {
    send(res, 404, "Cannot find the file");
    return;
  }
  res.writeHead(200, { "Content-Type": "application/octet-stream" }).end(scriptLog(execution));
}

function otherTask(task: (typeof OTHER_TASKS)[number]): Record<string, unknown> {
  const app = SIM_APPS.find((a) => a.id === task.appId);
  return {
    id: task.id,
    name: task.name,
    taskType: task.taskType,
    enabled: true,
    isManuallyTriggered: false,
    maxRetries: 1,
    taskSessionTimeout: 1440,
    modifiedByUserName: "INTERNAL\\sa_repository",
    modifiedDate: "2025-03-02T17:40:11.000Z",
    tags: [{ id: "tag-ops", name: "operations" }],
    customProperties: [],
    app: app === undefined ? null : { id: app.id, name: app.name },
    operational: { id: randomUUID(), nextExecution: "2026-12-01T02:00:00.000Z" },
  };
}

function owner(withAttributes: boolean): Record<string, unknown> {
  return {
    id: OWNER_ID,
    name: "Anna Berg",
    userDirectory: "ACME",
    userId: "aberg",
    ...(withAttributes
      ? {
          attributes: [
            { attributeType: "Email", attributeValue: OWNER_EMAIL },
            { attributeType: "title", attributeValue: "Controller" },
          ],
        }
      : {}),
  };
}

function fullApp(id: string, name: string): Record<string, unknown> {
  return {
    id,
    name,
    description: id === APP_BROKEN ? "Reads a file that is not there." : "Sales by region and month.",
    fileSize: 7_340_032,
    lastReloadTime: "2026-11-26T02:00:41.000Z",
    modifiedDate: "2026-11-20T09:12:00.000Z",
    modifiedByUserName: "ACME\\aberg",
    publishTime: "2026-10-01T08:00:00.000Z",
    published: true,
    stream: { id: "d4e5f6a7-1111-4ddd-8eee-000000000001", name: "Finance" },
    tags: [{ id: "tag-sales", name: "sales" }],
    customProperties: [
      { value: "Finance", definition: { name: "Department" } },
      { value: "aberg@example.com", definition: { name: "AlertEmail" } },
    ],
    owner: owner(false),
  };
}

const hex = (text: string) => text.replace(/-/g, "");
/** Ids derived from the execution id, so that each run has its own and they can be found again. */
const resultIdOf = (run: SimExecution) => `${hex(run.executionId).slice(0, 8)}-0000-4000-8000-000000000001`;
const fileReferenceOf = (run: SimExecution) =>
  `${hex(run.executionId).slice(0, 8)}-0000-4000-8000-000000000002`;

function executionResult(run: SimExecution): Record<string, unknown> {
  const stop = new Date(run.stoppedAtMs).toISOString();
  const start = new Date(run.stoppedAtMs - RUN_MS).toISOString();
  const isReload = !OTHER_TASKS.some((task) => task.id === run.taskId);
  const ended =
    run.outcome === "success" ? "Changing task state to FinishedSuccess" : "Task finished with errors";
  return {
    id: resultIdOf(run),
    executionID: run.executionId,
    taskID: run.taskId,
    appID: SIM_TASKS.find((task) => task.id === run.taskId)?.appId ?? "",
    status: STATUS[run.outcome],
    startTime: start,
    stopTime: stop,
    duration: RUN_MS,
    executingNodeName: "qs-node1",
    fileReferenceID: isReload ? fileReferenceOf(run) : "00000000-0000-0000-0000-000000000000",
    scriptLogAvailable: isReload,
    scriptLogSize: 2048,
    details: [
      {
        detailCreatedDate: start,
        message: "Changing task state from NeverStarted to Triggered",
        detailsType: 2,
      },
      { detailCreatedDate: stop, message: ended, detailsType: run.outcome === "success" ? 2 : 1 },
    ],
  };
}

function scriptLog(run: SimExecution): string {
  const lines = [
    "20261126T020000.000+0100 Execution started.",
    "20261126T020000.010+0100 Qlik Sense Server Version 14.129.3",
    "20261126T020001.000+0100 0002 LOAD * FROM [lib://Data/sales.qvd] (qvd)",
  ];
  if (run.outcome === "success") lines.push("20261126T020100.000+0100 Execution finished.");
  else {
    lines.push(
      "20261126T020059.000+0100 Error: Cannot open file: 'lib://Data/sales.qvd'",
      "20261126T020100.000+0100 Execution Failed",
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
