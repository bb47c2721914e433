// Blobs in an S3-compatible object store (AWS S3, MinIO, Ceph RGW, Garage...), chosen by S3_BUCKET.
// Same keys as on the local disk (`yyyy/mm/<uuid>`), under S3_PREFIX. A PutObject is atomic: a
// reader sees the whole object or none. Every request has connect, answer and idle time-outs and at
// most maxAttempts tries (the SDK's standard retries with back-off), so a store that hangs costs a
// request bounded seconds; a store that fails answers 503 SERVICE_UNAVAILABLE, never a 500.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { TS3Config } from './s3-settings.ts';
import { AppError } from '../http/app-error.ts';
import { assertBlobKey, BlobNotFoundError, type BlobStore, type TBlobInfo } from './blob-store.ts';

/** Time-outs and tries of every request (a test shortens them). */
export type TS3Limits = {
  connectTimeoutMs: number;
  /** From sending a request (an upload's body included) to the answer's headers. */
  requestTimeoutMs: number;
  /** How long the socket may stay silent, also while a download streams to a browser. */
  idleTimeoutMs: number;
  maxAttempts: number;
};

export const DEFAULT_S3_LIMITS: TS3Limits = {
  connectTimeoutMs: 5_000,
  // A 50 MB upload at 1 MB/s fits; a store that takes the bytes and never answers does not hang on.
  requestTimeoutMs: 120_000,
  idleTimeoutMs: 30_000,
  maxAttempts: 3,
};

/** NoSuchKey (GET) or a bodiless 404 (HEAD). NoSuchBucket is a configuration fault, not a missing file. */
function isMissingObject(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound');
}

/** The store failed (down, refused our keys, no such bucket): 503 for the caller, the cause in the log. */
function unavailable(error: unknown): AppError {
  const fault = new AppError(
    'SERVICE_UNAVAILABLE',
    'The file store is not answering. Please try again in a moment.',
  );
  fault.cause = error;
  return fault;
}

export function s3ClientOf(config: TS3Config, limits: TS3Limits = DEFAULT_S3_LIMITS): S3Client {
  return new S3Client({
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    // Without S3_REGION the SDK's chain decides (AWS_REGION, ~/.aws/config).
    ...(config.region ? { region: config.region } : {}),
    // Without keys the SDK's chain decides (environment, web identity, ECS/EC2 instance roles...).
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    maxAttempts: limits.maxAttempts,
    requestHandler: {
      connectionTimeout: limits.connectTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Without it the SDK only warns when the time-out passes and the request hangs on.
      throwOnRequestTimeout: true,
      socketTimeout: limits.idleTimeoutMs,
    },
    // Checksums only where the API requires them: several S3-compatible stores refuse the SDK's
    // default CRC32 headers and trailers. Uploads carry Content-MD5, which every store verifies.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export class S3BlobStore implements BlobStore {
  readonly driver = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: TS3Config, limits: TS3Limits = DEFAULT_S3_LIMITS) {
    this.client = s3ClientOf(config, limits);
    this.bucket = config.bucket;
    this.prefix = config.prefix;
  }

  /** The object key of a blob key: S3_PREFIX + `yyyy/mm/<uuid>`. */
  objectKey(key: string): string {
    assertBlobKey(key);
    return `${this.prefix}${key}`;
  }

  async put(key: string, data: Buffer): Promise<TBlobInfo> {
    const objectKey = this.objectKey(key);
    const sha256 = createHash('sha256').update(data).digest('hex');
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Body: data,
          ContentLength: data.byteLength,
          ContentMD5: createHash('md5').update(data).digest('base64'),
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (error) {
      throw unavailable(error);
    }
    return { key, sizeBytes: data.byteLength, sha256 };
  }

  async open(key: string): Promise<Readable> {
    const objectKey = this.objectKey(key);
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      if (!(Body instanceof Readable)) throw new Error('GetObject returned no Node.js stream');
      return Body;
    } catch (error) {
      if (isMissingObject(error)) throw new BlobNotFoundError(key);
      throw unavailable(error);
    }
  }

  async read(key: string): Promise<Buffer> {
    const objectKey = this.objectKey(key);
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      if (!Body) throw new Error('GetObject returned no body');
      return Buffer.from(await Body.transformToByteArray());
    } catch (error) {
      if (isMissingObject(error)) throw new BlobNotFoundError(key);
      throw unavailable(error);
    }
  }

  /** Deleting a key that is not there succeeds (S3's own rule, and the local disk's). */
  async delete(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async exists(key: string): Promise<boolean> {
    const objectKey = this.objectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: objectKey }));
      return true;
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw unavailable(error);
    }
  }

  /** The bucket answers to our credentials (HeadBucket), within timeoutMs retries included. */
  async checkReachable(timeoutMs: number): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
  }

  close(): void {
    this.client.destroy();
  }
}
