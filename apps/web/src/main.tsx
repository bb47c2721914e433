import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import './index.css';
import { AppProviders } from './app-providers.tsx';
import { applyTheme } from './components/layout/theme.ts';
import { authSession } from './features/auth/session.ts';
import { createAppRouter } from './router.tsx';
import { settingsStore } from './stores/settings-store.ts';

// The stored theme is applied before the first render so the page never flashes the other theme.
applyTheme(settingsStore.getState().theme);
settingsStore.subscribe((state, previous) => {
  if (state.theme !== previous.theme) applyTheme(state.theme);
});

// Without a stored session this finishes at once, so a visitor of / reaches /login without waiting.
void authSession.initialize();

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={createAppRouter()} />
    </AppProviders>
  </StrictMode>,
);
