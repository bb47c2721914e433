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

/** The S3_* variables as config.ts has parsed them. */
export type TS3Env = {
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_PREFIX?: string | undefined;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
};

/** S3_* settings that only make sense together (never echoing a value: one of them is a secret). */
export function s3Issues(e: TS3Env, env: NodeJS.ProcessEnv): string[] {
  const issues: string[] = [];
  if (e.S3_BUCKET === undefined) {
    const stray = (
      ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const
    ).filter((name) => e[name] !== undefined);
    if (stray.length > 0) issues.push(`S3_BUCKET: required when ${stray.join(', ')} is set`);
    return issues;
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    issues.push(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the ambient AWS credentials',
    );
  }
  if (!e.S3_ENDPOINT && !e.S3_REGION && !env.AWS_REGION && !env.AWS_DEFAULT_REGION) {
    issues.push('S3_REGION: required for AWS S3 (or set S3_ENDPOINT for another S3-compatible store)');
  }
  return issues;
}

export function s3ConfigOf(e: TS3Env): TS3Config | null {
  if (!e.S3_BUCKET) return null;
  const prefix = e.S3_PREFIX ? e.S3_PREFIX.replace(/\/?$/, '/') : '';
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, '') ?? null,
    // Stores other than AWS take any region name; us-east-1 is the one they all default to.
    region: e.S3_REGION ?? (e.S3_ENDPOINT ? 'us-east-1' : null),
    credentials:
      e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
        : null,
    // MinIO and most self-hosted stores answer on one host name: path-style unless told otherwise.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    prefix,
  };
}
