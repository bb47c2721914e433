import type { FastifyRequest } from 'fastify';
import type { TPrincipal } from '../auth/principal.ts';
import { AppError } from '../http/app-error.ts';

/** The verified caller of a route in the authenticated scope (401 if the hook did not set one). */
export function requirePrincipal(request: FastifyRequest): TPrincipal {
  if (!request.principal) throw new AppError('UNAUTHENTICATED', 'Sign in to continue');
  return request.principal;
}
