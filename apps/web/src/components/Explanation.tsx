import { ActionIcon, Popover, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { type ReactNode, useEffect, useId, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { explanations } from './one-open.js';

/**
 * An (i) beside a field or heading that opens its explanation in a pop-up. At most one is open
 * on a page (issue 24 point 7): opening one closes the other, and Escape or a click elsewhere
 * closes it. `subject` names what it explains, for the button's accessible name.
 */
export function Explanation({ subject, children, width = 320 }: { subject: string; children: ReactNode; width?: number }) {
  const { t } = useTranslation();
  const key = useId();
  const opened = useSyncExternalStore(explanations.subscribe, () => explanations.current() === key);
  // One that leaves the page (its dialog closed) does not stay "open" for the others.
  useEffect(() => () => explanations.set(key, false), [key]);
  return (
    <Popover opened={opened} onChange={(open) => explanations.set(key, open)} width={width} position="bottom-start" withArrow shadow="md">
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          size="sm"
          aria-label={t('forms.explanation', { subject })}
          aria-expanded={opened}
          data-explanation={subject}
          onClick={() => explanations.set(key, !opened)}
        >
          <IconInfoCircle size={16} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown data-testid="explanation">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
      </Popover.Dropdown>
    </Popover>
  );
}
