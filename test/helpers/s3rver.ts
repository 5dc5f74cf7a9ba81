/** An s3rver on an ephemeral loopback port with one bucket, and a client configured for it. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";

export interface LocalS3 {
  client: S3Client;
  bucket: string;
  endpoint: string;
  close(): Promise<void>;
}

export async function startS3rver(bucket = "steward-test"): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), "steward-s3rver-"));
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  return {
    client,
    bucket,
    endpoint,
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
