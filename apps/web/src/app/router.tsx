import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage.js';
import { LogoutPage } from '../features/auth/LogoutPage.js';
import { ErrorPage } from '../features/errors/ErrorPage.js';
import { RequireAbility, RequireSession } from './guards.js';
import { PlaceholderPage } from './PlaceholderPage.js';
import { PROTECTED_ROUTES } from './routes.js';

/** Pages that exist now; every other protected route shows its title until its issue lands. */
const PAGES: Record<string, () => Promise<{ default: React.ComponentType }>> = {
  '/dashboard': () => import('../features/dashboard/HomePage.js').then((module) => ({ default: module.HomePage })),
};

export const router = createBrowserRouter([
  {
    // A page that throws shows the 500 page, not the router's developer screen.
    errorElement: <ErrorPage status={500} />,
    children: [
      { path: '/', element: <Navigate to="/login" replace /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/logout', element: <LogoutPage /> },
      { path: '/error-403-basic', element: <ErrorPage status={403} /> },
      { path: '/error-404-basic', element: <ErrorPage status={404} /> },
      { path: '/error-500-basic', element: <ErrorPage status={500} /> },
      {
        // The signed-in frame is its own chunk: the login page does not download it.
        lazy: async () => {
          const { AppLayout } = await import('./AppLayout.js');
          return {
            element: (
              <RequireSession>
                <AppLayout />
              </RequireSession>
            ),
          };
        },
        children: PROTECTED_ROUTES.map((route) => ({
          path: route.path,
          lazy: PAGES[route.path]
            ? async () => {
                const { default: Page } = await (PAGES[route.path] as () => Promise<{ default: React.ComponentType }>)();
                return {
                  element: (
                    <RequireAbility ability={route.ability}>
                      <Page />
                    </RequireAbility>
                  ),
                };
              }
            : undefined,
          element: PAGES[route.path] ? undefined : (
            <RequireAbility ability={route.ability}>
              <PlaceholderPage title={route.title} />
            </RequireAbility>
          ),
        })),
      },
      { path: '*', element: <ErrorPage status={404} /> },
    ],
  },
]);
