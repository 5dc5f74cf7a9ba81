/**
 * What Windows service monitoring asks of the machine: the state of one service on one host, with
 * its display name and start type. The adapter (core/adapters/local/sc-service-state-reader.ts)
 * runs Windows' own `sc.exe`, which reads a remote host's services over RPC with the rights of the
 * account Steward runs as, so nothing has to be installed on the monitored hosts. A reading that
 * cannot be made (host unreachable, access denied, no such service, no answer in time) is a
 * failed reading with its reason, never a thrown error: one bad host must not stop the others.
 */

/** The states `sc.exe query` names, with the numbers Windows gives them (SERVICE_STOPPED = 1, ...). */
export const SERVICE_STATES = {
  STOPPED: 1,
  START_PENDING: 2,
  STOP_PENDING: 3,
  RUNNING: 4,
  CONTINUE_PENDING: 5,
  PAUSE_PENDING: 6,
  PAUSED: 7,
} as const;

export type ServiceState = keyof typeof SERVICE_STATES;

/** Why a reading failed: the Windows error's meaning, for logs, counts and the status page. */
export type ServiceReadingFailure =
  /** 1060: the service is not installed on that host (a misspelt name, or an uninstall). */
  | "missing"
  /** 5: the account Steward runs as may not read that host's services. */
  | "denied"
  /** 1722, 53, 1717...: the host did not answer (down, name not found, firewall). */
  | "unreachable"
  /** No answer within the time limit; the command was killed. */
  | "timeout"
  /** Anything else (sc.exe missing, an output that could not be read). */
  | "other";

export type ServiceReading =
  | {
      readonly ok: true;
      readonly state: ServiceState;
      readonly stateNum: number;
      /** `DISPLAY_NAME` of `sc.exe qc`; the service name when it could not be read. */
      readonly displayName: string;
      /** `START_TYPE` of `sc.exe qc` in Butler's words (`Automatic`, `Manual`, ...); "" when unread. */
      readonly startType: string;
      /** `BINARY_PATH_NAME` of `sc.exe qc`; "" when unread. */
      readonly exePath: string;
      /** `DEPENDENCIES` of `sc.exe qc`; empty when unread. */
      readonly dependencies: readonly string[];
    }
  | {
      readonly ok: false;
      readonly failure: ServiceReadingFailure;
      /** The Windows error code when sc.exe gave one. */
      readonly code: number | undefined;
      /** One line saying what went wrong, in sc.exe's words where it gave some. */
      readonly reason: string;
    };

export interface ServiceStateReader {
  /** The state of `service` (its service name, not its display name) on `host`. Never rejects. */
  read(host: string, service: string): Promise<ServiceReading>;
}
