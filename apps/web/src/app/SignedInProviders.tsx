import '@mantine/notifications/styles.css';
import { ModalsProvider } from '@mantine/modals';
import { useNotifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { ApiError } from '../lib/api.js';
import { useAuth } from '../lib/auth.js';
import { notifyError } from '../lib/notify.js';

/** The toasts' renderer (with its transitions), a chunk of its own. */
const Notifications = lazy(async () => ({ default: (await import('./ToastsRenderer.js')).Notifications }));

/**
 * The toasts, drawn from the first one on: a page that shows none (the dashboard opened cold)
 * downloads none of their code. A toast shown meanwhile waits in the store and appears with it.
 */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Notifications position="top-right" className="mustard-toasts" />
    </Suspense>
  ) : null;
}

/** No answer, or a server that is failing or restarting: worth another try; a refusal is not. */
function isTransient(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status === null || error.status >= 500;
}

/**
 * What only the signed-in frame needs: cached server data, toasts and modals. Kept out of the
 * root so that a cold /login downloads none of it.
 *
 * Teachers work over slow, dropping connections: reads are retried, writes never silently.
 * Every failed call ends as a toast with the catalogue's text (spec §8); a 401 means the
 * session ended elsewhere (password changed, signed out), so the user signs in again.
 */
export function SignedInProviders({ children }: { children: ReactNode }) {
  const { logout } = useAuth();
  const logoutRef = useRef(logout);
  logoutRef.current = logout;
  const [queryClient] = useState(() => {
    const onError = (error: unknown) => {
      notifyError(error);
      if (error instanceof ApiError && error.status === 401) logoutRef.current();
    };
    return new QueryClient({
      queryCache: new QueryCache({
        // A page that draws its own "not found" (a learner's page) needs no toast saying it too.
        onError: (error, query) => {
          if (query.meta?.ownsNotFound && error instanceof ApiError && error.status === 404) return;
          onError(error);
        },
      }),
      mutationCache: new MutationCache({ onError }),
      defaultOptions: {
        queries: { retry: (failures, error) => failures < 2 && isTransient(error), refetchOnWindowFocus: false },
        mutations: { retry: 0 },
      },
    });
  });
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        <Toasts />
        {children}
      </ModalsProvider>
    </QueryClientProvider>
  );
}
