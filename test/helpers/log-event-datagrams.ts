/** Log-event datagrams as Qlik Sense's log appenders send them over UDP, for process tests. */

/** An engine WARN log event, row `row`, stamped `at` (now by default: InfluxDB refuses old points). */
export function engineLogEvent(row: number, at: Date = new Date()): string {
  return `/qseow-engine/;${row};${at.toISOString()};2021-11-09 15:37:26,028;WARN;host1;System.Engine.Engine;user1;message ${row};;dir1;uid1;ts1;;v1;ts2;type1;;`;
}
