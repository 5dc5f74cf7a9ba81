/**
 * Process entry point (`npm start`, `npx steward`, the executables of `npm run package`). The only
 * module that handles signals and calls process.exit: the stop signals (stop-signals.ts: SIGTERM
 * and SIGINT, on Windows also Ctrl+Break and the console's closing) stop every part in reverse
 * start order and exit within the shutdown budget (local/shutdown-budget.ts says how the 10 s are
 * spent) — 0, or 1 when events were lost; an unexpected error writes a crash dump and exits 1.
 * Signal handlers are installed before anything starts, so a signal that arrives during start-up
 * is honoured as soon as start-up ends instead of killing the process half-way. No top-level
 * await: the executables run this module bundled as CommonJS, which has none.
 */
import { defaultConfig } from "../../core/config/index.ts";
import { redactText } from "../../core/logging/index.ts";
import { SHUTDOWN_BUDGET_MS } from "../shutdown-budget.ts";
import { type RunningSteward, runCli } from "./cli.ts";
import { type CrashSource, writeCrashDump } from "./crash-dump.ts";
import { stopSignals } from "./stop-signals.ts";

let running: RunningSteward | undefined;
let pendingSignal: NodeJS.Signals | undefined;
let stopping = false;

const onSignal = (signal: NodeJS.Signals) => {
  if (running === undefined) pendingSignal ??= signal;
  else shutdown(running, signal);
};
const signals = stopSignals(process.platform);
for (const signal of signals) process.on(signal, onSignal);

void main();

async function main(): Promise<void> {
  try {
    const result = await runCli(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
    });
    if ("exitCode" in result) {
      process.exitCode = result.exitCode;
      for (const signal of signals) process.off(signal, onSignal);
    } else {
      running = result.running;
      supervise(running);
      if (pendingSignal !== undefined) shutdown(running, pendingSignal);
    }
  } catch (error) {
    // A bug before anything is running: report it like any crash, with the default crash settings.
    process.stderr.write(`steward: fatal error during start-up: ${redactText(describe(error))}\n`);
    writeCrashDump({ error, source: "startup", crashFile: defaultConfig().crashFile });
    process.exit(1);
  }
}

function shutdown(
  { config, logger, parts, shutdown: schedule }: RunningSteward,
  signal: NodeJS.Signals,
): void {
  if (stopping) return;
  stopping = true;
  logger.info(`received ${signal}, stopping`);
  const deadline = setTimeout(() => {
    logger.error(`shutdown did not finish within ${SHUTDOWN_BUDGET_MS.hardStop / 1000} s, exiting`);
    process.exit(1);
  }, SHUTDOWN_BUDGET_MS.hardStop);
  deadline.unref();
  void parts
    .stop()
    .then(async () => {
      logger.info("stopped");
      await logger.close();
      process.exit(schedule?.exitCode() ?? 0);
    })
    .catch((error: unknown) => crash(config, logger, "uncaughtException")(error));
}

function supervise({ config, logger }: RunningSteward): void {
  process.on("uncaughtException", crash(config, logger, "uncaughtException"));
  process.on("unhandledRejection", crash(config, logger, "unhandledRejection"));
}

function crash(config: RunningSteward["config"], logger: RunningSteward["logger"], source: CrashSource) {
  return (error: unknown) => {
    logger.error(`fatal ${source}, exiting`, { error: redactText(describe(error)) });
    const files = writeCrashDump({ error, source, crashFile: config.crashFile, config });
    if (files.length > 0) logger.error("crash dump written", { files: files.join(",") });
    process.exit(1);
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
