/** The bucket the audit queue consumer writes Parquet, QVD and objectData files to. */
export const auditEventsBucket = new sst.aws.Bucket("AuditEventsBucket");
