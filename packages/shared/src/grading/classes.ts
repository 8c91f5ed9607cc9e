/*
 * Which classes are graded how (guide grading.md). Today: A level (S5, S6) is graded per paper
 * ("A level (UACE style): each paper gets a grade D1..F9 from the grade set"); the letters and
 * points that follow from the paper grades come later, beside this.
 */

/** Classes whose results are shown per paper, each paper with its grade (spec §9: S5 and S6). */
export const PER_PAPER_FORMS: ReadonlySet<string> = new Set(['S5', 'S6']);

/** Whether a class's results are shown per paper (S5 and S6, exactly as stored). */
export function isPerPaperForm(form: string): boolean {
  return PER_PAPER_FORMS.has(form);
}
