/**
 * The status panel's Qlik Cloud section (part of /assets/status.js, status-script.ts, whose helpers
 * it uses): one table per tenant of `qlikCloud.<tenant>` in `GET /status`, headed by its name,
 * address, credential kind and ways in, with the last run taken, each polling cursor and its lag,
 * the token's state (valid until when, expired, its fetches that failed; none for an API key), the
 * API errors by status with the last error, and the runs each way in took by outcome. A cursor
 * behind by more than LAG_WARN_SECONDS (the StewardQlikCloudPollingBehind rule's threshold) is
 * marked and listed in the alerts at the top, as are failed token fetches and signatures refused.
 * A tenant whose licences are read has their table after its own.
 * The status document holds no secret (the credential is named by its kind only), and the page
 * shows only what the document holds, as text.
 */
export const LAG_WARN_SECONDS = 1800;

export const STATUS_CLOUD_SCRIPT = `
  var CLOUD_LAG_WARN_SECONDS = ${LAG_WARN_SECONDS};
  var RUN_WORDS = { reloadTaskFailure: "failed", reloadTaskAborted: "canceled", reloadTaskSuccess: "succeeded" };
  /** "bad signature 1, duplicate 2": the counts above zero, but those named in \`leave\`. */
  function cloudCounts(o, leave) {
    var shown = entries(o).filter(function (e) { return e[1] > 0 && e[0] !== leave; });
    return shown.length ? shown.map(function (e) { return e[0].replace(/_/g, " ") + " " + num(e[1]); }).join(", ") : "none";
  }
  /** "401 (2 calls), timeout (1 call)". */
  function cloudApiErrors(o) {
    var shown = entries(o).filter(function (e) { return e[1] > 0; });
    return shown.length ? shown.map(function (e) { return e[0] + " (" + num(e[1]) + (e[1] === 1 ? " call)" : " calls)"); }).join(", ") : "none";
  }
  function cloudToken(t, now) {
    if (t.credential === "API key") return { text: "API key: no token needed" };
    var fetched = t.tokenFetches || {}, failed = fetched.failed || 0;
    var note = " (" + num(fetched.ok || 0) + " fetched" + (failed ? ", " + num(failed) + " refused" : "") + ")";
    if (!t.token) return { text: (failed ? "none: the token endpoint refused" : "not fetched yet") + note, cls: failed ? "error" : "muted" };
    var left = (Date.parse(t.token.expiresAt) - Date.parse(now)) / 1000;
    if (left <= 0) return { text: "expired at " + new Date(Date.parse(t.token.expiresAt)).toLocaleTimeString("en-GB") + note, cls: "error" };
    return { text: "valid until " + new Date(Date.parse(t.token.expiresAt)).toLocaleTimeString("en-GB") + " (" + duration(left) + " left)" + note, cls: failed ? "error" : "" };
  }
  /** The runs each way in took, by outcome: { webhook: {processed: 2, ...}, poll: {...} }. */
  function cloudEvents(events) {
    var by = {};
    entries(events).forEach(function (e) {
      var parts = e[0].split(".");
      (by[parts[0]] = by[parts[0]] || {})[parts[1]] = e[1];
    });
    return by;
  }
  function cloudTenant(name, t, now, alerts) {
    var rows = [];
    var run = t.lastRun;
    rows.push(["last run", run ? { text: (RUN_WORDS[run.kind] || run.kind) + " (" + run.status + ")", cls: run.kind === "reloadTaskSuccess" ? "" : "error" } : "none yet",
      run ? "app " + run.appId + ", reload " + run.reloadId + ", by " + run.input + ", " + at(run.at, now) : ""]);
    entries(t.cursors).forEach(function (e) {
      var behind = e[1].lagSeconds > CLOUD_LAG_WARN_SECONDS;
      if (behind) alerts.push("Qlik Cloud tenant " + name + ": polling of " + e[0] + " has read nothing new for " + duration(e[1].lagSeconds) + ".");
      rows.push({ cls: behind ? "warn" : "", cells: ["cursor " + e[0], { text: "lag " + duration(e[1].lagSeconds), cls: behind ? "error" : "" }, "read up to " + at(e[1].readUpTo, now)] });
    });
    if (t.poll !== "off" && entries(t.cursors).length === 0) rows.push(["cursors", { text: "no round finished yet", cls: "muted" }, ""]);
    var token = cloudToken(t, now);
    if (token.cls === "error") alerts.push("Qlik Cloud tenant " + name + ": its OAuth token could not be fetched; the last error is under Qlik Cloud tenant " + name + ".");
    rows.push(["token", token, ""]);
    var last = t.lastError, errors = cloudApiErrors(t.apiErrors);
    rows.push(["API errors", { text: errors, cls: errors === "none" ? "" : "error" }, { text: last ? last.message + " (" + at(last.at, now) + ")" : "", cls: last ? "error" : "" }]);
    var events = cloudEvents(t.events);
    entries(events).forEach(function (e) {
      var refused = e[1].bad_signature || 0;
      if (refused) alerts.push("Qlik Cloud tenant " + name + ": " + num(refused) + " webhook deliveries refused for a missing or wrong signature.");
      var others = cloudCounts(e[1], "processed");
      rows.push(["runs by " + e[0], { text: num(e[1].processed || 0) + " processed", cls: e[1].failed ? "error" : "" }, others === "none" ? "" : others]);
    });
    var shown = table("Qlik Cloud tenant " + name, ["item", "state", "detail"], rows);
    // Under the heading: where the tenant is, how Steward reads it and which ways in are on.
    shown.insertBefore(el("p", [t.url, t.credential, "webhook " + t.webhook, "polling " + t.poll].join(" · "), "muted"), shown.children[1]);
    return shown;
  }
  /** Each tenant's table, and its licences' after it when they are read (status-cloud-licences-script.ts). */
  function cloudSections(cloud, now, alerts) {
    return entries(cloud).flatMap(function (e) {
      var t = e[1] || {}, shown = [cloudTenant(e[0], t, now, alerts)];
      if (t.licences) shown.push(cloudLicences(e[0], t.licences, now, alerts));
      return shown;
    });
  }
`;
