/** The audit event types Steward accepts: Butler SOS's, which its browser client sends. */

export const KNOWN_EVENT_TYPES = [
  "selection.state.changed",
  "object.visibility.changed",
  "object.view.duration",
  "navigation.sheet.loaded",
  "app.model.validated",
  "screenshot.url.received",
  "event.bookmark",
  "event.unsupported.visualization",
  "audit.event",
] as const;

const KNOWN = new Set<string>(KNOWN_EVENT_TYPES);

/** `event.` followed by at least one character: custom client events. */
const CUSTOM_EVENT = /^event\..+$/s;

export function isRecognisedEventType(type: string): boolean {
  return KNOWN.has(type) || CUSTOM_EVENT.test(type);
}
