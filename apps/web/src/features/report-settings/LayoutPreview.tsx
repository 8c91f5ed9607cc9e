import { Alert, Loader } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { type ReportLayout, renderReportHtml, reportSampleEndpoint } from '@mustard/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../lib/api.js';
import { useAuth } from '../../lib/auth.js';
import { errorText } from '../../lib/notify.js';

/** The width the preview's card is drawn at (its 740 px card and the margins around it, render-html's STYLE). */
export const CARD_FRAME_WIDTH = 764;
/** The frame's height at full size: a card of a page. */
const CARD_FRAME_HEIGHT = 1080;

/**
 * The layout screen's live preview: a real learner's card (the school's latest marks), fetched
 * once (again when the marks under the mark types change between raw and weighted) and redrawn
 * in the browser with the same renderer the server's preview uses, on every tick, move and
 * keystroke of the form, unsaved changes included. The card is drawn at its printed width and
 * scaled down to the pane (issue 24 point 7: at 1366 px the pane is half the page, narrower than
 * a card), so the whole card shows without scrolling sideways.
 */
export function LayoutPreview({ layout }: { layout: ReportLayout }) {
  const { t } = useTranslation();
  const { session } = useAuth();
  const { ref, width } = useElementSize();
  const sample = useQuery({
    queryKey: ['report-sample', session?.tenant?.id, layout.markValues],
    queryFn: () => call(reportSampleEndpoint, { query: { markValues: layout.markValues } }),
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
  const scale = width > 0 ? Math.min(1, width / CARD_FRAME_WIDTH) : 1;

  return (
    <div ref={ref} data-testid="layout-preview" data-sections={layout.sections.join(' ')} style={{ width: '100%', minWidth: 0 }}>
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
        // The card at its own width, scaled to the pane; the box around it takes the scaled size.
        <div style={{ width: CARD_FRAME_WIDTH * scale, height: CARD_FRAME_HEIGHT * scale, overflow: 'hidden' }}>
          {/* Sandboxed: the card needs no script, and none of the school's text can run as one. */}
          <iframe
            title={t('terminalReport.previewTitle')}
            srcDoc={html}
            sandbox=""
            data-scale={scale.toFixed(3)}
            style={{
              width: CARD_FRAME_WIDTH,
              height: CARD_FRAME_HEIGHT,
              border: 0,
              transform: `scale(${scale})`,
              transformOrigin: 'top left',
            }}
          />
        </div>
      )}
    </div>
  );
}
