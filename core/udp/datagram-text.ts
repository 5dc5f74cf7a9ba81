/**
 * The first steps every processor takes with a datagram: its bytes decoded as UTF-8 (invalid
 * sequences become U+FFFD, never an exception, as log4net's appenders send UTF-8 and anything
 * else is noise) and its marker, field 0, sanitised and lower-cased (markers are compared
 * case-insensitively, as Butler SOS compares them).
 */
import { sanitiseField } from "./sanitise-field.ts";

/** Longest marker text looked at; the known markers are far shorter. */
const MARKER_MAX = 100;

/** A decoder owned by one processor (TextDecoder keeps state between streaming calls). */
export function createDatagramDecoder(): (datagram: Uint8Array) => string {
  const decoder = new TextDecoder("utf-8", { fatal: false });
  return (datagram) => decoder.decode(datagram);
}

/** Field 0 of `text`, sanitised and lower-cased. */
export function markerOf(text: string): string {
  const end = text.indexOf(";");
  return sanitiseField(end < 0 ? text : text.slice(0, end), MARKER_MAX).toLowerCase();
}
