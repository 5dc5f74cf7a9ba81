/**
 * A linked table, queue or bucket hands a function its name (or URL) and nothing else: what the
 * code reads at run time as `Resource.<Name>`. SST's own links would also grant every action on
 * what they link (`dynamodb:*` on a table and its indexes, `sqs:*` on a queue, `s3:*` on a bucket
 * and its objects), so the public ingest function could purge or delete the queue and the REST
 * function delete its tables. Instead each function lists the actions its code sends, on the
 * resources it sends them to, in its `permissions` (infra/audit-ingest.ts, rest.ts, consumer.ts);
 * test/unit/infra/permissions.test.ts derives those actions from the AWS SDK commands in the code
 * each handler reaches, so a command added without its grant fails there, not in production.
 * Imported by infra/functions.ts, before any function is declared.
 */

sst.Linkable.wrap(sst.aws.Dynamo, (table) => ({ properties: { name: table.name } }));
sst.Linkable.wrap(sst.aws.Queue, (queue) => ({ properties: { url: queue.url } }));
sst.Linkable.wrap(sst.aws.Bucket, (bucket) => ({ properties: { name: bucket.name } }));

export {};
