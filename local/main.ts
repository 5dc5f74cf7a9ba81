/**
 * Process entry point (`npm start`, `npx steward`). The only module that handles signals and
 * calls process.exit: SIGTERM/SIGINT stop every service in reverse start order and exit 0 within
 * the shutdown budget; an unexpected error writes a crash dump and exits 1.
 */
import { defaultConfig } from "../core/config/index.ts";
import { redactText } from "../core/logging/redact.ts";
import { type RunningSteward, runCli } from "./cli.ts";
import { type CrashSource, writeCrashDump } from "./crash-dump.ts";

/** Stop must finish within this budget so the process exits within 10 s of the signal. */
const SHUTDOWN_BUDGET_MS = 9_000;

try {
  const result = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
  if ("exitCode" in result) process.exitCode = result.exitCode;
  else supervise(result.running);
} catch (error) {
  // A bug before anything is running: report it like any crash, with the default crash settings.
  process.stderr.write(`steward: fatal error during start-up: ${redactText(describe(error))}\n`);
  writeCrashDump({ error, source: "startup", crashFile: defaultConfig().crashFile });
  process.exit(1);
}

function supervise({ config, logger, service }: RunningSteward): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`received ${signal}, stopping`);
    const deadline = setTimeout(() => {
      logger.error(`shutdown did not finish within ${SHUTDOWN_BUDGET_MS / 1000} s, exiting`);
      process.exit(1);
    }, SHUTDOWN_BUDGET_MS);
    deadline.unref();
    void service
      .stop()
      .then(async () => {
        logger.info("stopped");
        await logger.close();
        process.exit(0);
      })
      .catch((error: unknown) => crash("uncaughtException")(error));
  };
  process.once("SIGTERM", shutdown);
  process.once("SIGINT", shutdown);

  const crash = (source: CrashSource) => (error: unknown) => {
    logger.error(`fatal ${source}, exiting`, { error: redactText(describe(error)) });
    const files = writeCrashDump({ error, source, crashFile: config.crashFile, config });
    if (files.length > 0) logger.error("crash dump written", { files: files.join(",") });
    process.exit(1);
  };
  process.on("uncaughtException", crash("uncaughtException"));
  process.on("unhandledRejection", crash("unhandledRejection"));
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
