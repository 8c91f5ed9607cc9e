import { Alert, Anchor, Button, Card, Checkbox, Group, List, Progress, Stack, Text } from '@mantine/core';
import { type Endpoint, type EndpointInput, type MailedLearner, type ReportEmailSummary, reportProgressEndpoint } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FittedFrame } from '../../components/FittedFrame.js';
import { useAccess } from '../../lib/access.js';
import { ApiError, call, downloadFrom } from '../../lib/api.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { useFilterFold } from '../../lib/loaded-sheet.js';
import { runLongAction } from '../../lib/notify.js';
import { checkedQuery, inputOf, type QueryOf } from './contract.js';
import {
  declaredFields,
  type EmailDeclaration,
  type Output,
  outputBoxes,
  previewHtmlOf,
  type ReportPageDeclaration,
  refusedAsNewCurriculum,
  startTicks,
  wantedOutputs,
} from './declaration.js';
import { queryOf } from './fields.js';
import { fieldErrorsOf, ReportFilterCard, useReportFilter } from './ReportFilterCard.js';

/** How often the page asks how far a followed PDF is. */
const PROGRESS_EVERY_MS = 600;
/** The preview frame's height on screen (spec: an 800 px frame). */
const FRAME_HEIGHT = 800;

/** Whether the member may use the Email option: its contract's ability (a member's contract: everyone). */
function useEmailOption(email: EmailDeclaration | undefined): EmailDeclaration | null {
  const { can } = useAccess();
  if (!email) return null;
  const { access } = email.endpoint;
  return typeof access === 'object' ? (can(access.action, access.subject) ? email : null) : email;
}

/** The Email option's summary: sent, already sent before, without a guardian's address (named), failed (named). */
function EmailSummary({ summary }: { summary: ReportEmailSummary }) {
  const { t } = useTranslation();
  const names = (learners: MailedLearner[]) => (
    <List size="sm">
      {learners.map((learner) => (
        <List.Item key={learner.id}>{`${learner.fullname} (${learner.studentid})`}</List.Item>
      ))}
    </List>
  );
  return (
    <Alert color={summary.failed > 0 ? 'red' : 'green'} variant="light" title={t('reportEmail.summaryTitle')} data-testid="email-summary">
      <Stack gap={4}>
        <Text size="sm">{t('reportEmail.sent', { count: summary.sent })}</Text>
        {summary.alreadySent > 0 && <Text size="sm">{t('reportEmail.alreadySent', { count: summary.alreadySent })}</Text>}
        {summary.noAddress > 0 && (
          <>
            <Text size="sm">{t('reportEmail.noAddress', { count: summary.noAddress })}</Text>
            {names(summary.withoutAddress)}
          </>
        )}
        {summary.failed > 0 && (
          <>
            <Text size="sm">{t('reportEmail.failed', { count: summary.failed })}</Text>
            {names(summary.failedLearners)}
          </>
        )}
      </Stack>
    </Alert>
  );
}

/**
 * A report page (issue 25 point 6), drawn from its declaration: the filter card with the declared
 * fields and report options and the outputs' boxes; Next checks the filter by the endpoint's
 * contract, then runs what was asked behind one toast ("Please wait..", then the page's ready
 * words or the server's error, with a refused field named beside it): the preview in a sandboxed
 * 800 px frame, the PDF and workbook downloaded under the names the server gives. A PDF the
 * server follows shows how many pages are drawn. On a phone the filter folds once the preview
 * is on screen.
 */
export function ReportPage<E extends Endpoint>({ declaration }: { declaration: ReportPageDeclaration<E> }) {
  const { t } = useTranslation();
  const filter = useReportFilter(declaration.initial);
  const { outputs } = declaration;
  const [ticked, setTicked] = useState(() => startTicks(outputs));
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** The preview, with the query it shows: its Download PDF prints that, whatever the filter says now. */
  const [preview, setPreview] = useState<{ html: string; query: QueryOf<E>; at: number } | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number; words?: string } | null>(null);
  const email = useEmailOption(declaration.email);
  const [emailing, setEmailing] = useState(false);
  const [summary, setSummary] = useState<ReportEmailSummary | null>(null);
  const [busy, setBusy] = useState(false);
  /** The class asked is on the new curriculum: its report is on the new curriculum's page. */
  const [newCurriculum, setNewCurriculum] = useState(false);
  const fold = useFilterFold(preview?.at);

  /** The PDF; a followed one with the pages drawn so far asked for while the server draws them. */
  const downloadPdf = async (query: QueryOf<E>) => {
    const pdf = { ...query, ...outputs.pdf?.query };
    if (!outputs.pdf?.followed) {
      await downloadFrom(declaration.endpoint, inputOf(pdf));
      return;
    }
    const token = crypto.randomUUID();
    setProgress({ done: 0, total: 0 });
    const timer = setInterval(() => {
      call(reportProgressEndpoint, { query: { token } })
        .then((now) => setProgress((shown) => (shown ? now : shown)))
        .catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    try {
      await downloadFrom(declaration.endpoint, inputOf({ ...pdf, progress: token }));
    } finally {
      clearInterval(timer);
      setProgress(null);
    }
  };

  /** Each learner's own card to their guardian: the cards drawn followed, then the summary. */
  const sendEmail = async (query: QueryOf<E>) => {
    if (!email) return;
    const token = crypto.randomUUID();
    const words = 'reportEmail.progress';
    setProgress({ done: 0, total: 0, words });
    const timer = setInterval(() => {
      call(reportProgressEndpoint, { query: { token } })
        .then((now) => setProgress((shown) => (shown ? { ...now, words } : shown)))
        .catch(() => undefined);
    }, PROGRESS_EVERY_MS);
    try {
      // The filter as the contract's body: the e-mail contract takes the card's own query (checked above by the card's contract).
      const input = { body: { ...query, progress: token } } as unknown as EndpointInput<typeof email.endpoint>;
      setSummary(await call(email.endpoint, input));
    } finally {
      clearInterval(timer);
      setProgress(null);
    }
  };

  const run = async (output: Output, query: QueryOf<E>) => {
    if (output === 'pdf') return downloadPdf(query);
    const withOutput = { ...query, ...outputs[output]?.query };
    if (output === 'excel') {
      await downloadFrom(declaration.endpoint, inputOf(withOutput));
      return;
    }
    const html = previewHtmlOf(await call(declaration.endpoint, inputOf(withOutput)));
    setPreview(html === null ? null : { html, query, at: Date.now() });
  };

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkedQuery(declaration.endpoint, queryOf(declaredFields(declaration), filter.values));
    if (checked.refused) {
      setErrors(fieldErrorsOfIssues(checked.refused));
      return;
    }
    setErrors({});
    setNewCurriculum(false);
    setSummary(null);
    setBusy(true);
    const mailing = emailing && email !== null;
    const work = async () => {
      for (const output of wantedOutputs(declaration, ticked, mailing)) await run(output, checked.query);
      if (mailing) await sendEmail(checked.query);
    };
    try {
      await runLongAction(work(), t(mailing ? 'reportEmail.ready' : declaration.ready));
    } catch (error) {
      // The toast says what went wrong; a refused field is named beside it too.
      const named = fieldErrorsOf(error);
      if (named) setErrors(named);
      setNewCurriculum(error instanceof ApiError && refusedAsNewCurriculum(error.data?.errors));
    } finally {
      setBusy(false);
    }
  };

  const fromPreview = async (query: QueryOf<E>) => {
    // The toast says what went wrong.
    await runLongAction(downloadPdf(query), t(declaration.ready)).catch(() => undefined);
  };

  return (
    <Stack>
      <ReportFilterCard
        title={declaration.title}
        filterName={declaration.filterName}
        fields={declaration.fields}
        options={declaration.options}
        types={declaration.types}
        filter={filter}
        errors={errors}
        busy={busy}
        onNext={next}
        fold={fold}
        boxes={[
          ...outputBoxes(outputs).map(({ output, label }) => (
            <Checkbox
              key={output}
              label={t(label)}
              checked={ticked[output]}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                setTicked((now) => ({ ...now, [output]: checked }));
              }}
            />
          )),
          ...(email
            ? [
                <Checkbox
                  key="email"
                  label={t(email.box)}
                  checked={emailing}
                  onChange={(event) => setEmailing(event.currentTarget.checked)}
                />,
              ]
            : []),
        ]}
      />
      {newCurriculum && declaration.newCurriculum && (
        <Alert color="yellow" variant="light" data-testid="new-curriculum-class">
          <Stack gap={4}>
            <Text size="sm">{t('messages.reports.newCurriculumClass')}</Text>
            <Anchor component={Link} to={declaration.newCurriculum.to} size="sm">
              {t(declaration.newCurriculum.link)}
            </Anchor>
          </Stack>
        </Alert>
      )}
      {progress && (
        <Card withBorder padding="md">
          <Stack gap={4} data-testid="report-progress">
            <Text size="sm">
              {progress.total > 0
                ? t(progress.words ?? outputs.pdf?.progress ?? 'terminalReport.progress', { done: progress.done, total: progress.total })
                : t('errors.pleaseWait')}
            </Text>
            <Progress value={progress.total > 0 ? (100 * progress.done) / progress.total : 0} animated />
          </Stack>
        </Card>
      )}
      {summary && <EmailSummary summary={summary} />}
      {preview !== null && outputs.preview && (
        <Card withBorder padding={0}>
          {(outputs.preview.hint || outputs.preview.downloadPdf) && (
            <Alert variant="light" color="gray" radius={0}>
              <Group justify="space-between" wrap="wrap">
                {outputs.preview.hint && <Text size="sm">{t(outputs.preview.hint)}</Text>}
                {outputs.preview.downloadPdf && (
                  <Button variant="light" loading={progress !== null} onClick={() => void fromPreview(preview.query)}>
                    {t(outputs.preview.downloadPdf)}
                  </Button>
                )}
              </Group>
            </Alert>
          )}
          {outputs.preview.width ? (
            // A document of a fixed width (a card, 740 px) fits the width given, a phone's too, scaled down.
            <FittedFrame title={t(outputs.preview.title)} srcDoc={preview.html} width={outputs.preview.width} height={FRAME_HEIGHT} />
          ) : (
            // Sandboxed without scripts: the document needs none, and none of the school's text can run as one.
            <iframe
              title={t(outputs.preview.title)}
              srcDoc={preview.html}
              sandbox=""
              style={{ width: '100%', height: FRAME_HEIGHT, border: 0 }}
            />
          )}
        </Card>
      )}
    </Stack>
  );
}
