// The part of s3rver (no bundled types) the tests use: a local S3 server in a directory.
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  type TS3rverOptions = {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string }[];
  };

  class S3rver {
    constructor(options: TS3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }

  export default S3rver;
}
