import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './api/query-client.ts';
import { Toaster } from './components/ui/toaster.tsx';

/**
 * Context every screen relies on: server-state cache and the toast region. Tooltips are provided by
 * the signed-in layout (features/app-shell), so the sign-in page loads no tooltip library.
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
