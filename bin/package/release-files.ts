/**
 * What goes into an archive of `npm run package` beside the executable: the commented
 * configuration template (what `steward init-config` prints), the platform's log-appender files
 * (docs/log-appenders/), Node's licence, on Windows the service wrapper with its configuration
 * file and licence, and a short README.txt saying what each file is and how to start. The
 * template is rendered from the same schema the executable checks against.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { renderTemplate } from "../../core/config/index.ts";

export const TEMPLATE_FILE = "config-template.yaml";
export const NODE_LICENSE_FILE = "NODE-LICENSE.txt";
/** The service wrapper's name in the archive (local/cli/service-wrapper.ts looks for it beside steward.exe). */
export const WRAPPER_FILE = "steward-service.exe";
export const WRAPPER_LICENSE_FILE = "WINSW-LICENSE.txt";

export interface ReleaseFiles {
  windows: boolean;
  version: string;
  nodeVersion: string;
  /** The folder being filled (becomes the archive's top folder). */
  directory: string;
  /** Node's LICENSE, of the version the executable embeds. */
  nodeLicense: string;
  /** winsw.exe and its .exe.config (Windows only). */
  wrapper?: { exe: string; config: string; license: string };
  root: string;
}

/** Writes everything but the executable into `files.directory`. */
export function writeReleaseFiles(files: ReleaseFiles): void {
  const { directory } = files;
  mkdirSync(directory, { recursive: true });
  const text = (content: string) => (files.windows ? content.replaceAll("\n", "\r\n") : content);
  writeFileSync(join(directory, TEMPLATE_FILE), renderTemplate());
  cpSync(join(files.root, "docs", "log-appenders"), join(directory, "log-appenders"), { recursive: true });
  writeFileSync(join(directory, NODE_LICENSE_FILE), text(readText(files.nodeLicense)));
  if (files.wrapper !== undefined) {
    copyFileSync(files.wrapper.exe, join(directory, WRAPPER_FILE));
    copyFileSync(files.wrapper.config, join(directory, `${WRAPPER_FILE}.config`));
    writeFileSync(join(directory, WRAPPER_LICENSE_FILE), text(readText(files.wrapper.license)));
  }
  writeFileSync(
    join(directory, "README.txt"),
    text(files.windows ? windowsReadme(files) : linuxReadme(files)),
  );
}

/** A text file with its line ends made `\n`, for `text()` to give each platform its own. */
function readText(file: string): string {
  return readFileSync(file, "utf8").replaceAll("\r\n", "\n");
}

const HANDBOOK = "the handbook in Steward's repository (docs/)";

function windowsReadme({ version, nodeVersion }: ReleaseFiles): string {
  return `Steward ${version} for Windows x64

steward.exe              Steward itself, with Node.js ${nodeVersion} inside: nothing else to install.
                         steward --help lists the commands.
${WRAPPER_FILE}      the Windows service wrapper (WinSW 1.17; licence in ${WRAPPER_LICENSE_FILE}),
                         run by "steward service ..."; needs .NET Framework 4, part of Windows Server.
${TEMPLATE_FILE}     a complete, commented configuration (what "steward init-config" prints).
log-appenders\\           the log-appender files that make the platform's services send their
                         events to Steward over UDP.
${NODE_LICENSE_FILE}         the licence of Node.js and the libraries it contains.

Install as a Windows service (an administrator's command prompt):

  1. Unpack this folder to C:\\Program Files\\Steward.
  2. Copy ${TEMPLATE_FILE} to C:\\ProgramData\\Steward\\steward.yaml, edit it, and check it:
       steward check-config C:\\ProgramData\\Steward\\steward.yaml
  3. Let the service's account (LocalService) write there:
       icacls C:\\ProgramData\\Steward /grant "NT AUTHORITY\\LocalService:(OI)(CI)M"
  4. steward service install --config C:\\ProgramData\\Steward\\steward.yaml
     steward service start

The service starts at boot and restarts after a crash. It runs in the configuration's folder:
its data (the audit queue, key-value store, schedules, Parquet files) goes to the folders the
configuration names, relative to it (data\\ by default), and its console output to
log\\steward-service.out.log and .err.log there, rolled at 10 MB. Stop, status and removal:
steward service stop | status | uninstall.

More, including firewall rules and upgrades: "Running on Windows Server",
${HANDBOOK}.
`;
}

function linuxReadme({ version, nodeVersion }: ReleaseFiles): string {
  return `Steward ${version} for Linux x64

steward                  Steward itself, with Node.js ${nodeVersion} inside: nothing else to install.
                         ./steward --help lists the commands.
${TEMPLATE_FILE}     a complete, commented configuration (what "steward init-config" prints).
log-appenders/           the log-appender files that make the platform's services send their
                         events to Steward over UDP.
${NODE_LICENSE_FILE}         the licence of Node.js and the libraries it contains.

Start:

  cp ${TEMPLATE_FILE} steward.yaml      (then edit it)
  ./steward check-config steward.yaml
  ./steward start --config steward.yaml

Relative paths in the configuration (data/, log/ by default) are taken from the working
directory. SIGTERM or Ctrl+C stops Steward within 10 s. More: "Running on-prem",
${HANDBOOK}.
`;
}
