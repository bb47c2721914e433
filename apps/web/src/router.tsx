import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { AppLayout } from './features/app-shell/app-layout.tsx';
import { ForgotPasswordPage } from './features/auth/forgot-password-page.tsx';
import { LoginPage } from './features/auth/login-page.tsx';
import { RouteGuard } from './features/auth/route-guard.tsx';
import { SignupPage } from './features/auth/signup-page.tsx';
import { RouteErrorPage } from './features/errors/route-error-page.tsx';
import { HomePage } from './features/home/home-page.tsx';
import { MacrosPage } from './features/macros/macros-page.tsx';
import { NotFoundPage } from './features/not-found/not-found-page.tsx';
import { OrdersPage } from './features/orders/orders-page.tsx';
import { ProfilePage } from './features/profile/profile-page.tsx';
import { ReportFinderPage } from './features/report-finder/report-finder-page.tsx';
import { TemplatesPage } from './features/templates/templates-page.tsx';
import { WorklistPage } from './features/worklist/worklist-page.tsx';
import { PATHS, allowedRolesFor } from './paths.ts';
import { LoadingOverlay } from './components/ui/loading-overlay.tsx';

// The screens with the rich-text editor (TipTap, Yjs) load on first use, keeping the editor's code
// out of the bundle the worklist needs.
const ReportingPage = lazy(() =>
  import('./features/reports/reporting-page.tsx').then((m) => ({ default: m.ReportingPage })),
);
const TemplatePage = lazy(() =>
  import('./features/templates/template-page.tsx').then((m) => ({ default: m.TemplatePage })),
);
const MacroPage = lazy(() =>
  import('./features/macros/macro-page.tsx').then((m) => ({ default: m.MacroPage })),
);
// Administration and support screens are rarely opened: their code loads with them too.
const OrganisationPage = lazy(() =>
  import('./features/organisations/organisation-page.tsx').then((m) => ({ default: m.OrganisationPage })),
);
const SupportPage = lazy(() =>
  import('./features/support/support-page.tsx').then((m) => ({ default: m.SupportPage })),
);

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<LoadingOverlay />}>{children}</Suspense>;
}

/** A screen of the layout; a path listed in ROUTE_ALLOWED_ROLES gets its own role guard. */
function screen(path: string, element: ReactNode): RouteObject {
  const allowedRoles = allowedRolesFor(path);
  if (!allowedRoles) return { path, element };
  return { element: <RouteGuard allowedRoles={allowedRoles} />, children: [{ path, element }] };
}

/**
 * The routes of spec §2. Authenticated screens sit under the guard and the common layout; a screen
 * that throws is replaced by the error page inside the layout, so the navigation stays usable.
 * Which roles may open which screen is decided in one place: ROUTE_ALLOWED_ROLES (paths.ts).
 */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: PATHS.login, element: <LoginPage /> },
      { path: PATHS.signup, element: <SignupPage /> },
      { path: PATHS.forgotPassword, element: <ForgotPasswordPage /> },
      {
        element: <RouteGuard />,
        children: [
          {
            element: <AppLayout />,
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  { index: true, element: <HomePage /> },
                  screen(PATHS.worklist, <WorklistPage />),
                  screen(PATHS.orders, <OrdersPage />),
                  screen(
                    PATHS.worklistItem,
                    <Lazy>
                      <ReportingPage />
                    </Lazy>,
                  ),
                  screen(PATHS.reportFinder, <ReportFinderPage />),
                  screen(
                    PATHS.organisation,
                    <Lazy>
                      <OrganisationPage />
                    </Lazy>,
                  ),
                  screen(PATHS.profile, <ProfilePage />),
                  screen(
                    PATHS.support,
                    <Lazy>
                      <SupportPage />
                    </Lazy>,
                  ),
                  screen(PATHS.templates, <TemplatesPage />),
                  screen(
                    PATHS.template,
                    <Lazy>
                      <TemplatePage />
                    </Lazy>,
                  ),
                  screen(PATHS.macros, <MacrosPage />),
                  screen(
                    PATHS.macro,
                    <Lazy>
                      <MacroPage />
                    </Lazy>,
                  ),
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
