import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TConfig } from './config.ts';
import type { TDatabase } from './db/client.ts';
import { healthRoutes } from './features/health/health.routes.ts';
import type { BlobStore } from './files/blob-store.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { loggerOptions, requestId } from './http/logger.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerSpa } from './http/spa.ts';

export type TAppDeps = {
  config: TConfig;
  database: TDatabase;
  blobs: BlobStore;
};

type TBuildOptions = TAppDeps & {
  /** Tests add probe routes here; called inside the /api/v1 scope before the app is ready. */
  beforeReady?: ((api: FastifyInstance) => void | Promise<void>) | undefined;
};

declare module 'fastify' {
  interface FastifyInstance {
    deps: TAppDeps;
  }
}

/** Builds the HTTP application (not listening). Tests and main.ts both start from here. */
export async function buildApp(options: TBuildOptions): Promise<FastifyInstance> {
  const { beforeReady, ...deps } = options;
  const { config } = deps;
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: requestId,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
  });
  registerErrorHandling(app);

  await registerOpenApi(app, config.publicUrl);
  await app.register(healthRoutes(deps.database.db));
  await app.register(
    async (api) => {
      // Feature routes of later issues register here, each from its own folder.
      if (beforeReady) await beforeReady(api);
    },
    { prefix: '/api/v1' },
  );
  await registerSpa(app, config.webDistDir);
  return app;
}
