import {
  type AnalysisModel,
  type AnalysisQuery,
  gradeNcLearner,
  NC_ANALYSIS_EXPLAIN,
  ncResultAnalysis,
  REPORT_MESSAGES,
  SETTINGS_MESSAGES,
  shownMarkTypeIds,
} from '@mustard/shared';
import { invalid } from '../../../errors.js';
import { classTermKey } from '../../students/class-learners.repository.js';
import type { KindRead } from '../pipeline/kind.js';

/*
 * The result analysis of a class on the new curriculum that year (issue 28 point 1: "or, for
 * new-curriculum classes, identifiers and grades A..E"): the analysis kind reads the
 * `newCurriculumIfNew` source beside its own, and for such a class builds this instead of the
 * divisions. The chosen mark type is the summative exam (one, as on the new curriculum's card
 * and mark sheet); each learner of the stream is graded by the one new-curriculum grader
 * (gradeNcLearner with the school's rules, as the cards grade them), then counted by the pure
 * ncResultAnalysis (shared/reports/nc-analysis.ts).
 */

type NcAnalysisRead = KindRead<AnalysisQuery, 'initials' | 'newCurriculumIfNew'>;

const sameText = (a: string | null, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The analysis of a class on the new curriculum, or null for a class on the old one (the
 * divisions' analysis answers it). Refuses (422) no mark type or several (the summative is one),
 * and a stream without learners. Pure.
 */
export function buildNcAnalysis(read: NcAnalysisRead): AnalysisModel | null {
  const { load, query, sources } = read;
  const inputs = load.classes[0];
  const found = inputs ? sources.get(classTermKey(inputs)) : undefined;
  const nc = found?.newCurriculumIfNew;
  if (!inputs || !found || !nc) return null;
  const chosen = shownMarkTypeIds(query);
  const field = query.marktype_id ? 'marktype_id' : 'marktype_ids';
  if (chosen.length === 0) throw invalid({ [field]: [SETTINGS_MESSAGES.markTypeRequired] });
  if (chosen.length > 1) throw invalid({ [field]: [REPORT_MESSAGES.oneSummative] });
  const stream = query.stream ?? null;
  const learners = inputs.learners.filter((learner) => stream === null || sameText(learner.stream, stream));
  if (learners.length === 0) throw invalid({ form: [REPORT_MESSAGES.noLearners] });
  const rules = load.settings.rules.newCurriculum;
  const analysis = ncResultAnalysis(
    learners.map((learner) => {
      const own = nc.learners.get(learner.id) ?? [];
      // The teacher's initials as the learner's card prints them: the stream's teacher, else the class's.
      const initials = new Map<string, string>();
      for (const subject of nc.subjects) {
        const teacher = found.initials.get(`${subject.id}|${learner.stream ?? ''}`) ?? found.initials.get(`${subject.id}|`);
        if (teacher) initials.set(subject.id, teacher);
      }
      return { id: learner.id, gender: learner.gender, inputs: own, result: gradeNcLearner(own, rules), initials };
    }),
    { rules, subjects: nc.subjects },
  );
  return {
    report: {
      school: load.school.name,
      form: inputs.form,
      stream,
      term: inputs.term,
      year: inputs.year,
      level: inputs.level,
      precision: query.precision,
      markTypes: nc.exam ? [nc.exam.label] : [],
    },
    grades: [],
    learners: learners.length,
    subjects: [],
    divisions: null,
    newCurriculum: analysis,
    explain: NC_ANALYSIS_EXPLAIN,
  };
}
