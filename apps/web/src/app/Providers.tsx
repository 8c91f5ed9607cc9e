import '@mantine/core/styles.css';
import { type CSSVariablesResolver, createTheme, type MantineColorsTuple, MantineProvider } from '@mantine/core';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
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

/**
 * The theme, with what every form and list of the product shares set once (issue 24 points 7
 * and 8): choosing the option a select already shows keeps it (Mantine's default clears the
 * field; clearing is the clear button's job), a file field's clear button, the pagination's
 * arrows and a toast's close button are named in the user's language. Plain objects rather than `Select.extend`, so the
 * sign-in pages download none of those components.
 */
function productTheme(t: (key: string) => string) {
  return createTheme({
    colors: { mustard },
    primaryColor: 'mustard',
    primaryShade: 8,
    autoContrast: true,
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    components: {
      Select: { defaultProps: { allowDeselect: false } },
      FileInput: { defaultProps: { clearButtonProps: { 'aria-label': t('forms.clearFile') } } },
      Pagination: {
        defaultProps: { getControlProps: (control: string) => ({ 'aria-label': t(`forms.pagination.${control}`) }) },
      },
      // Every toast's close button is named (a screen reader heard only "button").
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': t('list.close') } } },
    },
  });
}

/**
 * Dimmed text one step darker than Mantine's, and error text in a deeper red (Mantine's red 6
 * is 3.3:1 on white), for contrast on cheap, dim laptop screens (WCAG AA 4.5:1).
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5f666d',
    '--mantine-color-anchor': mustard[8],
    '--mantine-color-error': '#c92a2a',
    // Placeholders (a file field's "Choose a file") at 4.9:1 on white; Mantine's gray 5 is 2.07:1.
    '--mantine-color-placeholder': '#687078',
  },
  dark: {},
});

export function Providers({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  // The theme's words follow the language.
  const theme = useMemo(() => productTheme(t), [t, i18n.language]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <LayoutProvider>
        <AuthProvider>{children}</AuthProvider>
      </LayoutProvider>
    </MantineProvider>
  );
}
