import { ZSpeechOptions, ZSpeechSettings, ZSpeechSettingsUpdate } from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import {
  authorizeSpeechSettings,
  presentSpeechOptions,
  presentSpeechSettings,
  saveSpeechSettings,
  type TSpeechSettingsInEffect,
} from './speech-settings.ts';

const security = [{ bearerAuth: [] }];

/**
 * The organisation's speech settings (issue 17): read by its ADMINs and FACILITY_ADMINs, changed
 * by its ADMINs only; the Augnito key goes in and never comes out (has_access_key). What the
 * reporting screen may offer (GET /speech/options) is for every signed-in user of the organisation.
 */
export const speechSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;
  const { engines } = app.dictation;

  async function present(organisationId: string, settings: TSpeechSettingsInEffect) {
    return presentSpeechSettings(settings, {
      pocketsphinxAvailable: engines.pocketsphinxAvailable,
      languageModel: await app.dictation.languageModelInfo(db, organisationId),
    });
  }

  app.get(
    '/organisation/speech-settings',
    {
      schema: {
        tags: ['organisations'],
        security,
        summary: "The organisation's dictation engine and its settings (administrators)",
        description:
          'ADMINs and FACILITY_ADMINs (read only); 403 for everyone else. The Augnito access key is never sent: has_access_key says whether one is stored.',
        response: { 200: ZSpeechSettings, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      authorizeSpeechSettings(principal, 'read');
      const { organisationId } = await loadScope(db, principal);
      return present(organisationId, await engines.settingsOf(db, organisationId));
    },
  );

  app.put(
    '/organisation/speech-settings',
    {
      schema: {
        tags: ['organisations'],
        security,
        summary: "Change the organisation's dictation engine and its settings (administrators)",
        description:
          "Fields left out keep their value; augnito.access_key '' clears the key. 400 naming the field: augnito.account_code, augnito.lm_id or augnito.access_key missing when provider is augnito; augnito.server_url not wss:// or a host SPEECH_ALLOWED_HOSTS refuses; provider pocketsphinx where it is not installed. 403 for anyone but an ADMIN.",
        body: ZSpeechSettingsUpdate,
        response: { 200: ZSpeechSettings, ...ZErrorResponses },
      },
    },
    async (request) => {
      const principal = requirePrincipal(request);
      authorizeSpeechSettings(principal, 'change');
      const { organisationId } = await loadScope(db, principal);
      const saved = await saveSpeechSettings(
        db,
        {
          organisationId,
          actorUserId: principal.userId,
          origin: { ip: request.ip, userAgent: request.headers['user-agent'] ?? null },
          box: app.secretBox,
          allowedHosts: app.deps.config.speech.allowedHosts,
          pocketsphinxAvailable: engines.pocketsphinxAvailable,
        },
        request.body,
      );
      return present(organisationId, saved);
    },
  );

  app.get(
    '/speech/options',
    {
      schema: {
        tags: ['dictation'],
        security,
        summary: 'What dictation the reporting screen offers (engine kind; never keys or addresses)',
        description:
          "With a server engine (pocketsphinx, augnito) the screen dictates over the speech socket, a WebSocket at /api/v1/speech: first a text message {type:'start', token, report_id, sample_rate:16000, encoding:'s16le'}, then after 'ready' binary frames of 16 kHz s16le mono and {type:'stop'}; the server answers partial, final (text and segments), ended or error (ZSpeechServerMessage in @ris/domain).",
        response: { 200: ZSpeechOptions, ...ZErrorResponses },
      },
    },
    async (request) => {
      const { organisationId } = await loadScope(db, requirePrincipal(request));
      return presentSpeechOptions(await engines.settingsOf(db, organisationId));
    },
  );
};
