// GET /downloads/ris-viewer-agent.js: the workstation agent, as the one file the build makes of
// ris-viewer-agent.ts (Node's own modules only), so a radiologist gets it from their RIS.
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../http/app-error.ts';

const BUILT_AGENT = new URL('./ris-viewer-agent.js', import.meta.url);

export const viewerAgentRoutes: FastifyPluginAsync = async (app) => {
  app.get('/downloads/ris-viewer-agent.js', { schema: { hide: true } }, async (_request, reply) => {
    let source: Buffer;
    try {
      source = await readFile(BUILT_AGENT);
    } catch {
      // Running from the TypeScript sources (npm run dev): there is no built file to hand out.
      throw new AppError('NOT_FOUND', 'The viewer agent is served by a built server (npm run build).');
    }
    return reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-disposition', 'attachment; filename="ris-viewer-agent.js"')
      .header('cache-control', 'no-cache')
      .send(source);
  });
};
