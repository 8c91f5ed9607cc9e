import { Anchor, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, matchRoutes, Navigate, useLocation } from 'react-router';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { isSchool } from '../lib/navigation.js';
import { BUSINESS_PAGES, isBusinessPage, PAGES, PROTECTED_ROUTES } from '../lib/pages.js';

/**
 * Without the ability the current route needs (spec §6): the 403 page. One check in the
 * signed-in frame covers every protected route; it lives apart from the session guard so that
 * the sign-in pages do not download the rules engine. A business that types a school's page
 * (a bookmark from a school, say) is told it is a school's, not shown empty class lists, and a
 * school that types a business's page is told it is a business's.
 */
export function RequireRouteAbility({ children }: { children: ReactNode }) {
  const { can } = useAccess();
  const { session } = useAuth();
  const location = useLocation();
  const route = matchRoutes(PROTECTED_ROUTES, location)?.at(-1)?.route;
  const ability = route?.ability;
  if (ability && !can(ability.action, ability.subject)) return <Navigate to="/error-403-basic" replace />;
  const school = isSchool(session?.tenant);
  if (route && !school && !BUSINESS_PAGES.includes(route) && !isBusinessPage(route))
    return <SchoolsOnly business={session?.tenant?.name ?? ''} />;
  // The reverse: a school that types a business's page (products, stock) is told so, not shown lists its API refuses.
  if (route && school && isBusinessPage(route)) return <BusinessesOnly school={session?.tenant?.name ?? ''} />;
  return children;
}

function BusinessesOnly({ school }: { school: string }) {
  const { t } = useTranslation();
  return (
    <Stack data-testid="businesses-only">
      <Title order={1} size="h3">
        {t('app.businessesOnlyTitle')}
      </Title>
      <Text>{t('app.businessesOnlyText', { school })}</Text>
      <Anchor component={Link} to={PAGES.dashboard.path}>
        {t('app.toDashboard')}
      </Anchor>
    </Stack>
  );
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
