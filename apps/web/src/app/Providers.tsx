import '@mantine/core/styles.css';
import '@mantine/charts/styles.css';
import '@mantine/notifications/styles.css';
import { type CSSVariablesResolver, createTheme, type MantineColorsTuple, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth.js';
import { LayoutProvider } from '../lib/layout.js';
import '../lib/i18n.js';

/**
 * Mustard's own yellow, darkened towards 9 so that text and filled buttons in the primary
 * colour keep WCAG AA contrast on white (Mantine's yellow does not).
 */
const mustard: MantineColorsTuple = [
  '#fff8e1',
  '#ffecb3',
  '#ffe082',
  '#ffd54f',
  '#ffca28',
  '#f0ad00',
  '#c98f00',
  '#a37300',
  '#855e00',
  '#6b4b00',
];

const theme = createTheme({
  colors: { mustard },
  primaryColor: 'mustard',
  primaryShade: 8,
  autoContrast: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

/** Dimmed text one step darker than Mantine's, for contrast on cheap, dim laptop screens. */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5f666d', '--mantine-color-anchor': mustard[8] },
  dark: {},
});

// Teachers work over slow, dropping connections: retry reads, never retry writes silently.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 2, refetchOnWindowFocus: false }, mutations: { retry: 0 } } });

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <LayoutProvider>
          <AuthProvider>
            <ModalsProvider>
              <Notifications position="top-right" />
              {children}
            </ModalsProvider>
          </AuthProvider>
        </LayoutProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
