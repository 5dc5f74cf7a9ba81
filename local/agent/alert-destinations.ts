/**
 * The alert destinations of task events, built from the configuration when the task-event part
 * starts: one line per destination in ALERT_DESTINATIONS, a factory that answers the destination
 * when its section is switched on and undefined when it is off. A destination that holds a
 * connection or a batch gives a `stop`, called once the task-event listener has handed over its
 * last alert. Each is built with the process's alert budget (or one made from the configuration).
 */
import type { AlertDestination } from "../../core/task-events/alert-destination.ts";
import { alertBudgetOf, type WritingAgentPartDeps } from "./agent-part.ts";
import { messageDestinations } from "./message-destinations.ts";
import { mqttAlerts } from "./mqtt-alerts.ts";
import { obsPlatformAlerts } from "./obs-platform-alerts.ts";
import { timeseriesAlerts } from "./timeseries-alerts.ts";

/** A destination as the part runs it: stopped, when it has something to close, after the last alert. */
export type RunningAlertDestination = AlertDestination & { stop?(): Promise<void> };

/** What a destination is built with: everything a writing agent part is started with. */
export type AlertDestinationDeps = WritingAgentPartDeps;

/** Several destinations may come from one factory (email, Teams, Slack and webhooks share theirs). */
type Built = RunningAlertDestination | readonly RunningAlertDestination[] | undefined;

export type AlertDestinationFactory = (deps: AlertDestinationDeps) => Built | Promise<Built>;

/** Email, Teams, Slack and outgoing webhooks: those whose section is switched on. */
const messageAlerts: AlertDestinationFactory = (deps) =>
  messageDestinations(deps.config, { logger: deps.logger, budget: deps.alertBudget });

/** One line per destination; each returns undefined when its configuration section is off. */
const ALERT_DESTINATIONS: readonly AlertDestinationFactory[] = [
  timeseriesAlerts,
  mqttAlerts,
  messageAlerts,
  obsPlatformAlerts,
];

/**
 * The enabled destinations, in the order of the list. When one cannot be built (a template that
 * does not compile, a file that cannot be read), those already built are stopped and the start fails.
 */
export async function createAlertDestinations(
  deps: AlertDestinationDeps,
  factories: readonly AlertDestinationFactory[] = ALERT_DESTINATIONS,
): Promise<RunningAlertDestination[]> {
  const built: RunningAlertDestination[] = [];
  const withBudget = { ...deps, alertBudget: alertBudgetOf(deps) };
  try {
    for (const factory of factories) {
      const destinations = await factory(withBudget);
      if (destinations !== undefined) built.push(...[destinations].flat());
    }
  } catch (error) {
    await Promise.allSettled(built.map((destination) => destination.stop?.()));
    throw error;
  }
  return built;
}
