import {
  PREFERENCES_BODY_LIMIT_BYTES,
  ZDefaultPreferences,
  ZOrganisationPreferences,
  ZPostPreferencesBody,
  ZPutUserPreferencesBody,
  ZUserPreferences,
  ZUserPreferencesParams,
  defaultPreferences,
} from '@ris/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requirePrincipal } from '../../access/require-principal.ts';
import { loadScope } from '../../access/scope.ts';
import { ZErrorResponses } from '../../http/openapi-errors.ts';
import { saveOrganisationPreferences } from './commands/organisation-preferences.ts';
import { readUserPreferences, saveUserPreferences } from './commands/user-preferences.ts';

const security = [{ bearerAuth: [] }];
const tags = ['preferences'];
const writeOptions = { bodyLimit: PREFERENCES_BODY_LIMIT_BYTES };

/**
 * Preferences (spec §3 scopes DEFAULT, USER, ORGANISATION; §7 /user/preference*): what a person sets
 * (worklist columns, quick action, default viewer, page sizes, theme, default date range and
 * filters, notification choices), resolved user over organisation over default.
 */
export const preferenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.deps.database;

  app.get(
    '/user/preference/default',
    {
      schema: {
        tags,
        security,
        summary: 'The product’s default preferences (complete)',
        response: { 200: ZDefaultPreferences, ...ZErrorResponses },
      },
    },
    async (request) => {
      requirePrincipal(request);
      return { scope: 'DEFAULT' as const, preferences: defaultPreferences() };
    },
  );

  app.get(
    '/user/preference/:user',
    {
      schema: {
        tags,
        security,
        summary: 'A user’s preferences resolved (user over organisation over default), with their sources',
        description: 'The user themselves, or an admin of their organisation.',
        params: ZUserPreferencesParams,
        response: { 200: ZUserPreferences, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      return readUserPreferences(db, scope, request.params.user);
    },
  );

  app.put(
    '/user/preference/:user',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: 'Replace one’s own USER preference document',
        description: 'Fields left out are inherited from the organisation, then the default.',
        params: ZUserPreferencesParams,
        body: ZPutUserPreferencesBody,
        response: { 200: ZUserPreferences, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      return saveUserPreferences(db, scope, request.params.user, request.body.preferences);
    },
  );

  app.post(
    '/user/preference',
    {
      ...writeOptions,
      schema: {
        tags,
        security,
        summary: 'Create or replace the organisation’s preference document (admins)',
        body: ZPostPreferencesBody,
        response: { 200: ZOrganisationPreferences, ...ZErrorResponses },
      },
    },
    async (request) => {
      const scope = await loadScope(db, requirePrincipal(request));
      const origin = { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
      return saveOrganisationPreferences(db, scope, request.body.preferences, origin);
    },
  );
};
