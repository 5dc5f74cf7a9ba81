/** A watched Windows service's alert as the service monitor raises it, for the alert channels' tests. */
import type { ServiceStateAlert } from "../../core/alerts/index.ts";

export const STOPPED: ServiceStateAlert = {
  kind: "serviceStopped",
  change: "stopped",
  host: "sense1.example.com",
  service: "QlikSenseRepositoryService",
  friendlyName: "Repository",
  displayName: "Qlik Sense Repository Service",
  startType: "Automatic",
  exePath: '"C:\\Program Files\\Qlik\\Sense\\Repository\\Repository.exe"',
  dependencies: ["QlikSenseServiceDispatcher"],
  previous: "RUNNING",
  state: "STOPPED",
  at: "2026-12-06T07:00:30.000Z",
};
