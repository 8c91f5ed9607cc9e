import { Alert, Loader } from '@mantine/core';
import { type ReportLayout, renderReportHtml, reportSampleEndpoint } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { errorText } from '../../lib/notify.js';

/**
 * The layout screen's live preview: a real learner's card (the school's latest marks), fetched
 * once and redrawn in the browser with the same renderer the server's preview uses, on every
 * tick, move and keystroke of the form, unsaved changes included.
 */
export function LayoutPreview({ layout }: { layout: ReportLayout }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const sample = useQuery({
    queryKey: ['report-sample', session?.tenant?.id],
    queryFn: () => call(reportSampleEndpoint, {}),
    staleTime: 60_000,
    retry: false,
  });
  const html = useMemo(() => {
    const drawn = sample.data?.model;
    if (!drawn) return null;
    // The header lines and the label are the layout's: the sample was drawn with the saved ones.
    const model = {
      ...drawn,
      school: { ...drawn.school, lines: layout.headerLines.filter((line) => line.trim()) },
      report: { ...drawn.report, label: layout.label },
    };
    return renderReportHtml(model, layout);
  }, [sample.data, layout]);

  return (
    <div data-testid="layout-preview" data-sections={layout.sections.join(' ')}>
      {sample.isPending && <Loader size="sm" />}
      {sample.data?.model === null && (
        <Alert color="gray" variant="light">
          {t('reportLayout.noSample')}
        </Alert>
      )}
      {sample.error && (
        <Alert color="red" variant="light">
          {errorText(sample.error)}
        </Alert>
      )}
      {html !== null && (
        // Sandboxed: the card needs no script, and none of the school's text can run as one.
        <iframe title={t('terminalReport.previewTitle')} srcDoc={html} sandbox="" style={{ width: '100%', height: 800, border: 0 }} />
      )}
    </div>
  );
}
