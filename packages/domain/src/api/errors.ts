import { z } from 'zod';

/** Body of every error response: `message` is written for the person using the app. */
export const ZErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** The user-facing message of an error response body, or undefined when it is not one. */
export function errorBodyMessage(body: unknown): string | undefined {
  const parsed = ZErrorBody.safeParse(body);
  return parsed.success && parsed.data.error.message.trim() !== '' ? parsed.data.error.message : undefined;
}
