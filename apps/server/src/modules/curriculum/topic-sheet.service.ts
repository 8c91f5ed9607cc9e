import type { topics } from '@mustard/shared';
import type { z } from 'zod';
import type { ActionContext } from '../../plugins/endpoints.js';
import type { ResourceRepository } from '../../resources/resource-repository.js';
import { saveGridSheet } from '../marks/entry.service.js';
import type { readSheetForCompetency } from '../marks/grid-sheet.js';

/*
 * A competency created with its scores (issue 26 point 2): the competency is added, then the
 * filled sheet saved as its scores through the marks grid's own sheet save (the identifier
 * scale, the class's learners, the member's assignments, published marks), in the action's one
 * transaction. A refused row is a 422 naming it, and nothing is kept, the competency neither.
 */

type Topic = z.output<typeof topics.record>;

export async function createTopicWithScores(
  context: ActionContext,
  repository: ResourceRepository<typeof topics>,
  input: Record<string, unknown>,
  sheet: ReturnType<typeof readSheetForCompetency>,
) {
  const created = (await repository.create(context.tx, input)) as unknown as Topic;
  const saved = await saveGridSheet(
    context,
    { ...sheet.grid, term: created.term, topic_id: created.id, marktypes: sheet.read.marktypeIds, excel: false },
    sheet.read,
  );
  return { created, ...saved };
}
