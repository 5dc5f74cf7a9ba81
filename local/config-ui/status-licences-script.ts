/**
 * The status panel's licences section (part of /assets/status.js, status-script.ts, whose helpers
 * it uses): from the licence monitor's last run under `licenses.monitor` of `GET /status`, one
 * table of access licence use per type (used and allocated of the total, or minutes and tokens
 * for the capacity and token types) and one of the server licence (expiry day, days left, the
 * version, the release's last outcome). A licence that has expired or expires within the alert
 * window is marked and listed in the alerts at the top, as the log warns of it; a reading that
 * failed shows its error.
 */
export const STATUS_LICENCES_SCRIPT = `
  var LICENCE_LABELS = { professional: "Professional", analyzer: "Analyzer", analyzer_capacity: "Analyzer capacity (minutes)",
    token_login: "Login access (tokens)", token_user: "User access (tokens)", tokens_available: "Tokens" };
  /** "used / of / total" for a type: seats, minutes or tokens, whatever the platform gave. */
  function licenceUse(c) {
    if (c.allocated !== undefined) return [num(c.used), num(c.allocated), num(c.total), num(c.available)];
    if (c.allocated_minutes !== undefined) return [num(c.used_minutes), num(c.allocated_minutes), "–", "–"];
    if (c.allocated_tokens !== undefined) return [num(c.used_tokens), num(c.allocated_tokens), "–", "–"];
    return ["–", "–", num(c.total_tokens), num(c.available_tokens)];
  }
  function releaseText(r) {
    if (!r) return "off";
    var n = { released: 0, would_release: 0, kept: 0, failed: 0 };
    (r.outcomes || []).forEach(function (o) { n[o.outcome] += 1; });
    var text = r.dryRun ? "dry run: " + n.would_release + " would be released" : n.released + " released";
    text += ", " + n.kept + " kept";
    if (n.failed) text += ", " + n.failed + " failed";
    if ((r.unreadTypes || []).length) text += "; not read: " + r.unreadTypes.map(function (u) { return u.type; }).join(", ");
    return { text: text, cls: n.failed || (r.unreadTypes || []).length ? "error" : "" };
  }
  function licencesSection(m, now, alerts) {
    var wrap = el("div"), errors = m.errors || {}, server = m.serverLicence, version = m.version || {};
    wrap.setAttribute("data-section", "Licences");
    wrap.appendChild(table("Access licences", ["type", "used", "allocated", "total", "available"],
      (m.accessLicences || []).map(function (a) { return [LICENCE_LABELS[a.type] || a.type].concat(licenceUse(a.counts)); }),
      errors.accessLicences ? "not read: " + errors.accessLicences : "not read yet"));
    var rows = [];
    if (server) {
      var days = server.daysUntilExpiry, warn = server.alert !== undefined;
      if (warn) alerts.push(server.alert + ".");
      rows.push({ cls: warn ? "warn" : "", cells: ["server licence", { text: server.expired ? "expired" : "valid", cls: warn ? "error" : "" },
        server.expiryDate || "no date", { text: days === undefined ? "–" : days < 0 ? "expired " + -days + " days ago" : days + " days left", cls: warn ? "error" : "" }] });
    } else if (errors.serverLicence) rows.push(["server licence", { text: "not read", cls: "error" }, "", { text: errors.serverLicence, cls: "error" }]);
    if (version.version) rows.push(["version", "", version.release_label || "", [version.product_name, version.version].filter(Boolean).join(" ")]);
    else if (errors.version) rows.push(["version", { text: "not read", cls: "error" }, "", { text: errors.version, cls: "error" }]);
    rows.push(["licence release", "", "", releaseText(m.release)]);
    rows.push(["last run", "", "", at(m.lastRunAt, now)]);
    wrap.appendChild(table("Server licence", ["item", "state", "date or label", "detail"], rows));
    return wrap;
  }
`;
