/**
 * The status panel's Windows services section (part of /assets/status.js, status-script.ts, whose
 * helpers it uses): from the service monitor's `serviceMonitor.monitor` of `GET /status`, one row
 * per watched service with its host, the name alerts give it, its state as sc.exe says it, since
 * when, when it was last read (or tried) and the last reading's failure; a service that cannot be
 * read shows its last known state as such. A service that is not running, or
 * whose last reading failed, is marked and listed in the alerts at the top: a stopped service is
 * why reloads fail, and a service that cannot be read is one nobody is watching. Before the first
 * successful reading a service has no state, and the row says so.
 */
export const STATUS_SERVICES_SCRIPT = `
  function serviceRow(s, now, alerts) {
    var where = s.friendlyName + " on " + s.host;
    var failure = s.lastError, running = s.state === "RUNNING";
    if (s.state !== undefined && !running) alerts.push("Windows service " + where + " is " + s.state + " since " + at(s.since, now) + ".");
    if (failure) alerts.push("Windows service " + where + " cannot be read: " + failure.reason.replace(/.$/, "") + ".");
    // An unreadable service keeps its last known state, said as such.
    var shown = s.state === undefined ? { text: failure ? "not read" : "not read yet", cls: failure ? "error" : "muted" }
      : failure ? { text: s.state + " (last known)", cls: "muted" } : { text: s.state, cls: running ? "state-running" : "error" };
    return { cls: running && !failure ? "" : "warn", cells: [s.host, { text: s.friendlyName, title: s.service + (s.displayName ? " (" + s.displayName + ")" : "") }, shown,
      s.since ? at(s.since, now) : "–", s.lastReadAt ? at(s.lastReadAt, now) : "–",
      { text: failure ? failure.failure + " at " + at(failure.at, now) + ": " + failure.reason : "", cls: failure ? "error" : "" }] };
  }
  function servicesSection(m, now, alerts) {
    var shown = table("Windows services", ["host", "service", "state", "since", "last reading", "last error"],
      (m.services || []).map(function (s) { return serviceRow(s, now, alerts); }), "no service configured");
    shown.insertBefore(el("p", num(m.polls) + " readings, the last " + (m.lastPollAt ? at(m.lastPollAt, now) : "not yet"), "muted"), shown.children[1]);
    return shown;
  }
`;
