import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { authRoutes } from './auth/auth.routes.ts';
import { authenticate } from './auth/authenticate.ts';
import { createIdentity, type Identity } from './auth/identity.ts';
import { resolveTokenSecret } from './auth/token-secret.ts';
import { secretBoxOf, type SecretBox } from './integrations/sealed-secrets.ts';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { DomainEvents } from './events/domain-events.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import { organisationRoutes } from './features/organisations/organisations.routes.ts';
import { userRoutes } from './features/users/users.routes.ts';
import { patientRoutes } from './features/patients/patients.routes.ts';
import { radiologistRoutes } from './features/radiologists/radiologists.routes.ts';
import { radiologistDetailsRoutes } from './features/radiologists/radiologist-details.routes.ts';
import { templateRoutes } from './features/templates/templates.routes.ts';
import { macroRoutes } from './features/macros/macros.routes.ts';
import { preferenceRoutes } from './features/preferences/preferences.routes.ts';
import { referringPhysicianRoutes } from './features/referring-physicians/referring-physicians.routes.ts';
import { tagRoutes } from './features/tags/tags.routes.ts';
import { notificationRoutes } from './features/notifications/notifications.routes.ts';
import { worklistRoutes } from './features/worklist/worklist.routes.ts';
import { orderRoutes } from './features/orders/orders.routes.ts';
import { reportRoutes } from './features/reports/report.routes.ts';
import { patientDocumentRoutes } from './features/patient-documents/patient-documents.routes.ts';
import { worklistListRoutes } from './features/worklist/list/worklist-list.routes.ts';
import { reportFinderRoutes } from './features/report-finder/report-finder.routes.ts';
import { viewerRoutes } from './features/viewers/viewers.routes.ts';
import { createViewerPasses } from './features/viewers/viewer-passes.ts';
import { dicomWebRoutes } from './features/viewers/dicom-web/dicom-web.routes.ts';
import { ohifRoutes } from './features/viewers/ohif/ohif-static.ts';
import { reportOutputRoutes } from './features/report-output/report-output.routes.ts';
import { reportDownloadRoutes } from './features/report-output/report-download.routes.ts';
import { createReportDownloads } from './features/report-output/report-downloads.ts';
import { facilityRoutes } from './features/facilities/facilities.routes.ts';
import { commRoutes } from './features/comm/comm.routes.ts';
import { supportRoutes } from './features/support/support.routes.ts';
import { dicomRoutes } from './features/dicom/dicom.routes.ts';
import { dicomZipRoutes } from './features/dicom/dicom-zip.routes.ts';
import { archiveRoutes } from './features/pacs/archives/archives.routes.ts';
import { deliveryJobHandlers, messageIdDomainOf } from './features/comm/delivery-jobs.ts';
import { DELIVERY_QUEUES } from './features/comm/share-report.ts';
import { registerMetrics } from './features/metrics/register-metrics.ts';
import {
  LANGUAGE_MODEL_QUEUE,
  languageModelJobHandler,
} from './features/dictation/language-model/language-model.ts';
import { watchVocabulary } from './features/dictation/language-model/watch-vocabulary.ts';
import { dictationJobHandlers, registerDictation } from './features/dictation/register-dictation.ts';
import { speechSettingsRoutes } from './features/dictation/speech-settings.routes.ts';
import { recordingRoutes } from './features/dictation/recordings/recordings.routes.ts';
import { ensureRetentionChain } from './features/dictation/recordings/retention-job.ts';
import { populateRoutes } from './features/pacs/sync/populate.routes.ts';
import { ensureSyncChains, pacsSyncHandler, PACS_SYNC_QUEUE } from './features/pacs/sync/sync-jobs.ts';
import { homeRoutes } from './features/home/home.routes.ts';
import { turnaroundTargetRoutes } from './features/home/turnaround-targets.routes.ts';
import {
  ensureBreachChain,
  turnaroundBreachHandler,
  TURNAROUND_BREACH_QUEUE,
} from './features/home/turnaround-breaches.ts';
import { publishStudies } from './features/studies/commands/publish.ts';
import { registerJobRunner } from './jobs/register-job-runner.ts';
import {
  FINAL_REPORT_WEBHOOK_QUEUE,
  finalReportWebhookHandler,
} from './integrations/webhooks/final-report-webhook.ts';
import type { BlobStore } from './files/blob-store.ts';
import type { Mailer } from './integrations/mail/mailer.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { assertNoNulText } from './http/nul-text.ts';
import { frameworkErrorOptions } from './http/framework-errors.ts';
import { loggerOptions, requestId } from './http/logger.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerRealtime } from './realtime/realtime-server.ts';
import { registerCollaboration } from './collaboration/collaboration-server.ts';
import { flushReportDocument } from './collaboration/flush-report-document.ts';
import { insertReportContent } from './collaboration/insert-report-content.ts';
import { reportEditorSockets } from './realtime/report-editors.ts';
import { runWithReportPdf } from './features/report-output/report-pdf-store.ts';
import { registerSpa } from './http/spa.ts';
import { viewerAgentRoutes } from './viewer-agent/viewer-agent.routes.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';

export type TAppDeps = {
  config: TConfig;
  database: TDatabase;
  blobs: BlobStore;
  /** Replaces the mailer chosen from the configuration (SMTP_URL or the outbox). */
  mailer?: Mailer | undefined;
  /** The current time for date presets (worklist TODAY, …); tests fix it. Default: the system clock. */
  clock?: (() => Date) | undefined;
};

type TBuildOptions = TAppDeps & {
  /** Tests add probe routes here; called inside the /api/v1 scope before the app is ready. */
  beforeReady?: ((api: FastifyInstance) => void | Promise<void>) | undefined;
  /** Tests add probe routes here; called inside the authenticated /api/v1 scope (bearer token required). */
  beforeReadySecured?: ((secured: FastifyInstance) => void | Promise<void>) | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    deps: TAppDeps;
    /** Domain events, emitted after commit (realtime and other listeners subscribe). */
    events: DomainEvents;
    /** Sign-in, sessions and the token verifier (apps/server/src/auth). */
    identity: Identity;
    /** Opens and seals the secrets the server keeps for others (archive credentials). */
    secretBox: SecretBox;
  }
}

/** Builds the HTTP application (not listening). Tests and main.ts both start from here. */
export async function buildApp(options: TBuildOptions): Promise<FastifyInstance> {
  const { beforeReady, beforeReadySecured, ...deps } = options;
  const { config } = deps;
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: requestId,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Errors before routing and from Node's HTTP parser answer the one error shape too.
    ...frameworkErrorOptions,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Text with NUL is refused before any route reads it, naming the field (nul-text.ts). Queries only
  // read, and each search says what NUL means to it (the report finder reads it as a space).
  app.addHook('preValidation', async (request) => assertNoNulText(request.body));
  app.decorate('deps', deps);
  const events = new DomainEvents();
  events.onListenerError((error) => app.log.error({ err: error }, 'domain event listener failed'));
  app.decorate('events', events);
  const identity = await createIdentity({
    config,
    database: deps.database,
    log: app.log,
    events,
    ...(deps.mailer ? { mailer: deps.mailer } : {}),
  });
  app.decorate('identity', identity);
  // Signed pdf_url paths; the key derives from the token secret createIdentity has just resolved.
  app.decorate('reportDownloads', await createReportDownloads(config));
  // The built-in viewer's tickets, cookies and Weasis passes; key from the same token secret.
  app.decorate('viewerPasses', await createViewerPasses(config));
  // Sealed archive credentials (integrations/sealed-secrets.ts), keyed from the same token secret.
  app.decorate(
    'secretBox',
    secretBoxOf((await resolveTokenSecret(config.auth.tokenSecret, config.dataDir)).secret),
  );
  app.decorateRequest('principal', null);
  app.addHook('onClose', async () => identity.close());
  // Durable jobs: report shares, support mail, the final-report webhook. Added after the identity's
  // hook, so on close the worker stops (and its running jobs finish) before the mailer closes.
  registerJobRunner(app, {
    ...deliveryJobHandlers({
      db: deps.database.db,
      blobs: deps.blobs,
      mailer: identity.mailer,
      whatsapp: config.whatsapp,
      messageIdDomain: messageIdDomainOf(config.mail.from),
    }),
    [FINAL_REPORT_WEBHOOK_QUEUE]: finalReportWebhookHandler(deps.database.db, config),
    // Studies from the image archives (features/pacs/sync): one chain of passes per archive.
    [PACS_SYNC_QUEUE]: pacsSyncHandler({
      db: deps.database.db,
      box: app.secretBox,
      publish: async (organisationId, ids) => void (await publishStudies(app, organisationId, ids)),
    }),
    // Turnaround breach notifications (features/home): one chain of passes, a minute apart.
    [TURNAROUND_BREACH_QUEUE]: turnaroundBreachHandler({
      db: deps.database.db,
      events,
      now: () => deps.clock?.() ?? new Date(),
      intervalSeconds: config.jobs.turnaroundBreachIntervalSeconds,
    }),
    // Recorded dictations (features/dictation): transcription and the retention chain.
    ...dictationJobHandlers(app),
    // The offline speech engine's organisation language models (features/dictation/language-model).
    [LANGUAGE_MODEL_QUEUE]: languageModelJobHandler(deps.database.db),
  });
  // Templates or macros changed: their organisation's language model is rebuilt (debounced).
  watchVocabulary(app);
  // Archives whose chain of sync jobs is missing (first start, restored database) get one.
  if (config.jobs.enabled)
    app.addHook('onReady', async () => {
      await ensureSyncChains(deps.database.db);
      if (config.jobs.turnaroundBreachIntervalSeconds > 0) await ensureBreachChain(deps.database.db);
      await ensureRetentionChain(deps.database.db);
    });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // CSP, nosniff, no-referrer, X-Frame-Options DENY, … on every response (http/security-headers.ts).
  registerSecurityHeaders(app);
  registerErrorHandling(app);
  // Prometheus metrics at /metrics when METRICS_TOKEN or METRICS_PORT is set (features/metrics);
  // after the error handler (its routes answer in the one error shape), before every other route
  // (its hook counts them all).
  await registerMetrics(app, {
    deliveryChannels: {
      [DELIVERY_QUEUES.email]: 'email',
      [DELIVERY_QUEUES.whatsapp]: 'whatsapp',
      [FINAL_REPORT_WEBHOOK_QUEUE]: 'webhook',
    },
  });
  // socket.io at /ws/ (same HTTP server): authenticated sockets, rooms per facility, app.events → clients.
  await registerRealtime(app);
  // Hocuspocus at /collab (same HTTP server): report documents edited together, stored in PostgreSQL.
  await registerCollaboration(app);
  // Features ask for open documents to be stored through this port; they never import collaboration/.
  app.decorate('reportDocuments', { flush: (target) => flushReportDocument(app, target) });
  // Dictation (features/dictation): engines, the speech socket at /api/v1/speech. A transcript goes
  // to a report's open editors as insert-report-content; none open → it stays offered.
  registerDictation(app, {
    insertIntoOpenReport: async ({ reportId, studyId, html }) => {
      const editors = await reportEditorSockets(app.realtime, deps.database.db, reportId, studyId);
      if (editors.length === 0) return false;
      await insertReportContent(deps.database.db, events, { reportId, content: html });
      return true;
    },
  });
  // Reports store their PDF through report output, which sits above them (events/report-pdfs.ts).
  app.decorate('reportPdfs', {
    runWith: (command, pdfOf) => runWithReportPdf(deps.database.db, deps.blobs, command, pdfOf),
  });

  await registerOpenApi(app, config.publicUrl);
  await app.register(healthRoutes(deps.database.db, deps.blobs));
  await app.register(
    async (api) => {
      // Public: sign-in, sign-up, refresh, links, password policy (rate-limited per IP).
      await api.register(authRoutes(identity, { redisUrl: config.redisUrl }), { prefix: '/auth' });
      // Public: a report PDF's signed, short-lived pdf_url (the signature is the authorisation).
      await api.register(reportDownloadRoutes);
      // Public: a study zip's signed, short-lived URL (features/dicom/dicom-zip.routes.ts).
      await api.register(dicomZipRoutes);
      // Everything else needs a signed-in user: the hook sets request.principal or answers 401.
      await api.register(async (secured) => {
        secured.addHook('onRequest', authenticate(identity.verifier));
        // ---- Feature routes that need a signed-in user register here, each from its own folder. ----
        await secured.register(userRoutes);
        await secured.register(organisationRoutes);
        await secured.register(worklistRoutes);
        await secured.register(orderRoutes);
        await secured.register(reportRoutes);
        await secured.register(patientDocumentRoutes);
        await secured.register(tagRoutes);
        await secured.register(radiologistRoutes);
        await secured.register(radiologistDetailsRoutes);
        await secured.register(templateRoutes);
        await secured.register(macroRoutes);
        await secured.register(preferenceRoutes);
        await secured.register(patientRoutes);
        await secured.register(referringPhysicianRoutes);
        await secured.register(worklistListRoutes);
        await secured.register(reportFinderRoutes);
        await secured.register(notificationRoutes);
        await secured.register(viewerRoutes);
        await secured.register(reportOutputRoutes);
        await secured.register(facilityRoutes);
        await secured.register(commRoutes);
        await secured.register(supportRoutes);
        await secured.register(dicomRoutes);
        await secured.register(archiveRoutes);
        await secured.register(populateRoutes);
        await secured.register(homeRoutes);
        await secured.register(turnaroundTargetRoutes);
        await secured.register(speechSettingsRoutes);
        await secured.register(recordingRoutes);
        if (beforeReadySecured) await beforeReadySecured(secured);
      });
      if (beforeReady) await beforeReady(api);
    },
    { prefix: '/api/v1' },
  );
  // The built-in OHIF at /viewer/ and the per-study DICOMweb proxy it reads through (features/viewers).
  await app.register(ohifRoutes, { prefix: '/viewer' });
  // The workstation viewer agent's single file (viewer-agent/ris-viewer-agent.ts).
  await app.register(viewerAgentRoutes);
  await app.register(dicomWebRoutes);
  await registerSpa(app, config.webDistDir);
  return app;
}
