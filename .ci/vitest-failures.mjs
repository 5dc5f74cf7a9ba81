// Prints one line per failed test of a vitest JSON report (--reporter=json): its file, its full
// name and the first line of its message; a file that failed before any of its tests ran prints
// its own message. CI prints these at the very end, where a reader of the last lines finds them.
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const firstLine = (text) => (text ?? "").trim().split("\n")[0].slice(0, 300);

try {
  const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
  for (const file of report.testResults) {
    const name = relative(process.cwd(), file.name);
    if (file.status === "failed" && file.assertionResults.length === 0) {
      console.log(`FAILED ${name}: ${firstLine(file.message)}`);
    }
    for (const test of file.assertionResults) {
      if (test.status !== "failed") continue;
      console.log(`FAILED ${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
} catch (error) {
  console.log(`FAILED ${process.argv[2]}: the report cannot be read (${error.message})`);
}
