import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { useAuth } from '../lib/auth.js';
import { NAVIGATION } from './routes.js';

/** The sidebar of spec §2: entries hidden without their ability; New Curriculum for secondary schools. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { can, session } = useAuth();
  const location = useLocation();
  const secondary = session?.tenant?.schooltype === 'secondary';
  return (
    <ScrollArea>
      <nav aria-label={t('nav.menu')}>
        <Stack gap={4}>
          {NAVIGATION.map((group) => {
            const entries = group.entries.filter(
              (entry) => (!entry.ability || can(entry.ability.action, entry.ability.subject)) && (!entry.secondaryOnly || secondary),
            );
            if (entries.length === 0) return null;
            return (
              <div key={group.label || 'main'}>
                {group.label && (
                  <Text size="xs" tt="uppercase" c="dimmed" fw={700} px="sm" pt="sm" pb={4}>
                    {t(group.label)}
                  </Text>
                )}
                {entries.map((entry) => (
                  <NavLink
                    key={entry.to}
                    component={RouterLink}
                    to={entry.to}
                    label={t(entry.label)}
                    active={location.pathname === entry.to}
                    onClick={onNavigate}
                  />
                ))}
              </div>
            );
          })}
        </Stack>
      </nav>
    </ScrollArea>
  );
}
