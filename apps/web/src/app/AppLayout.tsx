import { AppShell, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Sidebar } from './Sidebar.js';
import { TopBar } from './TopBar.js';

/** The spec's sidebar collapses at 998 px or less. */
export const SIDEBAR_BREAKPOINT = 998;

/** The signed-in frame: top bar, sidebar (a drawer on narrow screens), page, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const narrow = useMediaQuery(`(max-width: ${SIDEBAR_BREAKPOINT}px)`);
  const [mobileOpened, mobile] = useDisclosure(false);
  const [desktopOpened, desktop] = useDisclosure(true);
  const opened = narrow ? mobileOpened : desktopOpened;
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: SIDEBAR_BREAKPOINT, collapsed: { mobile: !mobileOpened, desktop: !desktopOpened } }}
      footer={{ height: 40 }}
      padding="md"
    >
      <AppShell.Header>
        <TopBar navOpened={opened} onToggleNav={narrow ? mobile.toggle : desktop.toggle} />
      </AppShell.Header>
      <AppShell.Navbar p="xs" data-testid="sidebar" data-collapsed={!opened}>
        <Sidebar onNavigate={narrow ? mobile.close : undefined} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <AppShell.Footer p="xs">
        <Text size="sm" c="dimmed" ta="center">
          {t('app.footer', { year: new Date().getFullYear() })}
        </Text>
      </AppShell.Footer>
    </AppShell>
  );
}
