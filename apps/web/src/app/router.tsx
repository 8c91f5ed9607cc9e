import { type ComponentType, type ReactNode, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useOutletContext } from 'react-router';
import { PageLoading } from '../components/PageLoading.js';
import { ErrorPage } from '../features/errors/ErrorPage.js';
import { PAGES, type PageKey } from '../lib/pages.js';
import { RequireSession } from './guards.js';
import { PageErrorBoundary } from './PageErrorBoundary.js';
import { PUBLIC_PAGES, page } from './public-pages.js';

/*
 * Declarative routes rather than a data router: a cold /login downloads about 17 KB (gzipped)
 * less of react-router, which a teacher's slow connection feels. Each page is its own chunk
 * (React.lazy); the signed-in frame is one more.
 */

const SignedInFrame = page(
  () => import('./AppLayout.js'),
  (m) => m.AppLayout,
);

/**
 * A signed-in page: the router names only its path; its component comes from the page registry,
 * which travels with the signed-in frame (app/RegisteredPage.tsx, handed down as the outlet's
 * context), so no page added to the registry weighs on a cold /login.
 */
function SignedInPage({ pageKey }: { pageKey: PageKey }) {
  const RegisteredPage = useOutletContext<ComponentType<{ pageKey: PageKey }>>();
  return <RegisteredPage pageKey={pageKey} />;
}

function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{children}</Suspense>;
}

export function AppRoutes() {
  return (
    <BrowserRouter>
      <PageErrorBoundary>
        <Loading>
          <Routes>
            <Route path="/" element={<Navigate to="/login" replace />} />
            {Object.entries(PUBLIC_PAGES).map(([path, Page]) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="/error-403-basic" element={<ErrorPage status={403} />} />
            <Route path="/error-404-basic" element={<ErrorPage status={404} />} />
            <Route path="/error-404-cover" element={<ErrorPage status={404} cover />} />
            <Route path="/error-500-basic" element={<ErrorPage status={500} />} />
            <Route path="/error-500-cover" element={<ErrorPage status={500} cover />} />
            <Route
              element={
                <RequireSession>
                  <SignedInFrame />
                </RequireSession>
              }
            >
              {(Object.keys(PAGES) as PageKey[]).map((key) => (
                <Route key={PAGES[key].path} path={PAGES[key].path} element={<SignedInPage pageKey={key} />} />
              ))}
            </Route>
            <Route path="*" element={<ErrorPage status={404} />} />
          </Routes>
        </Loading>
      </PageErrorBoundary>
    </BrowserRouter>
  );
}
