import { Button, Card, Checkbox, Group, Stack, Title } from '@mantine/core';
import { MarksheetQuerySchema, marksheetEndpoint } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, downloadFrom } from '../../lib/api.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { runLongAction } from '../../lib/notify.js';
import { PAGES } from '../../lib/pages.js';
import { fieldErrorsOf, ReportFilterFields, reportQueryOf, useReportFilter } from '../reports/report-filter.js';

/*
 * The mark sheet (`/marks/marksheet`, manage on marks; issue 15 point 7): the report filter
 * (class, stream, student category, term, year, category, mark types) with Excel, PDF and
 * Preview, then what was ticked: the preview in a sandboxed 800 px frame, the workbook and the
 * PDF downloaded under the names the server gives (marksheet-<class>-<stream>-<year>-<term>).
 * One "Please wait.." toast for all of it, then "The marksheet is ready." (or the server's error).
 */
export function MarksheetPage() {
  const { t } = useTranslation();
  const { filter, setFilter, set, chosen } = useReportFilter({ excel: false, pdf: false, preview: true });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const query = reportQueryOf(filter);
    const parsed = MarksheetQuerySchema.safeParse(query);
    if (!parsed.success) {
      setErrors(fieldErrorsOfIssues(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    // Nothing ticked shows the preview: Next always answers something.
    const wanted = { preview: filter.preview || (!filter.excel && !filter.pdf), excel: filter.excel, pdf: filter.pdf };
    const work = async () => {
      if (wanted.preview) {
        const answer = await call(marksheetEndpoint, { query: { ...query, html: '1' } });
        setPreview(answer.html);
      }
      if (wanted.excel) await downloadFrom(marksheetEndpoint, { query: { ...query, excel: '1' } });
      if (wanted.pdf) await downloadFrom(marksheetEndpoint, { query: { ...query, pdf: '1' } });
    };
    try {
      await runLongAction(work(), t('marksheet.ready'));
    } catch (error) {
      // The toast says what went wrong; a refused field is named beside it too.
      const named = fieldErrorsOf(error);
      if (named) setErrors(named);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Card withBorder padding="md">
        <Stack>
          <Title order={1} size="h3">
            {t(PAGES.marksheet.title)}
          </Title>
          <form onSubmit={next} aria-label={t('marksheet.filter')} noValidate>
            <Stack>
              <ReportFilterFields
                filter={filter}
                change={(fields) => setFilter((now) => ({ ...now, ...fields }))}
                chosen={chosen}
                errors={errors}
                typeLabel={t('marksheet.category')}
              />
              <Group>
                <Checkbox
                  label={t('marksheet.excel')}
                  checked={filter.excel}
                  onChange={(event) => set('excel', event.currentTarget.checked)}
                />
                <Checkbox label={t('marksheet.pdf')} checked={filter.pdf} onChange={(event) => set('pdf', event.currentTarget.checked)} />
                <Checkbox
                  label={t('marksheet.preview')}
                  checked={filter.preview}
                  onChange={(event) => set('preview', event.currentTarget.checked)}
                />
              </Group>
              <Group justify="flex-end">
                <Button type="submit" loading={busy}>
                  {t('marks.next')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Stack>
      </Card>
      {preview !== null && (
        <Card withBorder padding={0}>
          {/* Sandboxed without scripts: the sheet needs none, and none of the school's text can run as one. */}
          <iframe title={t('marksheet.previewTitle')} srcDoc={preview} sandbox="" style={{ width: '100%', height: 800, border: 0 }} />
        </Card>
      )}
    </Stack>
  );
}
