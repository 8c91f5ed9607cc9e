import { ActionIcon, Avatar, Badge, Burger, Group, Menu, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { LANGUAGES, type Language } from '@mustard/shared';
import { IconBell, IconBuildingStore, IconKey, IconLanguage, IconLogout, IconMail, IconSchool, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccess } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { setLanguage } from '../lib/i18n.js';
import { PAGES } from '../lib/pages.js';
import { isProfile } from '../lib/session.js';
import { ThemeCustomizerButton } from './ThemeCustomizer.js';

/** The top bar of spec §2: language, notifications, school switcher, user menu. */
export function TopBar({ navOpened, onToggleNav }: { navOpened?: boolean; onToggleNav?: () => void }) {
  const { t, i18n } = useTranslation();
  const { session, switchTenant } = useAuth();
  const { isAdmin, can } = useAccess();
  const user = session?.user;
  const tenants = user?.tenants ?? [];
  const current = session?.tenant;

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        {onToggleNav && <Burger opened={navOpened} onClick={onToggleNav} size="sm" aria-label={t('nav.toggleSidebar')} />}
        <Text fw={700} c="mustard.8" component={Link} to="/dashboard" td="none">
          {t('app.name')}
        </Text>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <ThemeCustomizerButton />
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" size="lg" aria-label={t('topbar.language')} data-testid="language-menu">
              <IconLanguage size={20} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {LANGUAGES.map((language: Language) => (
              <Menu.Item
                key={language}
                onClick={() => void setLanguage(language)}
                fw={i18n.language === language ? 700 : undefined}
                data-language={language}
              >
                {t(`languages.${language}`)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        <Menu position="bottom-end" withinPortal width={300}>
          <Menu.Target>
            <ActionIcon variant="subtle" size="lg" aria-label={t('topbar.notifications')}>
              <IconBell size={20} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>{t('topbar.notifications')}</Menu.Label>
            <ScrollArea h={230}>
              <Text size="sm" p="sm">
                {t('topbar.notificationsEmpty')}
              </Text>
            </ScrollArea>
          </Menu.Dropdown>
        </Menu>
        {tenants.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              {/* Named by the school it shows, so that what is read out is what is seen (WCAG 2.5.3). */}
              <UnstyledButton
                aria-label={current ? t('topbar.switchSchoolFrom', { school: current.name }) : t('topbar.switchSchool')}
                data-testid="school-switcher"
              >
                <Group gap={6} wrap="nowrap">
                  <IconSchool size={18} />
                  <Text size="sm" visibleFrom="sm">
                    {current?.name}
                  </Text>
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('topbar.switchSchool')}</Menu.Label>
              {tenants.map((tenant) => (
                <Menu.Item
                  key={tenant.id}
                  onClick={() => void switchTenant(tenant)}
                  disabled={tenant.id === current?.id}
                  data-tenant={tenant.tenantcode}
                >
                  {tenant.name}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <UnstyledButton aria-label={t('topbar.account')} data-testid="user-menu">
              <Avatar size="sm" radius="xl" color="mustard">
                {user?.name.slice(0, 1)}
              </Avatar>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>
              <Text size="sm" fw={600}>
                {user?.name}
              </Text>
              <Text size="xs">{user?.email}</Text>
              {isAdmin && (
                <Badge size="xs" mt={4}>
                  {t('topbar.administrator')}
                </Badge>
              )}
            </Menu.Label>
            {user && isProfile(user) && can('manage', 'user') && (
              // Until the admin console exists, its link opens the school's members (issue 13 point 5).
              <Menu.Item component={Link} to={PAGES.users.path} leftSection={<IconSettings size={16} />}>
                {t('topbar.adminConsole')}
              </Menu.Item>
            )}
            {can('read', 'tenant') && (
              // The platform's businesses: the administrator's, not a school's setting (issue 24 point 7).
              <Menu.Item component={Link} to={PAGES.businesses.path} leftSection={<IconBuildingStore size={16} />}>
                {t('nav.businesses')}
              </Menu.Item>
            )}
            {user && isProfile(user) && user.platform_admin && (
              // Which e-mail domains sign in at their own provider: the platform's, not a school's (issue 29 point 6).
              <Menu.Item component={Link} to={PAGES.signinDomains.path} leftSection={<IconKey size={16} />}>
                {t('pages.signinDomains')}
              </Menu.Item>
            )}
            {user && isProfile(user) && user.platform_admin && (
              // The mail Mustard writes, sent or waiting (without SMTP_URL): the platform's (issue 29 point 1).
              <Menu.Item component={Link} to={PAGES.mailOutbox.path} leftSection={<IconMail size={16} />}>
                {t('pages.mailOutbox')}
              </Menu.Item>
            )}
            <Menu.Item component={Link} to="/logout" leftSection={<IconLogout size={16} />}>
              {t('topbar.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
