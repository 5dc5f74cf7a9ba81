// Prints one line per failed test of a vitest JSON report (--reporter=json): its file, its full
// name and the first line of its message; a file that failed before any of its tests ran prints
// its own message. A test that passed only on its retry (vitest.config.ts retries once under CI)
// is printed as RETRIED with the message of its failed attempt: it did not fail CI, but it is
// flaky and must be seen. CI prints these at the very end, where a reader of the last lines finds
// them.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/**
 * The first line of a failure. Vitest gives a timed-out test or hook the stack it captured when
 * the test was declared, whose first line is its placeholder "Error: STACK_TRACE_ERROR"; that is
 * said as what it means.
 */
function firstLine(text) {
  const line = (text ?? "").trim().split("\n")[0].slice(0, 300);
  return line === "Error: STACK_TRACE_ERROR"
    ? "timed out (the test or one of its hooks ran past its time limit)"
    : line;
}

try {
  const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
  for (const file of report.testResults) {
    const name = relative(process.cwd(), file.name);
    if (file.status === "failed" && file.assertionResults.length === 0) {
      console.log(`FAILED ${name}: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults) {
      const messages = test.failureMessages ?? [];
      if (test.status === "failed") {
        console.log(`FAILED ${name} > ${test.fullName}: ${firstLine(messages[0])}`);
      } else if (test.status === "passed" && messages.length > 0) {
        console.log(`RETRIED ${name} > ${test.fullName}: ${firstLine(messages[0])}`);
      }
    }
  }
} catch (error) {
  console.log(`FAILED ${process.argv[2]}: the report cannot be read (${error.message})`);
}
