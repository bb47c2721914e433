import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoginPage } from './features/auth/login-page.tsx';
import { RouteGuard } from './features/auth/route-guard.tsx';
import { RouteErrorPage } from './features/errors/route-error-page.tsx';
import { PATHS, allowedRolesFor } from './paths.ts';
import { LoadingOverlay } from './components/ui/loading-overlay.tsx';

// Only the pages before sign-in are in the entry: the layout (header, bell, realtime) and every
// screen behind the guard load on first use, so /login downloads none of their code or libraries
// (BENCHMARKS.md, web bundle). The screens with the rich-text editor (TipTap, Yjs) are separate
// again, keeping the editor's code out of what the worklist needs.
// Only the sign-in screen is part of the first download; sign-up and password reset load when opened.
const SignupPage = lazy(() =>
  import('./features/auth/signup-page.tsx').then((m) => ({ default: m.SignupPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('./features/auth/forgot-password-page.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
);
const NotFoundPage = lazy(() =>
  import('./features/not-found/not-found-page.tsx').then((m) => ({ default: m.NotFoundPage })),
);
const AppLayout = lazy(() =>
  import('./features/app-shell/app-layout.tsx').then((m) => ({ default: m.AppLayout })),
);
const HomePage = lazy(() => import('./features/home/home-page.tsx').then((m) => ({ default: m.HomePage })));
const WorklistPage = lazy(() =>
  import('./features/worklist/worklist-page.tsx').then((m) => ({ default: m.WorklistPage })),
);
const OrdersPage = lazy(() =>
  import('./features/orders/orders-page.tsx').then((m) => ({ default: m.OrdersPage })),
);
const ReportFinderPage = lazy(() =>
  import('./features/report-finder/report-finder-page.tsx').then((m) => ({ default: m.ReportFinderPage })),
);
const ProfilePage = lazy(() =>
  import('./features/profile/profile-page.tsx').then((m) => ({ default: m.ProfilePage })),
);
const TemplatesPage = lazy(() =>
  import('./features/templates/templates-page.tsx').then((m) => ({ default: m.TemplatesPage })),
);
const MacrosPage = lazy(() =>
  import('./features/macros/macros-page.tsx').then((m) => ({ default: m.MacrosPage })),
);
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
      {
        path: PATHS.signup,
        element: (
          <Lazy>
            <SignupPage />
          </Lazy>
        ),
      },
      {
        path: PATHS.forgotPassword,
        element: (
          <Lazy>
            <ForgotPasswordPage />
          </Lazy>
        ),
      },
      {
        element: <RouteGuard />,
        children: [
          {
            element: (
              <Lazy>
                <AppLayout />
              </Lazy>
            ),
            children: [
              {
                errorElement: <RouteErrorPage />,
                children: [
                  {
                    index: true,
                    element: (
                      <Lazy>
                        <HomePage />
                      </Lazy>
                    ),
                  },
                  screen(
                    PATHS.worklist,
                    <Lazy>
                      <WorklistPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.orders,
                    <Lazy>
                      <OrdersPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.worklistItem,
                    <Lazy>
                      <ReportingPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.reportFinder,
                    <Lazy>
                      <ReportFinderPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.organisation,
                    <Lazy>
                      <OrganisationPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.profile,
                    <Lazy>
                      <ProfilePage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.support,
                    <Lazy>
                      <SupportPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.templates,
                    <Lazy>
                      <TemplatesPage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.template,
                    <Lazy>
                      <TemplatePage />
                    </Lazy>,
                  ),
                  screen(
                    PATHS.macros,
                    <Lazy>
                      <MacrosPage />
                    </Lazy>,
                  ),
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
      {
        path: '*',
        element: (
          <Lazy>
            <NotFoundPage />
          </Lazy>
        ),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
