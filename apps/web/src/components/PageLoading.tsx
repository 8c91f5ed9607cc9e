import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code arrives. */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" role="status" aria-label={t('app.loading')}>
      <Loader />
    </Center>
  );
}
