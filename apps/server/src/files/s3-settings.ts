// The settings of the S3-compatible file store, as config.ts reads them from S3_* (here so the file
// store never imports the configuration: config.ts → files, one direction).
/** An S3-compatible file store (s3-store.ts); documented in .env.example. */
export type TS3Config = {
  bucket: string;
  /** MinIO, Ceph, Garage...: their URL; null: AWS S3 in the region. */
  endpoint: string | null;
  /** null: the SDK's chain decides (AWS_REGION...). */
  region: string | null;
  /** null: the SDK's chain decides (environment, instance or pod role...). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** '' or folders ending in '/', put before every object key. */
  prefix: string;
};
