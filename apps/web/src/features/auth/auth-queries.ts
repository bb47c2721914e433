import { useQuery } from '@tanstack/react-query';
import type { TAuthConfig, TPasswordPolicy } from '@ris/domain';
import { FALLBACK_PASSWORD_POLICY } from './form-checks.ts';
import { authApi } from './session.ts';

/** While the deployment's auth config is unknown (or unreachable) optional features stay hidden. */
export const UNKNOWN_AUTH_CONFIG: TAuthConfig = {
  signup_enabled: false,
  email_link_enabled: false,
  providers: ['password'],
};

/** GET /auth/config: whether sign-up and e-mail links are offered. Fetched once per page load. */
export function useAuthConfig(): { config: TAuthConfig; isLoading: boolean } {
  const query = useQuery({
    queryKey: ['auth', 'config'],
    queryFn: () => authApi.config(),
    staleTime: Infinity,
    retry: 1,
  });
  return { config: query.data ?? UNKNOWN_AUTH_CONFIG, isLoading: query.isPending };
}

/** GET /auth/password-policy, with the floor of the specification until (or unless) it arrives. */
export function usePasswordPolicy(): TPasswordPolicy {
  const query = useQuery({
    queryKey: ['auth', 'password-policy'],
    queryFn: () => authApi.passwordPolicy(),
    staleTime: Infinity,
    retry: 1,
  });
  return query.data ?? FALLBACK_PASSWORD_POLICY;
}
