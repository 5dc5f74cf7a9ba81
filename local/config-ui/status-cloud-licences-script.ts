/**
 * The status panel's table of a Qlik Cloud tenant's licences (part of /assets/status.js,
 * status-script.ts, whose helpers it uses), from `qlikCloud.<tenant>.licences` of `GET /status`:
 * one row per allotment of the last good reading (used, total, available and the overage, "no
 * cap" for Qlik's −1), and under the heading the licence's status, its last valid day and days
 * left, and when it was read. A reading that failed after it is shown as a warning with its error
 * (the rows, if any, are then the last good reading's), and listed in the alerts at the top, as is a
 * licence that has expired or ends within EXPIRY_WARN_DAYS (the site licence rule's window).
 */
export const EXPIRY_WARN_DAYS = 30;

export const STATUS_CLOUD_LICENCES_SCRIPT = `
  var CLOUD_EXPIRY_WARN_DAYS = ${EXPIRY_WARN_DAYS};
  var ALLOTMENT_LABELS = { professional: "Professional", analyzer: "Analyzer", analyzer_time: "Analyzer time (minutes)" };
  function overageText(c) {
    if (c.overage === undefined) return "–";
    return c.overage === -1 ? "no cap" : num(c.overage);
  }
  /** "licence Ok · valid until 2027-12-31 (390 days left) · read 09:40:01 (2m ago)". */
  function cloudLicenceSummary(l, now) {
    var licence = l.licence, parts = [];
    if (licence) {
      var days = licence.daysUntilExpiry;
      parts.push("licence " + (licence.status || (licence.expired ? "expired" : "status unknown")));
      parts.push(licence.expiryDate ? "valid until " + licence.expiryDate + (days === undefined ? "" :
        days < 0 ? " (expired " + -days + " days ago)" : " (" + days + " days left)") : "no end date");
    }
    parts.push(l.readAt ? "read " + at(l.readAt, now) : "not read yet");
    return parts.join(" · ");
  }
  function cloudLicences(name, l, now, alerts) {
    var title = "Qlik Cloud licences " + name, error = l.lastError, licence = l.licence;
    var failedLast = error && (!l.readAt || Date.parse(error.at) >= Date.parse(l.readAt));
    var rows = (l.allotments || []).map(function (a) {
      var c = a.counts || {};
      return [ALLOTMENT_LABELS[a.type] || a.type, num(c.used), num(c.total), num(c.available), overageText(c)];
    });
    var shown = table(title, ["allotment", "used", "total", "available", "overage"], rows,
      failedLast ? "no reading yet" : "not read yet");
    var notes = l.readAt ? [el("p", cloudLicenceSummary(l, now), "muted")] : [];
    if (failedLast) {
      notes.push(el("p", "The last reading failed at " + at(error.at, now) + ": " + error.message +
        (l.readAt ? "; shown is the reading of " + at(l.readAt, now) + "." : "."), "warning"));
      alerts.push("Qlik Cloud tenant " + name + ": its licences could not be read; the error is under " + title + ".");
    }
    if (licence && (licence.expired || (licence.daysUntilExpiry !== undefined && licence.daysUntilExpiry <= CLOUD_EXPIRY_WARN_DAYS))) {
      alerts.push("Qlik Cloud tenant " + name + ": its licence " + (licence.expired ? "has expired" : "ends on " + licence.expiryDate) + ".");
    }
    notes.forEach(function (note) { shown.insertBefore(note, shown.children[1]); });
    return shown;
  }
`;
