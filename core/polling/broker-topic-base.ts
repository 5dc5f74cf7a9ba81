/**
 * The start of the health and session topics: `mqttConfig.baseTopic`, which should end with `/`
 * (template), gets one when it does not — as the log-event subsystem topics do — so that
 * `steward` and `steward/` both give `steward/<host>/…` rather than `steward<host>/…`.
 */
export function topicBase(baseTopic: string): string {
  return baseTopic.endsWith("/") ? baseTopic : `${baseTopic}/`;
}
