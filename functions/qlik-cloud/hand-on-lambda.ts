/**
 * The Qlik Cloud runs' queue consumer as a Lambda handler (SQS → this function, partial batch
 * responses; infra/qlik-cloud.ts): each message names a run the webhook function stored
 * (core/qlik-cloud/cloud-run-message.ts), which is claimed from the Qlik Cloud table and handed
 * on exactly as every input's runs are (core/qlik-cloud/cloud-run-intake.ts: its log line, its
 * point, its alert with the tenant API's lookups), each tenant's runs at most HANDING_AT_ONCE at
 * a time, and the invocation ends once they are (`settle`: Lambda freezes a function after it
 * answers). The answer names only the messages to receive again: a run the handler refused (it
 * stays pending), a table that could not be read, a message that names no run. After 5 receives
 * a message goes to the dead-letter queue, and the poll still hands on a run left pending.
 * A run handed on before (by the poll's sweep of pending runs, or for a message received twice)
 * is no longer pending and is not handed on again.
 */
import type { SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { readCloudRunMessage } from "../../core/qlik-cloud/index.ts";
import { describeError } from "../../core/shared/describe-error.ts";
import type { CloudQlikInput } from "./cloud-qlik-input.ts";

export type HandOnLambda = (event: SQSEvent) => Promise<SQSBatchResponse>;

export function createHandOnLambda(input: CloudQlikInput): HandOnLambda {
  const { intake, logger } = input;

  /** Whether the record is done with: its run handed on now or before. */
  async function handOnRecord(record: SQSRecord): Promise<boolean> {
    const receiveCount = record.attributes?.ApproximateReceiveCount;
    const reading = readCloudRunMessage(record.body);
    if (!reading.ok) {
      logger.error(
        "A Qlik Cloud runs' queue message names no run; left for retry and the dead-letter queue",
        {
          messageId: record.messageId,
          receiveCount,
          problem: reading.problem,
        },
      );
      return false;
    }
    const { tenant, reloadId } = reading.key;
    try {
      const outcome = await intake.handOnStored(tenant, reloadId);
      if (outcome === "already")
        logger.info("A queued Qlik Cloud run was handed on before; nothing more to do", { tenant, reloadId });
      return outcome !== "failed";
    } catch (error) {
      logger.error("A queued Qlik Cloud run could not be read from the table; received again later", {
        tenant,
        reloadId,
        receiveCount,
        error: describeError(error),
      });
      return false;
    }
  }

  return async function qlikCloudHandOnLambda(event) {
    const done = await Promise.all(event.Records.map(handOnRecord));
    await input.settle();
    return {
      batchItemFailures: event.Records.filter((_, index) => !done[index]).map((record) => ({
        itemIdentifier: record.messageId,
      })),
    };
  };
}
