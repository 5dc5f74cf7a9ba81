/**
 * When the local process reads the Qlik Cloud tenants' licences (core/qlik-cloud/tenant-licences.ts):
 * on the licence monitor's schedule, `licenseMonitor.frequency` (every 6 hours by default, UTC),
 * once straight away at start. The schedule is the same whether `licenseMonitor.enable` is on or
 * off: that switch is about the site's licence monitor, and a tenant's own `licences.enable`
 * decides whether its licences are read. A timer of its own, so a reading never delays a poll
 * round of the reload inputs; stopping gives the calls in flight up at once.
 */
import type { Config } from "../../core/config/index.ts";
import type { Clock, Logger, Stoppable } from "../../core/ports.ts";
import type { TenantLicences } from "../../core/qlik-cloud/index.ts";
import { startRecurringTimer } from "../../core/schedules/index.ts";
import { parseRecurrence } from "../../core/shared/recurrence.ts";

export interface TenantLicenceScheduleDeps {
  readonly licences: TenantLicences;
  readonly config: Config;
  readonly clock: Clock;
  readonly logger: Logger;
}

export function startTenantLicenceSchedule(deps: TenantLicenceScheduleDeps): Stoppable {
  const { licences, config, logger } = deps;
  const frequency = config.licenseMonitor.frequency;
  const abort = new AbortController();
  logger.info("Reading the Qlik Cloud tenants' licences", {
    tenants: licences.names.join(","),
    frequency,
  });
  const timer = startRecurringTimer({
    what: "Qlik Cloud licence reading",
    recurrence: parseRecurrence(frequency),
    runAtStart: true,
    run: () => licences.readAll(abort.signal),
    clock: deps.clock,
    logger,
  });
  return {
    async stop() {
      abort.abort();
      await timer.stop();
    },
  };
}
