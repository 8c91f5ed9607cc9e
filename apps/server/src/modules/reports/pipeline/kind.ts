import { type Curriculum, type Endpoint, REPORT_MESSAGES, type ReportScope } from '@mustard/shared';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { TenantTx } from '../../../db/tenant.js';
import type { DrawInTurn } from '../../../documents/drawers.js';
import { invalid } from '../../../errors.js';
import { tenantScope } from '../../../plugins/access.js';
import { type Answer, type EndpointRequestInput, endpointRoute, withAction } from '../../../plugins/endpoints.js';
import { curriculumSettings } from '../../settings/class-curricula.repository.js';
import { classesWithMarks, type GradingLoad, loadGradingInputs } from './loader.js';
import { type LoadedSources, loadSources, type SourceName } from './sources.js';

/*
 * A report kind (issue 25 point 4): what a report screen declares instead of writing its own
 * queries and route. Its query contract (the endpoint), how the query maps to a scope, the
 * sources it prints, a pure build step (a model or tables), and its renderers. `reportKindRoute`
 * serves it: scope, loader and sources inside the action's one tenant transaction; build and
 * render after it, so no connection waits on drawing; a PDF through the document queue.
 */

export type Output = 'json' | 'html' | 'pdf' | 'xlsx';

/** Draws a drawer's document in its turn, here or on a job worker (app.documents.serve hands it). */
export type DocumentDraw = DrawInTurn;

/** What a kind's build step reads: the grading inputs of its scope, its sources, and its query. */
export interface KindRead<Query, Names extends SourceName> {
  query: Query;
  load: GradingLoad;
  sources: LoadedSources<Names>;
  /** A whole school's term: the classes with marks left out for following the other curriculum. */
  otherCurriculum?: string[];
}

/** What a renderer has besides the built report: the server (its data directory), the school and member, the query. */
export interface RenderContext<Query> {
  app: FastifyInstance;
  tenantId: string;
  userId: string;
  query: Query;
}

export interface ReportKind<E extends Endpoint, Built, Names extends SourceName, More = unknown> {
  /** A name for logs and the registry. */
  name: string;
  /**
   * The classes the kind prints (issue 27 point 5): an old-curriculum kind (the default: the
   * terminal report, the mark sheets) refuses a class on the new curriculum that year, whose
   * card is the new curriculum's; a new-curriculum kind says 'new' and checks its own classes.
   */
  curriculum?: Curriculum;
  /**
   * An old-curriculum kind that answers a class on the new curriculum too, with that
   * curriculum's own report (the result analysis: grades A..E and identifiers, no divisions):
   * such a class is not refused; the kind reads the `newCurriculumIfNew` source, and its build
   * tells the two apart by it.
   */
  answersNewCurriculum?: boolean;
  /** The query contract: the endpoint the web calls. */
  endpoint: E;
  scope(query: z.output<E['query'] & z.ZodType>): ReportScope;
  /** The sources the kind prints, loaded by name (sources.ts); nothing else is read. */
  sources: readonly Names[];
  /**
   * What the kind reads beyond its scope's grading inputs, in the same transaction, after them
   * (a learner's history widened to the whole class of each of their terms, so positions are the
   * class's); the build step has it as `read.more`.
   */
  readMore?(tx: TenantTx, read: KindRead<z.output<E['query'] & z.ZodType>, Names>): Promise<More>;
  /** Pure: the report from what was read (refuses with a 422 what cannot make one). */
  build(read: KindRead<z.output<E['query'] & z.ZodType>, Names> & { more?: More }): Built;
  /** Which renderer a query asks for. */
  output(query: z.output<E['query'] & z.ZodType>): Output;
  /** The renderers; `pdf` draws in its turn of the document queue through `draw`. */
  render: Partial<
    Record<Exclude<Output, 'pdf'>, (built: Built, context: RenderContext<z.output<E['query'] & z.ZodType>>) => Promise<Answer<E>>> & {
      pdf: (built: Built, context: RenderContext<z.output<E['query'] & z.ZodType>>, draw: DocumentDraw) => Promise<Answer<E>>;
    }
  >;
}

/**
 * Refuses (422 on `form`) an old-curriculum report of a class that is on the new curriculum in
 * one of the scope's years: it has no divisions, its card and mark sheet are the new
 * curriculum's. A learner's history (no classes named) is not a report of a class.
 */
export async function refuseNewCurriculumClasses(tx: TenantTx, scope: ReportScope): Promise<void> {
  if (scope.classes.length === 0) return;
  for (const year of new Set(scope.terms.map((term) => term.year))) {
    const { isNew } = await curriculumSettings(tx, year);
    if (scope.classes.some(isNew)) throw invalid({ form: [REPORT_MESSAGES.newCurriculumClass] });
  }
}

/** A whole school's term: terms named, no class and no learner (the analysis of "all classes"). */
export const isWholeSchool = (scope: ReportScope) => scope.classes.length === 0 && scope.learners.length === 0 && scope.terms.length > 0;

/**
 * The classes a whole school's term covers for a kind (issue 28 point 7): every class with marks
 * in the term that follows the kind's curriculum that year ('any': every class, for a kind that
 * answers both). The others are not an error here: they have their own report (the new
 * curriculum's), and the kind says which were left out.
 */
export async function wholeSchoolClasses(
  tx: TenantTx,
  scope: ReportScope,
  curriculum: Curriculum | 'any',
): Promise<{ classes: string[]; otherCurriculum: string[] }> {
  const forms = await classesWithMarks(tx, scope.terms);
  const other = new Set<string>();
  if (curriculum === 'any') return { classes: forms, otherCurriculum: [] };
  for (const year of new Set(scope.terms.map((term) => term.year))) {
    const { isNew } = await curriculumSettings(tx, year);
    for (const form of forms) if (isNew(form) !== (curriculum === 'new')) other.add(form);
  }
  return { classes: forms.filter((form) => !other.has(form)), otherCurriculum: forms.filter((form) => other.has(form)) };
}

/** Reads a kind's scope, grading inputs and sources in the caller's transaction (a service or test runs a kind without a route). */
export async function readKind<Query, Names extends SourceName>(
  tx: TenantTx,
  kind: { scope(query: Query): ReportScope; sources: readonly Names[]; curriculum?: Curriculum; answersNewCurriculum?: boolean },
  query: Query,
): Promise<KindRead<Query, Names>> {
  let scope = kind.scope(query);
  let otherCurriculum: string[] = [];
  // A whole school's term is every class with marks in it, of the kind's curriculum: one pass of the loader.
  if (isWholeSchool(scope)) {
    const covered = await wholeSchoolClasses(tx, scope, kind.answersNewCurriculum ? 'any' : (kind.curriculum ?? 'old'));
    scope = { ...scope, classes: covered.classes };
    otherCurriculum = covered.otherCurriculum;
  }
  // Every kind passes here: an old-curriculum one (the default) prints no new-curriculum class,
  // unless it answers one with the new curriculum's own report.
  if ((kind.curriculum ?? 'old') === 'old' && !kind.answersNewCurriculum) await refuseNewCurriculumClasses(tx, scope);
  const load = await loadGradingInputs(tx, scope);
  return { query, load, sources: await loadSources(tx, load, kind.sources), otherCurriculum };
}

/** readKind, then what the kind reads more (its `readMore`), in the same transaction. */
export async function readKindWithMore<Query, Names extends SourceName, More>(
  tx: TenantTx,
  kind: Parameters<typeof readKind<Query, Names>>[1] & {
    readMore?(tx: TenantTx, read: KindRead<Query, Names>): Promise<More>;
  },
  query: Query,
): Promise<KindRead<Query, Names> & { more?: More }> {
  const read = await readKind(tx, kind, query);
  return kind.readMore ? { ...read, more: await kind.readMore(tx, read) } : read;
}

/** Serves a report kind at its endpoint: read in the action's one transaction, built and rendered after it. */
export function reportKindRoute<E extends Endpoint, Built, Names extends SourceName, More = unknown>(
  app: FastifyInstance,
  kind: ReportKind<E, Built, Names, More>,
): void {
  endpointRoute(app, kind.endpoint, async ({ query }: EndpointRequestInput<E>, request, reply) => {
    const typed = query as z.output<E['query'] & z.ZodType>;
    const { tenantId, userId } = tenantScope(request);
    const context: RenderContext<typeof typed> = { app, tenantId, userId: userId ?? '', query: typed };
    const build = async () => kind.build(await withAction(app, request, ({ tx }) => readKindWithMore(tx, kind, typed)));
    const output = kind.output(typed);
    const pdf = kind.render.pdf;
    // A PDF is admitted before anything is read, and drawn in its turn (the document queue).
    if (output === 'pdf' && pdf) return app.documents.serve(tenantId, reply, async (draw) => pdf(await build(), context, draw));
    const render = output === 'pdf' ? undefined : kind.render[output];
    if (!render) throw new Error(`The report kind ${kind.name} has no ${output} renderer`);
    return render(await build(), context);
  });
}
