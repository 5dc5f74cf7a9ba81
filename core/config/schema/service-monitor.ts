/**
 * serviceMonitor: Windows services of the platform's servers, read with Windows' own sc.exe on a
 * schedule (Butler's `serviceMonitor`: `enable`, `frequency`, `monitor` hosts with their
 * `services`). The first reading of a service is its baseline; a later one in another state is
 * alerted through the channels' `serviceStopped` / `serviceStarted` blocks (email, Teams, Slack),
 * `webhookNotification.serviceMonitor` and `incidentTool.newRelic.serviceMonitor`, and written as
 * the point `win_service_state` and broker messages under Butler's names. Butler's
 * `alertDestination` switches became the `enable` of each of those blocks and of `timeseriesdb`
 * and `sendToMQTT` here, as the licence monitor's did. Windows only: check-config and start refuse
 * the section switched on elsewhere (core/config/platform-checks.ts). Off by default; validated
 * only when on.
 */
import * as v from "valibot";
import { publishTopicProblem } from "../../messaging/topic.ts";
import { bool, hostSchema, int, list, nameValueList, requiredStr, section, str } from "./primitives.ts";
import { scheduleExpression } from "./self-monitoring.ts";

/** A broker topic, checked as every publishing topic is. */
const topic = (fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.check(
        (text) => publishTopicProblem(text) === undefined,
        (issue) => publishTopicProblem(String(issue.input)) ?? "must be a topic",
      ),
    ),
    fallback,
  );

const watchedService = v.object({
  /** The service name (`sc.exe query NAME`), not its display name, e.g. QlikSenseRepositoryService. */
  name: requiredStr,
  /** The name people know it by, shown in alerts; the service name when empty. */
  friendlyName: str(""),
});

const watchedHost = v.object({ host: hostSchema, services: list(watchedService) });

export const serviceMonitorSchema = section({
  enable: bool(false),
  frequency: scheduleExpression("every 30 seconds"),
  /** Seconds one sc.exe run may take: an unreachable host keeps it waiting on RPC for tens of seconds. */
  timeoutSeconds: int(15, 1, 300),
  monitor: list(watchedHost),
  timeseriesdb: section({
    enable: bool(true),
    tag: section({ static: nameValueList() }),
  }),
  sendToMQTT: section({
    enable: bool(false),
    serviceRunningTopic: topic("qliksense/service_running"),
    serviceStoppedTopic: topic("qliksense/service_stopped"),
    serviceStatusTopic: topic("qliksense/service_status"),
  }),
});
