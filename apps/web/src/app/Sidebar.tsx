import { NavLink, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { visibleNavigation } from './navigation.js';

/**
 * The sidebar of spec §2: entries hidden without their ability; New Curriculum for secondary
 * schools. `compact` is the small icon view: initials, with the full name as a tooltip.
 */
export function Sidebar({ onNavigate, compact = false }: { onNavigate?: () => void; compact?: boolean }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { can } = useAccess();
  const location = useLocation();
  const groups = visibleNavigation(can, session?.tenant);
  return (
    <ScrollArea>
      <nav aria-label={t('nav.menu')}>
        <Stack gap={4}>
          {groups.map((group) => (
            <div key={group.label || 'main'}>
              {group.label && !compact && (
                <Text size="xs" tt="uppercase" c="dimmed" fw={700} px="sm" pt="sm" pb={4}>
                  {t(group.label)}
                </Text>
              )}
              {group.entries.map((entry) => {
                const label = t(entry.label);
                const link = (
                  <NavLink
                    key={entry.to}
                    component={RouterLink}
                    to={entry.to}
                    label={compact ? initials(label) : label}
                    aria-label={compact ? label : undefined}
                    active={location.pathname === entry.to}
                    onClick={onNavigate}
                  />
                );
                return compact ? (
                  <Tooltip key={entry.to} label={label} position="right">
                    {link}
                  </Tooltip>
                ) : (
                  link
                );
              })}
            </div>
          ))}
        </Stack>
      </nav>
    </ScrollArea>
  );
}

function initials(label: string): string {
  return label
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 3)
    .toUpperCase();
}
