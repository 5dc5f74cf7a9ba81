/**
 * Which UDP pipelines the configuration switches on and where each one writes, worked out here
 * once for every part that asks: the listeners and their health probes, the processors that map
 * events, the broker connection, the account checks and the telemetry. A second copy of one of
 * these rules elsewhere could disagree with this one, and then, for example, a listener would run
 * for a pipeline whose processor writes nowhere.
 */
import type { Config } from "./schema/config.ts";

/** True when any log-event source is on: the log-event pipeline has no switch of its own. */
export function logEventsEnabled(config: Pick<Config, "logEvents">): boolean {
  return Object.values(config.logEvents.source).some((source) => source.enable);
}

/** True when the configuration asks for at least one UDP socket (user events, log events). */
export function udpEventsEnabled(config: Pick<Config, "userEvents" | "logEvents">): boolean {
  return config.userEvents.enable || logEventsEnabled(config);
}

/** Where one UDP pipeline writes, and the observability accounts its events go to. */
export interface PipelineDestinations {
  readonly timeseriesdb: boolean;
  readonly mqtt: boolean;
  readonly obsPlatform: boolean;
  readonly accounts: readonly string[];
}

/** The master switches of the agent's destinations (a processor is given just these). */
export interface DestinationSwitches {
  readonly timeseriesdbConfig: { readonly enable: boolean };
  readonly mqttConfig: { readonly enable: boolean };
  readonly obsPlatform: { readonly enable: boolean };
}

/** A pipeline's own `sendTo*` switches: `userEvents` or `logEvents`. */
export interface PipelineSwitches {
  readonly sendToTimeseriesdb: { readonly enable: boolean };
  readonly sendToMQTT: { readonly enable: boolean };
  readonly sendToObsPlatform: { readonly enable: boolean; readonly destinationAccount: readonly string[] };
}

/**
 * A pipeline writes to a destination when its own switch AND the destination's master switch are
 * on: the master switch turns off everything the agent sends there, whatever the sections say.
 */
export function pipelineDestinations(
  switches: DestinationSwitches,
  pipeline: PipelineSwitches,
): PipelineDestinations {
  return {
    timeseriesdb: switches.timeseriesdbConfig.enable && pipeline.sendToTimeseriesdb.enable,
    mqtt: switches.mqttConfig.enable && pipeline.sendToMQTT.enable,
    obsPlatform: switches.obsPlatform.enable && pipeline.sendToObsPlatform.enable,
    accounts: pipeline.sendToObsPlatform.destinationAccount,
  };
}

/**
 * True when task events publish their broker messages: task events on, their `sendToMQTT`
 * switch and the broker's master switch on (the same rule as every pipeline's).
 */
export function taskEventsPublish(config: Pick<Config, "taskEvents" | "mqttConfig">): boolean {
  return config.taskEvents.enable && config.mqttConfig.enable && config.taskEvents.sendToMQTT.enable;
}

/**
 * True when the Qlik Cloud tenants' failed and canceled reloads are published to the broker
 * (local process only): the tenants on, the broker's master switch and `taskEvents.sendToMQTT`
 * on. The one switch of reload messages serves the site's and the cloud's, as the topics do;
 * the site's task-event listener need not run.
 */
export function cloudRunsPublish(config: Pick<Config, "qlikCloud" | "taskEvents" | "mqttConfig">): boolean {
  return config.qlikCloud.enable && config.mqttConfig.enable && config.taskEvents.sendToMQTT.enable;
}

/**
 * The topic of the task-event listener's status (`start`, `error`), as Butler published it: task
 * events and the broker on and `mqttConfig.taskFailureServerStatusTopic` set; otherwise undefined.
 */
export function taskEventsServerStatus(
  config: Pick<Config, "taskEvents" | "mqttConfig">,
): string | undefined {
  const topic = config.mqttConfig.taskFailureServerStatusTopic;
  return config.taskEvents.enable && config.mqttConfig.enable && topic !== "" ? topic : undefined;
}
