import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const OPENAPI_PATH = '/api/v1/openapi.json';

/**
 * OpenAPI 3 document generated from the zod route schemas, served at /api/v1/openapi.json, with
 * Swagger UI (bundled in the package, no CDN) at /api/docs.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'RIS API',
        description: 'Radiology information system for teleradiology groups.',
        version: '1',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  // No validator badge: it is an image from validator.swagger.io, which the CSP (rightly) refuses.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { url: OPENAPI_PATH, validatorUrl: null },
  });

  app.get(
    OPENAPI_PATH,
    { schema: { hide: true, response: { 200: z.record(z.string(), z.unknown()) } } },
    async () => app.swagger(),
  );
}
