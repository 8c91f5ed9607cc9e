/*
 * Comments as a starting point (issue 16 point 4; guide grading.md "Comments"): the school's
 * automatic comments matched to a learner's result, personalised with the learner's name and
 * pronouns, filled only where nothing is typed, and a typed comment checked for another
 * learner's name or pronouns that do not fit. Pure: the screens and the server use the same.
 */

/** The longest comment or remark (the database's check backs it). */
export const MAX_COMMENT_LENGTH = 1000;

export interface AutoSubjectComment {
  /** A grade label (D1, c3: matched case-insensitively) or a band of totals "from-to" (75-100, 74.5-79.9). */
  score: string;
  comment: string;
}

const BAND = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/;

/**
 * The automatic subject comment for a grade and total: one whose score is the grade (any case)
 * first, else one whose band holds the total (both ends included); null when none matches.
 */
export function matchSubjectComment(
  autos: ReadonlyArray<AutoSubjectComment>,
  result: { grade: string | null; total: number | null },
): string | null {
  const grade = result.grade?.trim().toLowerCase();
  if (grade) {
    const byGrade = autos.find((auto) => auto.score.trim().toLowerCase() === grade);
    if (byGrade) return byGrade.comment;
  }
  if (result.total === null) return null;
  const total = result.total;
  const byBand = autos.find((auto) => {
    const band = BAND.exec(auto.score);
    return band !== null && total >= Number(band[1]) && total <= Number(band[2]);
  });
  return byBand?.comment ?? null;
}

export interface AutoReportComment {
  form: string;
  remarktype_id: string;
  /** From and To (spec §3), both included. */
  score: number;
  upper: number;
  comment: string;
}

/**
 * The automatic report comment of a remark type for a learner of a class whose result (the
 * aggregate where the class has one, else the points or the average) is `value`: the first band
 * of that class and remark type holding it; null when none does or there is no result.
 */
export function matchReportComment(
  autos: ReadonlyArray<AutoReportComment>,
  wanted: { form: string; remarktypeId: string; value: number | null },
): string | null {
  if (wanted.value === null) return null;
  const value = wanted.value;
  const form = wanted.form.toLowerCase();
  return (
    autos.find(
      (auto) =>
        auto.remarktype_id === wanted.remarktypeId && auto.form.toLowerCase() === form && value >= auto.score && value <= auto.upper,
    )?.comment ?? null
  );
}

export interface CommentLearner {
  firstname: string;
  gender: 'F' | 'M' | null;
}

const PRONOUNS: Record<'he' | 'his' | 'him', Record<'F' | 'M', string>> = {
  he: { F: 'she', M: 'he' },
  his: { F: 'her', M: 'his' },
  him: { F: 'her', M: 'him' },
};

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A comment for one learner: `{name}` is their first name, `{he}`, `{his}`, `{him}` (or
 * capitalised, `{He}`) the pronoun of their sex; without a recorded sex, "they", "their",
 * "them", so nothing false is printed.
 */
export function personalise(text: string, learner: CommentLearner): string {
  return text.replace(/\{(name|he|his|him|He|His|Him)\}/g, (_, key: string) => {
    if (key === 'name') return learner.firstname;
    const lower = key.toLowerCase() as keyof typeof PRONOUNS;
    const word = learner.gender ? PRONOUNS[lower][learner.gender] : { he: 'they', his: 'their', him: 'them' }[lower];
    return key === lower ? word : capitalised(word);
  });
}

/** What a typed comment may have wrong, said before it is saved (a warning, not a refusal). */
export type CommentWarning = { kind: 'otherLearner'; name: string } | { kind: 'pronouns'; words: string[] };

const words = (text: string) => text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
const HIS_WORDS = ['he', 'his', 'him', 'himself'];
const HER_WORDS = ['she', 'her', 'hers', 'herself'];

/**
 * A typed comment naming another learner of the class (by first name, a name the learner does
 * not share) or with pronouns of the other sex.
 */
export function commentWarnings(text: string, learner: CommentLearner, classmates: ReadonlyArray<{ firstname: string }>): CommentWarning[] {
  const said = new Set(words(text));
  const own = learner.firstname.toLowerCase();
  const warnings: CommentWarning[] = [];
  const named = new Set<string>();
  for (const classmate of classmates) {
    const name = classmate.firstname.trim();
    const key = name.toLowerCase();
    if (key.length < 2 || key === own || named.has(key) || !said.has(key)) continue;
    named.add(key);
    warnings.push({ kind: 'otherLearner', name });
  }
  const wrong = learner.gender === 'F' ? HIS_WORDS : learner.gender === 'M' ? HER_WORDS : [];
  const found = wrong.filter((word) => said.has(word));
  if (found.length > 0) warnings.push({ kind: 'pronouns', words: found });
  return warnings;
}

/**
 * "Fill empty comments": each suggestion put where nothing is typed yet (blank counts as
 * nothing), never over a typed comment; answers the comments and how many were filled.
 */
export function fillEmpty(
  typed: Readonly<Record<string, string>>,
  suggestions: Readonly<Record<string, string | null>>,
): { comments: Record<string, string>; filled: number } {
  const comments: Record<string, string> = { ...typed };
  let filled = 0;
  for (const [id, suggestion] of Object.entries(suggestions)) {
    if (!suggestion || (comments[id] ?? '').trim() !== '') continue;
    comments[id] = suggestion;
    filled += 1;
  }
  return { comments, filled };
}
