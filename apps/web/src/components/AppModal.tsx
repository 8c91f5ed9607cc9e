import { Modal } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The product's modal (spec §2 "Reusable modal"): a title, a close button and a static backdrop
 * (a click beside it does not throw away a half-filled form); at most 700 px wide or 95 percent.
 */
export function AppModal({ opened, title, onClose, children }: { opened: boolean; title: string; onClose(): void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      closeOnClickOutside={false}
      size={700}
      styles={{ content: { maxWidth: '95vw' } }}
      closeButtonProps={{ 'aria-label': t('list.close') }}
    >
      {children}
    </Modal>
  );
}
