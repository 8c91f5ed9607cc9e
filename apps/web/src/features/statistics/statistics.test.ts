import { REPORT_MESSAGES } from '@mustard/shared';
import { describe, expect, it } from 'vitest';
import { checkedQuery } from '../report-page/contract.js';
import { declaredFields, namedErrors } from '../report-page/declaration.js';
import { queryOf, startValues } from '../report-page/fields.js';
import { statisticsPage } from './statistics.js';

/* The Mark Statistics page's query: the statistics category goes as the contract's `category`, with the weight set and precision. */

const TERM = { term: 'II', year: 2026 } as const;

describe('the Mark Statistics query', () => {
  it('sends the statistics category as `category`, the weight set and the decimals, as the contract takes them', () => {
    const query = queryOf(
      declaredFields(statisticsPage),
      startValues(TERM, { form: 'P7', statistic: 'weightedagg', weight: 'dcpf', precision: 1 }),
    );
    expect(query).toEqual({
      form: 'P7',
      stream: undefined,
      term: 'II',
      year: 2026,
      category: 'weightedagg',
      marktype_ids: undefined,
      weight: 'dcpf',
      precision: 1,
    });
    const checked = checkedQuery(statisticsPage.endpoint, query);
    expect(checked.refused).toBeNull();
    expect(checked.read).toMatchObject({ category: 'weightedagg', weight: 'dcpf', precision: 1 });
  });

  it('starts at the divisions and the grade weights; a refused category is named by the field that shows it', () => {
    const query = queryOf(declaredFields(statisticsPage), startValues(TERM, { form: 'P7' }));
    expect(query).toMatchObject({ category: 'division', weight: 'grade', precision: 2 });
    const refused = checkedQuery(statisticsPage.endpoint, { ...query, category: 'nonsense' }).refused;
    const errors = namedErrors(Object.fromEntries((refused?.issues ?? []).map((issue) => [issue.path.join('.'), [issue.message]])));
    expect(errors).toEqual({ category: REPORT_MESSAGES.statisticsCategory });
  });
});
