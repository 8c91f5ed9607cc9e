import { ActionIcon } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLayout } from '../lib/layout.js';

/** The settings button of the top bar that opens the Theme Customizer. */
export function ThemeCustomizerButton() {
  const { t } = useTranslation();
  const { setCustomizerOpen } = useLayout();
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      onClick={() => setCustomizerOpen(true)}
      aria-label={t('customizer.open')}
      data-testid="customizer-open"
    >
      <IconSettings size={20} />
    </ActionIcon>
  );
}

/** The panel's code, a chunk of its own: most sessions never open it. */
const Panel = lazy(async () => ({ default: (await import('./ThemeCustomizerPanel.js')).ThemeCustomizerPanel }));

/**
 * The Theme Customizer side panel (spec §2), downloaded the first time it is opened and kept
 * from then on. Rendered above the layouts so that it stays open when the layout type changes.
 */
export function ThemeCustomizer() {
  const { customizerOpen } = useLayout();
  const [wanted, setWanted] = useState(false);
  if (customizerOpen && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Panel />
    </Suspense>
  ) : null;
}
