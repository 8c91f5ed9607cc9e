import { ActionIcon, Drawer, Group, Radio, Stack, Title } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LAYOUT_CHOICES, type LayoutSettings, useLayout } from '../lib/layout.js';

type Choice = keyof typeof LAYOUT_CHOICES;

/** The options in the spec's order; sidebar size and colour only for the vertical layout. */
const OPTIONS: Choice[] = ['layoutType', 'layoutMode', 'layoutWidth', 'layoutPosition', 'topbarTheme', 'sidebarSize', 'sidebarTheme'];
const VERTICAL_ONLY: Choice[] = ['sidebarSize', 'sidebarTheme'];

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

/**
 * The Theme Customizer side panel (spec §2): every choice applies at once and is remembered.
 * Rendered above the layouts so that it stays open when the layout type changes.
 */
export function ThemeCustomizerPanel() {
  const { t } = useTranslation();
  const { settings, update, customizerOpen, setCustomizerOpen } = useLayout();
  const shown = OPTIONS.filter((option) => settings.layoutType === 'vertical' || !VERTICAL_ONLY.includes(option));
  return (
    <Drawer
      opened={customizerOpen}
      onClose={() => setCustomizerOpen(false)}
      position="right"
      title={t('customizer.title')}
      closeButtonProps={{ 'aria-label': t('customizer.close') }}
    >
      <Stack gap="lg">
        {shown.map((option) => (
          <Radio.Group
            key={option}
            label={
              <Title order={3} size="h6">
                {t(`customizer.${option}`)}
              </Title>
            }
            value={settings[option] as string}
            onChange={(value) => update({ [option]: value } as Partial<LayoutSettings>)}
            data-testid={`customizer-${option}`}
          >
            <Group mt="xs">
              {LAYOUT_CHOICES[option].map((choice) => (
                <Radio key={choice} value={choice} label={t(`customizer.choices.${option}.${choice}`)} />
              ))}
            </Group>
          </Radio.Group>
        ))}
      </Stack>
    </Drawer>
  );
}
