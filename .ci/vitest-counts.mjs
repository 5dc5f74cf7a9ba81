// Prints "<passed> <failed> <skipped>" from a vitest JSON report (--reporter=json), counting a
// test file that failed before any of its tests ran as one failure; "0 1 0" when the report is
// missing or unreadable, so a run that crashed never counts as passed.
import { readFileSync } from "node:fs";

try {
  const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const failedFiles = report.testResults.filter(
    (file) => file.status === "failed" && file.assertionResults.length === 0,
  ).length;
  const skipped = report.numPendingTests + report.numTodoTests;
  console.log(`${report.numPassedTests} ${report.numFailedTests + failedFiles} ${skipped}`);
} catch {
  console.log("0 1 0");
}
