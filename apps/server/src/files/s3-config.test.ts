// The S3_* settings: what turns the S3 store on, the defaults for self-hosted stores, and the
// messages that name the variable (never its value: S3_SECRET_ACCESS_KEY is a secret).
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { configIssues } from '../test/config-issues.ts';

describe('S3_* settings', () => {
  it('keep files on the local disk without S3_BUCKET', () => {
    expect(loadConfig({}).s3).toBeNull();
  });

  it('point at a self-hosted store: path-style, any region, the prefix as a folder', () => {
    expect(
      loadConfig({
        S3_BUCKET: 'ris-files',
        S3_ENDPOINT: 'http://minio.internal:9000/',
        S3_ACCESS_KEY_ID: 'ris',
        S3_SECRET_ACCESS_KEY: 'not-a-real-secret',
        S3_PREFIX: 'hospital-a/files',
      }).s3,
    ).toEqual({
      bucket: 'ris-files',
      endpoint: 'http://minio.internal:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'ris', secretAccessKey: 'not-a-real-secret' },
      forcePathStyle: true,
      prefix: 'hospital-a/files/',
    });
  });

  it('use AWS S3 with the ambient credentials when no keys are given', () => {
    expect(loadConfig({ S3_BUCKET: 'ris-files', S3_REGION: 'eu-west-3' }).s3).toEqual({
      bucket: 'ris-files',
      endpoint: null,
      region: 'eu-west-3',
      credentials: null,
      forcePathStyle: false,
      prefix: '',
    });
    expect(loadConfig({ S3_BUCKET: 'ris-files', AWS_REGION: 'eu-west-3' }).s3?.region).toBeNull();
  });

  it('refuse incomplete or malformed settings, naming the variable and never echoing the secret', () => {
    const secret = 'SECRET-VALUE-123';
    const issues = configIssues({
      S3_BUCKET: 'ris-files',
      S3_ENDPOINT: 'http://s3.local',
      S3_SECRET_ACCESS_KEY: secret,
    });
    expect(issues).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set both, or neither to use the ambient AWS credentials',
    ]);
    expect(configIssues({ S3_BUCKET: 'ris-files' })).toEqual([
      'S3_REGION: required for AWS S3 (or set S3_ENDPOINT for another S3-compatible store)',
    ]);
    expect(configIssues({ S3_ENDPOINT: 'http://s3.local', S3_PREFIX: 'ris' })).toEqual([
      'S3_BUCKET: required when S3_ENDPOINT, S3_PREFIX is set',
    ]);
    const malformed = configIssues({
      S3_BUCKET: 'Not a bucket!',
      S3_ENDPOINT: 'ftp://s3.local',
      S3_PREFIX: '../escape',
      S3_FORCE_PATH_STYLE: 'maybe',
      S3_SECRET_ACCESS_KEY: `${secret}${'x'.repeat(1024)}`,
    });
    expect(malformed.map((issue) => issue.split(':')[0]).sort()).toEqual([
      'S3_BUCKET',
      'S3_ENDPOINT',
      'S3_FORCE_PATH_STYLE',
      'S3_PREFIX',
      'S3_SECRET_ACCESS_KEY',
    ]);
    expect([...issues, ...malformed].join('\n')).not.toMatch(/SECRET-VALUE/);
  });

  it('refuse prefixes that start with a slash or hold a dot folder', () => {
    for (const prefix of ['/ris', 'ris/../x', 'ris//x', '.hidden']) {
      expect(
        configIssues({ S3_BUCKET: 'b-1', S3_ENDPOINT: 'http://s3.local', S3_PREFIX: prefix }),
        prefix,
      ).toEqual([expect.stringMatching(/^S3_PREFIX: /)]);
    }
  });
});
