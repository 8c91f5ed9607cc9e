import { AppShell, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconChevronDown } from '@tabler/icons-react';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { InvitationsBanner } from '../features/auth/InvitationsBanner.js';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { useLayout } from '../lib/layout.js';
import './layout.css';
import { PageLoading } from '../components/PageLoading.js';
import { visibleNavigation } from '../lib/navigation.js';
import { RegisteredPage } from './RegisteredPage.js';
import { RequireRouteAbility } from './RequireRouteAbility.js';
import { Sidebar } from './Sidebar.js';
import { SignedInProviders } from './SignedInProviders.js';
import { ThemeCustomizerPanel } from './ThemeCustomizer.js';
import { TopBar } from './TopBar.js';

/** The spec's sidebar collapses at 998 px or less. */
export const SIDEBAR_BREAKPOINT = 998;
const SIDEBAR_WIDTH = { lg: 250, md: 200, sm: 84 } as const;

/**
 * The current page, below any invitation a school sent the person; while the page's code
 * downloads, the frame stays and a loader fills the page. The page's component comes from the
 * registry (RegisteredPage), which this frame's chunk carries.
 */
function PageOutlet() {
  return (
    <>
      <InvitationsBanner />
      <Suspense fallback={<PageLoading />}>
        <Outlet context={RegisteredPage} />
      </Suspense>
    </>
  );
}

/** The signed-in frame, vertical or horizontal as the stored layout type says (spec §2 "Layout"). */
export function AppLayout() {
  const { settings } = useLayout();
  const { refreshProfile } = useAuth();
  // Every load of the app takes the profile afresh: the schools and rights stored at sign-in
  // may have changed since (a school created, an invitation accepted, a role withdrawn).
  useEffect(() => {
    void refreshProfile().catch(() => undefined);
  }, [refreshProfile]);
  return (
    <SignedInProviders>
      <RequireRouteAbility>
        <SkipLink />
        <ThemeCustomizerPanel />
        {settings.layoutType === 'horizontal' ? <HorizontalLayout /> : <VerticalLayout />}
      </RequireRouteAbility>
    </SignedInProviders>
  );
}

/** Where the skip link goes: the page itself, past the top bar and the menu. */
const MAIN_ID = 'main-content';

/**
 * The first Tab on every signed-in page (issue 24 point 8): "Skip to the main content", shown
 * when focused, moves the focus to the page past the top bar and the menu (38 Tabs before).
 */
function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className="mustard-skip-link"
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        // The focus moves without touching the address (the router owns it).
        event.preventDefault();
        document.getElementById(MAIN_ID)?.focus();
      }}
    >
      {t('app.skipToContent')}
    </a>
  );
}

function Footer() {
  const { t } = useTranslation();
  return (
    <AppShell.Footer p="xs" className="mustard-footer">
      <Text size="sm" c="dimmed" ta="center">
        {t('app.footer', { year: new Date().getFullYear() })}
      </Text>
    </AppShell.Footer>
  );
}

function VerticalLayout() {
  const { settings } = useLayout();
  const narrow = useMediaQuery(`(max-width: ${SIDEBAR_BREAKPOINT}px)`);
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const opened = narrow ? mobileOpened : desktopOpened;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{
        width: SIDEBAR_WIDTH[settings.sidebarSize],
        breakpoint: SIDEBAR_BREAKPOINT,
        collapsed: { mobile: !mobileOpened, desktop: !desktopOpened },
      }}
      footer={{ height: 40 }}
      padding="md"
    >
      <AppShell.Header className="mustard-header">
        <TopBar navOpened={opened} onToggleNav={narrow ? mobile.toggle : desktop.toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="xs" className="mustard-sidebar" data-testid="sidebar" data-size={settings.sidebarSize}>
        <Sidebar compact={settings.sidebarSize === 'sm' && !narrow} onNavigate={narrow ? mobile.close : undefined} />
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className="mustard-main">
        <div className="mustard-page">
          <PageOutlet />
        </div>
      </AppShell.Main>
      <Footer />
    </AppShell>
  );
}

/** Header with the top bar and the navigation as menus in a row; on mount scrolls to the top. */
function HorizontalLayout() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { can } = useAccess();
  useEffect(() => {
    // Braces matter: newer browsers return a Promise from scrollTo, and an effect must not.
    window.scrollTo(0, 0);
  }, []);
  const groups = visibleNavigation(can, session?.tenant);
  return (
    <AppShell header={{ height: 104 }} footer={{ height: 40 }} padding="md">
      <AppShell.Header className="mustard-header">
        <div style={{ height: 60 }}>
          <TopBar />
        </div>
        <nav aria-label={t('nav.menu')} data-testid="horizontal-nav">
          <Group gap="lg" px="md" h={44}>
            {groups.map((group) =>
              group.label ? (
                <Menu key={group.label} trigger="click-hover" withinPortal>
                  <Menu.Target>
                    <UnstyledButton>
                      <Group gap={4}>
                        <Text size="sm" fw={600}>
                          {t(group.label)}
                        </Text>
                        <IconChevronDown size={14} />
                      </Group>
                    </UnstyledButton>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {group.entries.flatMap((entry) =>
                      entry.children
                        ? [
                            <Menu.Label key={`${entry.label}-label`}>{t(entry.label)}</Menu.Label>,
                            ...entry.children.map((child) => (
                              <Menu.Item key={child.to} component={Link} to={child.to}>
                                {t(child.label)}
                              </Menu.Item>
                            )),
                          ]
                        : [
                            <Menu.Item key={entry.to} component={Link} to={entry.to}>
                              {t(entry.label)}
                            </Menu.Item>,
                          ],
                    )}
                  </Menu.Dropdown>
                </Menu>
              ) : (
                group.entries.map((entry) => (
                  <Text key={entry.to} component={Link} to={entry.to} size="sm" fw={600} td="none" c="var(--mantine-color-text)">
                    {t(entry.label)}
                  </Text>
                ))
              ),
            )}
          </Group>
        </nav>
      </AppShell.Header>
      <AppShell.Main id={MAIN_ID} tabIndex={-1} className="mustard-main">
        <div className="mustard-page">
          <PageOutlet />
        </div>
      </AppShell.Main>
      <Footer />
    </AppShell>
  );
}
