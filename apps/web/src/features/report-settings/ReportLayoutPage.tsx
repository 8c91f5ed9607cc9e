import { ActionIcon, Card, Checkbox, Fieldset, Group, Radio, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import {
  MARK_VALUES,
  MAX_HEADER_LINES,
  MAX_REPORT_LABEL,
  REPORT_SECTIONS,
  type ReportLayout,
  ReportLayoutSchema,
  type ReportSection,
  reportLayoutEndpoint,
  SUBJECT_COLUMNS,
  saveReportLayoutEndpoint,
} from '@mustard/shared';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { lineSlots, linesFromSlots, moved, sectionOrder, toggled } from './form.js';
import { LayoutPreview } from './LayoutPreview.js';
import { SchoolBadge } from './SchoolBadge.js';
import { SettingsActions, SettingsLoading, useSettingsDocument } from './settings-document.js';

/** The longest header line the layout takes (ReportLayoutSchema). */
const MAX_LINE = 120;

/*
 * A school's report card layout (issue 15 point 5): which sections a card shows and in what
 * order, the subject table's columns, the lines under the school's name, photos and positions,
 * and the title a report prints without one. The form's layout (`doc.value`, one state) is what
 * the preview beside it draws, saved or not.
 */
export function ReportLayoutPage() {
  const { t } = useTranslation();
  const doc = useSettingsDocument<ReportLayout>({
    name: 'layout',
    load: async () => {
      const { layout, defaults, version } = await call(reportLayoutEndpoint, {});
      return { value: layout, defaults, version };
    },
    save: async (layout, version) => {
      const saved = await call(saveReportLayoutEndpoint, { body: { layout, version } });
      return { value: saved.layout, defaults: saved.defaults, version: saved.version };
    },
    schema: ReportLayoutSchema,
  });
  const layout = doc.value;
  // Every section in the form's order, the ones left out included (so they keep their place).
  const [order, setOrder] = useState<ReportSection[]>([...REPORT_SECTIONS]);
  const chosen = layout?.sections;
  useEffect(() => {
    // A layout loaded, saved or restored: the left-out sections follow the chosen ones.
    if (chosen && order.filter((section) => chosen.includes(section)).join() !== chosen.join())
      setOrder(sectionOrder(REPORT_SECTIONS, chosen));
  }, [chosen, order]);

  if (!layout) return <SettingsLoading query={doc.query} />;

  const set = (patch: Partial<ReportLayout>) => doc.change((current) => ({ ...current, ...patch }));
  /** The sections in `next` order, those ticked (`included`) making the layout's list. */
  const arrange = (next: ReportSection[], included: readonly ReportSection[]) => {
    setOrder(next);
    set({ sections: next.filter((section) => included.includes(section)) });
  };
  const slots = lineSlots(layout.headerLines, MAX_HEADER_LINES);

  return (
    <Card withBorder padding="md" data-testid="report-layout">
      <Stack>
        <Title order={1} size="h3">
          {t('pages.reportLayout')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('reportLayout.explain')}
        </Text>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg" style={{ minWidth: 0 }}>
          <Stack>
            <Fieldset legend={t('reportLayout.sections')} data-testid="layout-sections">
              <Stack gap={4}>
                {order.map((section, index) => {
                  const name = t(`reportLayout.section.${section}`);
                  const included = layout.sections.includes(section);
                  return (
                    <Group key={section} justify="space-between" data-section={section} wrap="nowrap">
                      <Checkbox
                        label={name}
                        checked={included}
                        // A report card always shows its subjects (the schema says so too).
                        disabled={section === 'subjects'}
                        onChange={(event) => arrange(order, toggled(order, layout.sections, section, event.currentTarget.checked))}
                      />
                      <Group gap={4} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('reportLayout.moveUp', { section: name })}
                          disabled={index === 0}
                          onClick={() => arrange(moved(order, index, -1), layout.sections)}
                        >
                          <IconArrowUp size={16} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('reportLayout.moveDown', { section: name })}
                          disabled={index === order.length - 1}
                          onClick={() => arrange(moved(order, index, 1), layout.sections)}
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                      </Group>
                    </Group>
                  );
                })}
                {doc.errorOf('sections') && (
                  <Text size="sm" c="red" role="alert">
                    {doc.errorOf('sections')}
                  </Text>
                )}
              </Stack>
            </Fieldset>
            <Checkbox.Group
              label={t('reportLayout.columns')}
              value={[...layout.columns]}
              onChange={(checked) => set({ columns: SUBJECT_COLUMNS.filter((column) => checked.includes(column)) })}
              error={doc.errorOf('columns')}
              data-testid="layout-columns"
            >
              <Group mt="xs" gap="md">
                {SUBJECT_COLUMNS.map((column) => (
                  <Checkbox key={column} value={column} label={t(`reportLayout.column.${column}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <Radio.Group
              label={t('reportLayout.markValues')}
              description={t('reportLayout.markValuesHint')}
              value={layout.markValues}
              onChange={(value) => set({ markValues: value as ReportLayout['markValues'] })}
              error={doc.errorOf('markValues')}
              data-testid="layout-mark-values"
            >
              <Group mt="xs" gap="md">
                {MARK_VALUES.map((value) => (
                  <Radio key={value} value={value} label={t(`reportLayout.markValue.${value}`)} />
                ))}
              </Group>
            </Radio.Group>
            <SchoolBadge />
            <Fieldset legend={t('reportLayout.headerLines')} data-testid="layout-header-lines">
              <Stack gap="xs">
                <Text size="sm" c="dimmed">
                  {t('reportLayout.headerLinesHint')}
                </Text>
                {slots.map((line, index) => (
                  <TextInput
                    // The slots are fixed places: one per line a card may have.
                    key={index}
                    aria-label={t('reportLayout.headerLine', { number: index + 1 })}
                    placeholder={t('reportLayout.headerLine', { number: index + 1 })}
                    value={line}
                    maxLength={MAX_LINE}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      set({ headerLines: linesFromSlots(slots.map((slot, at) => (at === index ? value : slot))) });
                    }}
                    error={doc.errorOf(`headerLines.${index}`)}
                  />
                ))}
                {doc.errorOf('headerLines') && (
                  <Text size="sm" c="red" role="alert">
                    {doc.errorOf('headerLines')}
                  </Text>
                )}
              </Stack>
            </Fieldset>
            <Switch
              label={t('reportLayout.showPhoto')}
              checked={layout.showPhoto}
              onChange={(event) => set({ showPhoto: event.currentTarget.checked })}
              error={doc.errorOf('showPhoto')}
            />
            <Switch
              label={t('reportLayout.showPositions')}
              checked={layout.showPositions}
              onChange={(event) => set({ showPositions: event.currentTarget.checked })}
              error={doc.errorOf('showPositions')}
            />
            <TextInput
              label={t('reportLayout.label')}
              description={t('reportLayout.labelHint')}
              value={layout.label}
              maxLength={MAX_REPORT_LABEL}
              onChange={(event) => set({ label: event.currentTarget.value })}
              error={doc.errorOf('label')}
            />
          </Stack>
          <Stack gap="xs" style={{ minWidth: 0 }}>
            <Text size="sm" fw={500}>
              {t('reportLayout.preview')}
            </Text>
            <LayoutPreview layout={layout} />
          </Stack>
        </SimpleGrid>
        <SettingsActions
          conflict={doc.conflict}
          invalid={Object.keys(doc.errors).length > 0}
          busy={doc.busy}
          // Blank header lines are not lines: they are dropped when saved.
          onSave={() =>
            void doc.submit((current) => ({ ...current, headerLines: current.headerLines.filter((line) => line.trim() !== '') }))
          }
          onRestore={doc.restoreDefaults}
          onReload={doc.reload}
        />
      </Stack>
    </Card>
  );
}
