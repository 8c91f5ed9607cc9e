import '@mantine/core/styles.css';
import { type CSSVariablesResolver, createTheme, type MantineColorsTuple, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { AuthProvider } from '../lib/auth.js';
import { LayoutProvider } from '../lib/layout.js';

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

/**
 * Dimmed text one step darker than Mantine's, and error text in a deeper red (Mantine's red 6
 * is 3.3:1 on white), for contrast on cheap, dim laptop screens (WCAG AA 4.5:1).
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5f666d', '--mantine-color-anchor': mustard[8], '--mantine-color-error': '#c92a2a' },
  dark: {},
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <LayoutProvider>
        <AuthProvider>{children}</AuthProvider>
      </LayoutProvider>
    </MantineProvider>
  );
}
