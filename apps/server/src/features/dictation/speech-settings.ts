// An organisation's speech settings (issue 17): which engine dictation uses, Augnito's account (its
// access key sealed, never sent out), whether the browser's own engine may be used, and how long
// recorded dictations are kept. No row means the defaults.
import {
  RECORDING_RETENTION_DAYS_DEFAULT,
  SECRET_GIVEN_AGAIN,
  secretMayFollow,
  type TSpeechOptions,
  type TSpeechProvider,
  type TSpeechSettings,
  type TSpeechSettingsUpdate,
} from '@ris/domain';
import { eq } from 'drizzle-orm';
import { BlockList, isIP } from 'node:net';
import type { TPrincipal } from '../../auth/principal.ts';
import type { TRequestOrigin } from '../../auth/audit.ts';
import type { TDb, TDbOrTx } from '../../db/client.ts';
import { auditEvents, organisationSpeechSettings } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import type { SecretBox } from '../../integrations/sealed-secrets.ts';
import { archiveHostAllowed } from '../../integrations/pacs/allowed-hosts.ts';
import { AUGNITO_DEFAULT_SERVER_URL } from '../../integrations/speech/augnito/augnito-protocol.ts';

/** The settings in effect, as the server uses them (the key still sealed). */
export type TSpeechSettingsInEffect = {
  provider: TSpeechProvider;
  augnito: { serverUrl: string; accountCode: string; lmId: string; accessKeySealed: string | null };
  browserSpeechAllowed: boolean;
  recordingRetentionDays: number;
};

/** Loopback, private, link-local (cloud metadata) and unspecified addresses, and IPv4-mapped IPv6. */
const LOCAL_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  LOCAL_NETWORKS.addSubnet(network, prefix, 'ipv6');

/** Whether a URL's host names this machine or a private network (by name 'localhost' or by address). */
function isLocalHost(hostname: string): boolean {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const family = isIP(host);
  return family !== 0 && LOCAL_NETWORKS.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

const isProvider = (value: string): value is TSpeechProvider =>
  value === 'pocketsphinx' || value === 'augnito' || value === 'browser' || value === 'off';

/** The organisation's settings, or the defaults: PocketSphinx when installed, else off. */
export async function speechSettingsOf(
  db: TDbOrTx,
  organisationId: string,
  pocketsphinxAvailable: boolean,
): Promise<TSpeechSettingsInEffect> {
  const [row] = await db
    .select()
    .from(organisationSpeechSettings)
    .where(eq(organisationSpeechSettings.organisationId, organisationId));
  return {
    provider: row && isProvider(row.provider) ? row.provider : pocketsphinxAvailable ? 'pocketsphinx' : 'off',
    augnito: {
      serverUrl: row?.augnitoServerUrl ?? AUGNITO_DEFAULT_SERVER_URL,
      accountCode: row?.augnitoAccountCode ?? '',
      lmId: row?.augnitoLmId ?? '',
      accessKeySealed: row?.augnitoAccessKeySealed ?? null,
    },
    browserSpeechAllowed: row?.browserSpeechAllowed ?? false,
    recordingRetentionDays: row?.recordingRetentionDays ?? RECORDING_RETENTION_DAYS_DEFAULT,
  };
}

/** Who may read the settings: ADMINs and FACILITY_ADMINs (read only); everyone else 403. */
export function authorizeSpeechSettings(principal: TPrincipal, action: 'read' | 'change'): void {
  const allowed = principal.role === 'ADMIN' || (action === 'read' && principal.role === 'FACILITY_ADMIN');
  if (!allowed) {
    throw new AppError(
      'FORBIDDEN',
      action === 'read'
        ? 'Only administrators may see the speech settings'
        : 'Only an administrator may change the speech settings',
    );
  }
}

/** GET /organisation/speech-settings: the settings as the admin panel shows them (no key). */
export function presentSpeechSettings(
  settings: TSpeechSettingsInEffect,
  extra: { pocketsphinxAvailable: boolean; languageModel: TSpeechSettings['language_model'] },
): TSpeechSettings {
  return {
    provider: settings.provider,
    pocketsphinx_available: extra.pocketsphinxAvailable,
    language_model: extra.languageModel,
    augnito: {
      server_url: settings.augnito.serverUrl,
      account_code: settings.augnito.accountCode,
      lm_id: settings.augnito.lmId,
      has_access_key: settings.augnito.accessKeySealed !== null,
    },
    browser_speech_allowed: settings.browserSpeechAllowed,
    recording_retention_days: settings.recordingRetentionDays,
  };
}

/** GET /speech/options: what the reporting screen offers; never a key nor a URL. */
export function presentSpeechOptions(settings: TSpeechSettingsInEffect): TSpeechOptions {
  return { provider: settings.provider, browser_speech_allowed: settings.browserSpeechAllowed };
}

const invalidField = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${field}: ${message}`, { field });

export type TSpeechSettingsWrite = {
  organisationId: string;
  actorUserId: string;
  origin: TRequestOrigin;
  box: SecretBox;
  /** SPEECH_ALLOWED_HOSTS (null: any host). */
  allowedHosts: readonly string[] | null;
  pocketsphinxAvailable: boolean;
};

/**
 * PUT /organisation/speech-settings: merges the change into the settings in effect and stores them
 * whole. 400 naming the field: Augnito chosen without an account code, lm id or access key; a
 * server_url that is not wss:// (ws:// only to a host SPEECH_ALLOWED_HOSTS names) or names a host
 * SPEECH_ALLOWED_HOSTS refuses; PocketSphinx chosen where it is not installed.
 */
export async function saveSpeechSettings(
  db: TDb,
  context: TSpeechSettingsWrite,
  body: TSpeechSettingsUpdate,
): Promise<TSpeechSettingsInEffect> {
  const current = await speechSettingsOf(db, context.organisationId, context.pocketsphinxAvailable);
  const augnito = body.augnito ?? {};
  const accessKey = augnito.access_key;
  const next: TSpeechSettingsInEffect = {
    provider: body.provider ?? current.provider,
    augnito: {
      serverUrl: augnito.server_url ?? current.augnito.serverUrl,
      accountCode: augnito.account_code ?? current.augnito.accountCode,
      lmId: augnito.lm_id ?? current.augnito.lmId,
      accessKeySealed:
        accessKey === undefined
          ? current.augnito.accessKeySealed
          : accessKey.trim() === ''
            ? null
            : context.box.seal(accessKey.trim()),
    },
    browserSpeechAllowed: body.browser_speech_allowed ?? current.browserSpeechAllowed,
    recordingRetentionDays: body.recording_retention_days ?? current.recordingRetentionDays,
  };
  const kept = accessKey === undefined && next.augnito.accessKeySealed !== null;
  if (kept && !secretMayFollow([current.augnito.serverUrl], [next.augnito.serverUrl])) {
    throw invalidField('augnito.access_key', SECRET_GIVEN_AGAIN);
  }
  assertSettings(next, context);
  const values = {
    provider: next.provider,
    augnitoServerUrl: next.augnito.serverUrl,
    augnitoAccountCode: next.augnito.accountCode,
    augnitoLmId: next.augnito.lmId,
    augnitoAccessKeySealed: next.augnito.accessKeySealed,
    browserSpeechAllowed: next.browserSpeechAllowed,
    recordingRetentionDays: next.recordingRetentionDays,
    updatedAt: new Date(),
    updatedBy: context.actorUserId,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(organisationSpeechSettings)
      .values({ organisationId: context.organisationId, ...values })
      .onConflictDoUpdate({ target: organisationSpeechSettings.organisationId, set: values });
    // Who changed what; of the key only whether it was replaced or cleared, never the key.
    await tx.insert(auditEvents).values({
      action: 'speech_settings.updated',
      actorUserId: context.actorUserId,
      organisationId: context.organisationId,
      entityType: 'organisation_speech_settings',
      entityId: context.organisationId,
      ip: context.origin.ip,
      userAgent: context.origin.userAgent?.slice(0, 512) ?? null,
      data: {
        provider: next.provider,
        augnito_server_url: next.augnito.serverUrl,
        augnito_account_code: next.augnito.accountCode,
        augnito_lm_id: next.augnito.lmId,
        access_key: accessKey === undefined ? 'kept' : accessKey.trim() === '' ? 'cleared' : 'replaced',
        browser_speech_allowed: next.browserSpeechAllowed,
        recording_retention_days: next.recordingRetentionDays,
      },
    });
  });
  return next;
}

function assertSettings(next: TSpeechSettingsInEffect, context: TSpeechSettingsWrite): void {
  const url = next.augnito.serverUrl;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  // Unencrypted ws:// only to a host the operator listed by name (a local engine, tests).
  const listed = parsed !== null && (context.allowedHosts ?? []).includes(parsed.hostname.toLowerCase());
  if (!parsed || !(parsed.protocol === 'wss:' || (parsed.protocol === 'ws:' && listed)))
    throw invalidField('augnito.server_url', 'must be a wss:// address');
  // Without SPEECH_ALLOWED_HOSTS any public host may be named, but not this machine nor a private
  // network (an admin could otherwise reach the server's own services or a cloud metadata address).
  if (context.allowedHosts === null && isLocalHost(parsed.hostname))
    throw invalidField(
      'augnito.server_url',
      'names a local or private address (list it in SPEECH_ALLOWED_HOSTS to allow it)',
    );
  if (!archiveHostAllowed(url, context.allowedHosts))
    throw invalidField('augnito.server_url', 'names a host this server may not call (SPEECH_ALLOWED_HOSTS)');
  if (next.provider === 'pocketsphinx' && !context.pocketsphinxAvailable)
    throw invalidField('provider', 'the offline engine (PocketSphinx) is not installed on this server');
  if (next.provider !== 'augnito') return;
  if (next.augnito.accountCode === '')
    throw invalidField('augnito.account_code', 'is required to use Augnito');
  if (next.augnito.lmId === '') throw invalidField('augnito.lm_id', 'is required to use Augnito');
  if (next.augnito.accessKeySealed === null)
    throw invalidField('augnito.access_key', 'is required to use Augnito');
}
