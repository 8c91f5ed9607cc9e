import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchRoutes, Navigate, useLocation } from 'react-router';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { isSchool } from '../lib/navigation.js';
import { BUSINESS_PAGES, PAGES, PROTECTED_ROUTES } from '../lib/pages.js';

/**
 * Without the ability the current route needs (spec §6): the 403 page. One check in the
 * signed-in frame covers every protected route; it lives apart from the session guard so that
 * the sign-in pages do not download the rules engine. A business that types a school's page
 * (a bookmark from a school, say) is told it is a school's, not shown empty class lists.
 */
export function RequireRouteAbility({ children }: { children: ReactNode }) {
  const { can } = useAccess();
  const { session } = useAuth();
  const location = useLocation();
  const route = matchRoutes(PROTECTED_ROUTES, location)?.at(-1)?.route;
  const ability = route?.ability;
  if (ability && !can(ability.action, ability.subject)) return <Navigate to="/error-403-basic" replace />;
  if (route && !isSchool(session?.tenant) && !BUSINESS_PAGES.includes(route)) return <SchoolsOnly business={session?.tenant?.name ?? ''} />;
  return children;
}

function SchoolsOnly({ business }: { business: string }) {
  const { t } = useTranslation();
  return (
    <Stack data-testid="schools-only">
      <Title order={1} size="h3">
        {t('app.schoolsOnlyTitle')}
      </Title>
      <Text>{t('app.schoolsOnlyText', { business })}</Text>
      <Anchor component={Link} to={PAGES.dashboard.path}>
        {t('app.toDashboard')}
      </Anchor>
    </Stack>
  );
}
