/** Datagrams as the scheduler's task appenders send them: each prefix with the eleven fields. */

export const FAILED =
  "/scheduler-task-failed/;qs-node1;Reload Sales;Sales dashboard;INTERNAL\\sa_scheduler;54767e54-af40-4da3-8c3a-a9ead04c7ee9;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-20 14:03:12,345;ERROR;32342464-c525-45c4-b755-1a2b55d4e7f1;Task finished with state FinishedFail. Max retries reached";
export const FAILED_LEGACY =
  "/scheduler-reload-failed/;qs-node2;Nightly finance;Finance;ACME\\svc_qlik;a4b4aa32-ae67-4d98-a57f-34ebd189c6c4;0d338989-a711-4bc6-8c77-a0707f705bdc;2026-06-21 02:00:41,007;WARN;5f0bea52-127d-4a77-9e21-6c23f959df7a;Max retries reached";
export const FAILED_NO_EXECUTOR =
  "/scheduler-task-failed/;qs-node1;Preload Sales;Sales dashboard;INTERNAL\\sa_scheduler;e362e071-99c1-4940-8882-cc23c3ff006e;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-21 06:30:00,120;ERROR;9241c2e3-ecc9-4211-9572-940fecc77b79;Could not reserve an executor for task";
export const ABORTED =
  "/scheduler-task-aborted/;qs-node1;Reload Sales;Sales dashboard;ACME\\jdoe;54767e54-af40-4da3-8c3a-a9ead04c7ee9;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-20 15:10:02,911;INFO;61c324d1-b52e-4e69-981d-132185b9dc98;Execution State Change to Aborting";
export const ABORTED_LEGACY =
  "/scheduler-reload-aborted/;qs-node2;Nightly finance;Finance;INTERNAL\\sa_scheduler;a4b4aa32-ae67-4d98-a57f-34ebd189c6c4;0d338989-a711-4bc6-8c77-a0707f705bdc;2026-06-21 02:05:13,450;INFO;0c7e1f1b-74ad-4924-93f1-dd5dcb1905a8;Execution State Change to Aborting";
export const SUCCESS_TWO_SLASHES =
  "/scheduler-task-success//;qs-node1;Reload Sales;Sales dashboard;INTERNAL\\sa_scheduler;54767e54-af40-4da3-8c3a-a9ead04c7ee9;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-20 16:00:55,002;INFO;f77d1413-56b8-4a84-857b-01b089f8b28b;Execution State Change to FinishedSuccess";
export const SUCCESS =
  "/scheduler-task-success/;qs-node1;Reload Sales;Sales dashboard;INTERNAL\\sa_scheduler;54767e54-af40-4da3-8c3a-a9ead04c7ee9;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-20 16:00:55,002;INFO;f77d1413-56b8-4a84-857b-01b089f8b28b;Execution State Change to FinishedSuccess";
export const SUCCESS_LEGACY =
  "/scheduler-reloadtask-success/;qs-node2;Nightly finance;Finance;INTERNAL\\sa_scheduler;a4b4aa32-ae67-4d98-a57f-34ebd189c6c4;0d338989-a711-4bc6-8c77-a0707f705bdc;2026-06-22 02:03:10,778;INFO;0213b274-5c4e-4150-9153-d2cefadd001f;Execution State Change to FinishedSuccess";
export const DISTRIBUTE =
  "/scheduler-distribute/;qs-node1;Distribute Sales;Sales dashboard;INTERNAL\\sa_scheduler;e362e071-99c1-4940-8882-cc23c3ff006e;a9e84152-206c-4b0e-a459-e5c2021f8316;2026-06-20 16:05:01,300;INFO;9241c2e3-ecc9-4211-9572-940fecc77b79;Exiting execute of Distribute task request.";
export const DISTRIBUTE_NO_APP =
  "/scheduler-distribute/;qs-node2;Distribute to cloud;;INTERNAL\\sa_scheduler;0c7e1f1b-74ad-4924-93f1-dd5dcb1905a8;;2026-06-20 16:06:11,004;INFO;5f0bea52-127d-4a77-9e21-6c23f959df7a;Exiting execute of Distribute task request.";
export const ENGINE_RELOAD_FAILED_DATAGRAM =
  "/engine-reload-failed/;qs-node1;a9e84152-206c-4b0e-a459-e5c2021f8316;x;ACME;jdoe;x;x;x";
