// The value types of the environment variables config.ts reads (booleans, URLs, lists), each parsed
// and checked once, with the message a bad value gets.
import { isIP } from 'node:net';
import { z } from 'zod';

export const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * TRUST_PROXY: a boolean, or the proxies' addresses (IPs or CIDR ranges, comma-separated). `true`
 * takes the client's address from the leftmost X-Forwarded-For entry, which a client can write when
 * the proxy appends to the header instead of replacing it (nginx's $proxy_add_x_forwarded_for); with
 * addresses, the rightmost entry not from a listed proxy is the client's.
 */
export const trustProxy = z.string().transform((value, context): boolean | string[] => {
  const flag = booleanString.safeParse(value);
  if (flag.success) return flag.data;
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    return (
      family === 0 ||
      rest.length > 0 ||
      (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))
    );
  });
  if (bad !== undefined) {
    context.addIssue({
      code: 'custom',
      message: 'must be true, false, or proxy IP addresses or CIDR ranges (comma-separated)',
    });
    return z.NEVER;
  }
  return entries;
});

export const postgresUrl = z
  .string()
  .url()
  .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL');

export const httpUrl = z
  .string()
  .url()
  .refine((value) => /^https?:\/\//.test(value), 'must be an http:// or https:// URL');

/** A comma-separated list of host names ("pacs.example,*.hospital.example"); unset: null (any host). */
export const hostList = z
  .string()
  .optional()
  .transform((value) =>
    value
      ? value
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter((host) => host !== '')
      : null,
  );

/** "RIS <no-reply@example.org>" → "no-reply@example.org". */
export function mailAddressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}
