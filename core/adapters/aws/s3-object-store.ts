/**
 * ObjectStore in an S3 bucket: every key lives under `prefix` (e.g. `audit-events/`), so the
 * store cannot touch objects outside it. The client is injected (tests point it at s3rver).
 */
import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { validateObjectKey } from "../../destinations/index.ts";
import type { ObjectStore } from "../../ports.ts";

export class S3ObjectStoreError extends Error {
  override name = "S3ObjectStoreError";
}

export interface S3ObjectStoreOptions {
  client: S3Client;
  bucket: string;
  /** Key prefix inside the bucket; "" or ending in `/`. */
  prefix: string;
}

export function createS3ObjectStore({ client, bucket, prefix }: S3ObjectStoreOptions): ObjectStore {
  const base = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
  return {
    async put(key, body) {
      validateObjectKey(key);
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: base + key, Body: body }));
      } catch (error) {
        throw new S3ObjectStoreError(`putting ${key} into s3://${bucket}/${base} failed`, { cause: error });
      }
    },

    async get(key) {
      validateObjectKey(key);
      try {
        const response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: base + key }));
        if (response.Body === undefined) return new Uint8Array();
        return await response.Body.transformToByteArray();
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw new S3ObjectStoreError(`getting ${key} from s3://${bucket}/${base} failed`, { cause: error });
      }
    },

    async list(keyPrefix) {
      const keys: string[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: base + keyPrefix, ContinuationToken: token }),
          );
          for (const object of page.Contents ?? []) {
            if (object.Key !== undefined) keys.push(object.Key.slice(base.length));
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token !== undefined);
      } catch (error) {
        throw new S3ObjectStoreError(`listing s3://${bucket}/${base}${keyPrefix} failed`, { cause: error });
      }
      return keys.sort();
    },
  };
}
