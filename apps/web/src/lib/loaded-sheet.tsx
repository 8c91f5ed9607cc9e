import { Alert, Button, Card, Stack, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

/*
 * A class sheet belongs to the filter it was loaded for (issue 23 items 15 and 16): the marks
 * grid, subject comments, generic skills, report comments, attendance and targets. A teacher
 * changed the Subject and typed into the grid still on screen, and the marks went into the
 * other subject. So every such page holds its sheet with the choices it was loaded for, names
 * them in the sheet's heading, and the moment the form says something else the sheet is stale:
 * shown dimmed, its inputs and SAVE switched off, until Next opens what the form names (or the
 * form is put back). A Next that is refused removes the old sheet. What is typed is not lost:
 * the sheets keep their drafts in the browser, and a stale sheet keeps its inputs.
 */

/** The filter's choices as compared: lists as sets, texts trimmed; what only shapes a download (excel, file) is left out by the page. */
function comparable(choices: object): string {
  const entries = Object.entries(choices)
    .map(([name, value]): [string, unknown] => [
      name,
      Array.isArray(value) ? [...value].map(String).sort() : typeof value === 'string' ? value.trim() : (value ?? null),
    ])
    .sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(entries);
}

/** Whether two sets of a filter's choices name the same sheet. */
export function sameChoices(a: object, b: object): boolean {
  return comparable(a) === comparable(b);
}

export interface Loaded<Sheet, Choices> {
  sheet: Sheet;
  /** The filter's choices the sheet was loaded for: what its heading names and its saves carry. */
  choices: Choices;
  /** When it was loaded: a new load of the same choices is a new sheet (nothing typed carries over unseen). */
  at: number;
}

/**
 * The sheet a page loaded, and whether the form (`current`, the page's choices now) still names
 * it. `show` puts a loaded sheet up; `clear` removes it (a Next starts with it, so a refused one
 * leaves no sheet of other choices behind).
 */
export function useLoadedSheet<Sheet, Choices extends object>(current: Choices) {
  const [loaded, setLoaded] = useState<Loaded<Sheet, Choices> | null>(null);
  const show = useCallback((sheet: Sheet, choices: Choices) => setLoaded({ sheet, choices, at: Date.now() }), []);
  const clear = useCallback(() => setLoaded(null), []);
  const stale = loaded !== null && !sameChoices(loaded.choices, current);
  const fold = useFilterFold(loaded?.at);
  return { loaded, stale, show, clear, fold };
}

/** Phones: at most this wide, a sheet's filter folds away once the sheet is loaded. */
export const FOLD_FILTER_WIDTH = '36em';

export interface FilterFold {
  /** The filter is folded: the page hides its form (`hidden={fold.folded}`) and shows `FilterFoldButton`. */
  folded: boolean;
  unfold(): void;
}

/**
 * On a phone (issue 24 point 8) a class sheet's filter fills the screen: after Next the sheet
 * was below it, out of sight. Each sheet loaded (`loadedAt`) folds the filter away, leaving a
 * button that opens it again; on a wider screen nothing folds.
 */
export function useFilterFold(loadedAt: number | undefined): FilterFold {
  const narrow = useMediaQuery(`(max-width: ${FOLD_FILTER_WIDTH})`) ?? false;
  const [openedFor, setOpenedFor] = useState<number | undefined>(undefined);
  return { folded: narrow && loadedAt !== undefined && openedFor !== loadedAt, unfold: () => setOpenedFor(loadedAt) };
}

/** In place of a folded filter: the button that opens it again. */
export function FilterFoldButton({ fold }: { fold: FilterFold }) {
  const { t } = useTranslation();
  if (!fold.folded) return null;
  return (
    <Button variant="light" onClick={fold.unfold} aria-expanded={false} data-testid="filter-unfold">
      {t('sheet.showFilter')}
    </Button>
  );
}

/** The parts of a sheet's heading: what it was loaded for, in the form's words. */
export interface SheetNames {
  form: string;
  stream: string | null | undefined;
  term: string;
  year: number;
  /** The subject's name, for a sheet of one subject. */
  subject?: string | null | undefined;
  paper?: string | null | undefined;
  /** The mark types' labels; an empty list is every mark type. */
  marktypes?: readonly string[] | undefined;
  /** Further choices the page names (a report type, a remark type). */
  more?: ReadonlyArray<string | null | undefined>;
}

/** "P5 East · Mathematics · Paper I · Term II 2026 · BOT, MOT": the sheet's heading. */
export function useSheetHeading() {
  const { t } = useTranslation();
  return (names: SheetNames) =>
    [
      [names.form, names.stream?.trim() || t('sheet.allStreams')].join(' '),
      names.subject,
      names.paper ? t('sheet.paper', { paper: names.paper }) : null,
      t('sheet.term', { term: names.term, year: names.year }),
      ...(names.more ?? []),
      names.marktypes === undefined ? null : names.marktypes.length > 0 ? names.marktypes.join(', ') : t('sheet.allMarkTypes'),
    ]
      .filter((part): part is string => typeof part === 'string' && part !== '')
      .join(' · ');
}

/**
 * A loaded sheet on its card: its heading, and when the form names other choices, a warning and
 * every input and button of the sheet switched off (a disabled fieldset: nothing typed, pasted
 * or saved reaches a sheet the form no longer shows).
 */
export function LoadedSheet({ heading, stale, children }: { heading: string; stale: boolean; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" data-testid="loaded-sheet" data-stale={stale ? 'yes' : undefined}>
      <Stack>
        <Title order={2} size="h4" data-testid="sheet-heading">
          {heading}
        </Title>
        {stale && (
          <Alert color="yellow" role="alert" data-testid="sheet-stale">
            {t('sheet.stale')}
          </Alert>
        )}
        <fieldset disabled={stale} style={{ border: 0, padding: 0, margin: 0, minWidth: 0, opacity: stale ? 0.5 : 1 }}>
          {children}
        </fieldset>
      </Stack>
    </Card>
  );
}
