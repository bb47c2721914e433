import { MAX_REPORT_RECIPIENTS, ZE164, ZEmailAddress, type TDeliveryChannel } from '@ris/domain';

/** How one channel's recipients are named to the person typing them. */
export const RECIPIENT_NOUNS: Record<TDeliveryChannel, { one: string; many: string }> = {
  email: { one: 'e-mail address', many: 'e-mail addresses' },
  whatsapp: { one: 'mobile number', many: 'mobile numbers' },
};

export type TRecipientCheck = { ok: true; value: string } | { ok: false; error: string };

/**
 * Splits typed or pasted text into entries. E-mail addresses are separated by commas, semicolons or
 * white space; mobile numbers only by commas, semicolons and line breaks (people write "+91 98765 43210").
 */
export function splitEntries(channel: TDeliveryChannel, text: string): string[] {
  const separator = channel === 'email' ? /[\s,;]+/ : /[,;\n\r]+/;
  return text
    .split(separator)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** A mobile number as E.164 would have it: no spaces, dashes, dots or brackets; "00" → "+". */
function compactNumber(raw: string): string {
  const compact = raw.replace(/[\s\-.()]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

/**
 * One entry checked with the API's own rules (ZEmailAddress, ZE164 from @ris/domain): the value the
 * request will carry (e-mail lower-cased, number compacted), or why it is refused.
 */
export function checkRecipient(channel: TDeliveryChannel, raw: string): TRecipientCheck {
  const candidate = channel === 'email' ? raw.trim() : compactNumber(raw.trim());
  const parsed = (channel === 'email' ? ZEmailAddress : ZE164).safeParse(candidate);
  if (parsed.success) return { ok: true, value: parsed.data };
  const reason = parsed.error.issues[0]?.message ?? `must be a valid ${RECIPIENT_NOUNS[channel].one}`;
  return { ok: false, error: `${raw.trim()}: ${reason}` };
}

export interface TAddResult {
  /** The list with every valid new entry appended (duplicates left out). */
  recipients: string[];
  /** The entries that were refused, to leave in the input for correcting; '' when none. */
  rest: string;
  /** The first refusal (an invalid entry or the limit), or null. */
  error: string | null;
}

/** Adds the entries of `text` to `current`: valid ones become chips, the rest stay with an error. */
export function addRecipients(
  channel: TDeliveryChannel,
  current: readonly string[],
  text: string,
): TAddResult {
  const recipients = [...current];
  const refused: string[] = [];
  let error: string | null = null;
  for (const entry of splitEntries(channel, text)) {
    const check = checkRecipient(channel, entry);
    if (!check.ok) {
      refused.push(entry);
      error ??= check.error;
      continue;
    }
    if (recipients.includes(check.value)) continue;
    if (recipients.length >= MAX_REPORT_RECIPIENTS) {
      refused.push(entry);
      error ??= `At most ${MAX_REPORT_RECIPIENTS} ${RECIPIENT_NOUNS[channel].many} per share`;
      continue;
    }
    recipients.push(check.value);
  }
  return { recipients, rest: refused.join(channel === 'email' ? ' ' : ', '), error };
}
