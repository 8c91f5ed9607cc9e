import { NavLink, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import {
  type Icon,
  IconAddressBook,
  IconAdjustments,
  IconArrowsSplit,
  IconAward,
  IconBook,
  IconBuildingBank,
  IconBuildingStore,
  IconBuildingWarehouse,
  IconBulb,
  IconCalendar,
  IconCalendarCheck,
  IconCategory,
  IconChalkboard,
  IconChartBar,
  IconChartLine,
  IconChartPie,
  IconCircle,
  IconClipboardList,
  IconCoins,
  IconFileDescription,
  IconFiles,
  IconFileText,
  IconLayout,
  IconLayoutDashboard,
  IconMessage,
  IconPackage,
  IconPercentage,
  IconReceipt2,
  IconReceiptTax,
  IconReport,
  IconReportAnalytics,
  IconSchool,
  IconSend,
  IconTags,
  IconUserStar,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterLink, useLocation } from 'react-router';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { entryPaths, visibleNavigation } from '../lib/navigation.js';
import { PAGES } from '../lib/pages.js';

/**
 * Each entry's icon, by its path. Kept here rather than in routes.ts, which the sign-in pages
 * load: they need no icons.
 */
const NAV_ICONS: Record<string, Icon> = {
  [PAGES.dashboard.path]: IconLayoutDashboard,
  [PAGES.students.path]: IconUsers,
  [PAGES.marks.path]: IconClipboardList,
  [PAGES.reportComments.path]: IconMessage,
  [PAGES.competencies.path]: IconBulb,
  [PAGES.terminalReport.path]: IconReport,
  [PAGES.cumulativeReport.path]: IconReportAnalytics,
  [PAGES.progressReport.path]: IconChartLine,
  [PAGES.statistics.path]: IconChartBar,
  [PAGES.resultAnalysis.path]: IconChartPie,
  [PAGES.gradeFooters.path]: IconFileText,
  [PAGES.reportFooters.path]: IconFileDescription,
  [PAGES.attendance.path]: IconCalendarCheck,
  [PAGES.grades.path]: IconAward,
  [PAGES.termDates.path]: IconCalendar,
  [PAGES.gradingRules.path]: IconAdjustments,
  [PAGES.curricula.path]: IconArrowsSplit,
  [PAGES.reportLayout.path]: IconLayout,
  [PAGES.proportions.path]: IconPercentage,
  [PAGES.alevelScores.path]: IconSchool,
  [PAGES.subjects.path]: IconBook,
  [PAGES.classTeachers.path]: IconChalkboard,
  [PAGES.deputies.path]: IconUserStar,
  [PAGES.subjectTeachers.path]: IconUsersGroup,
  [PAGES.stockLocations.path]: IconBuildingWarehouse,
  [PAGES.markTypes.path]: IconTags,
  [PAGES.publishMarks.path]: IconSend,
  [PAGES.subjectPapers.path]: IconFiles,
  [PAGES.businesses.path]: IconBuildingStore,
  [PAGES.products.path]: IconPackage,
  [PAGES.productGroups.path]: IconCategory,
  [PAGES.partners.path]: IconAddressBook,
  [PAGES.currencies.path]: IconCoins,
  [PAGES.taxes.path]: IconReceiptTax,
  [PAGES.whduties.path]: IconReceipt2,
  [PAGES.banks.path]: IconBuildingBank,
};

/**
 * The sidebar of spec §2: entries hidden without their ability; New Curriculum for secondary
 * schools. `compact` is the small icon view: each entry's own icon (initials told "Result
 * Analytics" from "Report Footer" apart by nothing), with the full name as a tooltip.
 */
export function Sidebar({ onNavigate, compact = false }: { onNavigate?: () => void; compact?: boolean }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { can } = useAccess();
  const location = useLocation();
  const groups = visibleNavigation(can, session?.tenant);
  const [toggled, setToggled] = useState<Record<string, boolean>>({});
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
                const EntryIcon = NAV_ICONS[entry.to] ?? IconCircle;
                const icon = <EntryIcon size={compact ? 22 : 18} stroke={1.6} aria-hidden />;
                const paths = entryPaths(entry);
                // A group of screens opens by itself on one of its screens; a click opens or closes it.
                if (entry.children && !compact) {
                  const here = paths.includes(location.pathname);
                  return (
                    <NavLink
                      key={entry.to}
                      label={label}
                      leftSection={icon}
                      data-nav-group={entry.label}
                      opened={toggled[entry.label] ?? here}
                      onChange={(opened) => setToggled((current) => ({ ...current, [entry.label]: opened }))}
                      active={here}
                      variant="subtle"
                      childrenOffset={28}
                    >
                      {entry.children.map((child) => (
                        <NavLink
                          key={child.to}
                          component={RouterLink}
                          to={child.to}
                          label={t(child.label)}
                          data-nav={child.to}
                          active={location.pathname === child.to}
                          onClick={onNavigate}
                        />
                      ))}
                    </NavLink>
                  );
                }
                const link = (
                  <NavLink
                    key={entry.to}
                    component={RouterLink}
                    to={entry.to}
                    leftSection={icon}
                    label={compact ? null : label}
                    aria-label={compact ? label : undefined}
                    data-nav={entry.to}
                    active={paths.includes(location.pathname)}
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
