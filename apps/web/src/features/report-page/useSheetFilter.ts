import type { Endpoint, EndpointOutput } from '@mustard/shared';
import { type FormEvent, useState } from 'react';
import { call } from '../../lib/api.js';
import { fieldErrorsOfIssues } from '../../lib/forms.js';
import { useLoadedSheet } from '../../lib/loaded-sheet.js';
import { checkedQuery, inputOf, type QueryOutput } from './contract.js';
import { declaredFields, type FieldSpec, type OptionSpec } from './declaration.js';
import { type FilterValues, queryOf } from './fields.js';
import { type ReportFilterCardProps, showFailure, useReportFilter } from './ReportFilterCard.js';

/**
 * A class sheet opened from the report filter (subject comments, generic skills, report
 * comments): the declared fields checked by the endpoint's contract, the sheet loaded by Next
 * and held with the choices it was loaded for (stale, dimmed, the moment the form says
 * otherwise), a refusal named beside its field and said in a toast. `sheetOf` makes the page's
 * sheet from the answer and the query as the contract read it. Spread `card` on the filter card.
 */
export function useSheetFilter<E extends Endpoint, Sheet>(declaration: {
  endpoint: E;
  fields: readonly FieldSpec[];
  options?: readonly OptionSpec[];
  initial?: Partial<FilterValues>;
  sheetOf: (answer: EndpointOutput<E>, read: QueryOutput<E>, values: FilterValues) => Sheet;
}) {
  const { endpoint, fields, options, sheetOf } = declaration;
  const filter = useReportFilter(declaration.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  // The sheet belongs to the choices it was loaded for: a comment typed after switching subjects must not land in the old one.
  const { loaded, stale, show, clear, fold } = useLoadedSheet<Sheet, FilterValues>(filter.values);

  const next = async (event: FormEvent) => {
    event.preventDefault();
    const values = filter.values;
    const checked = checkedQuery(endpoint, queryOf(declaredFields({ fields, options }), values));
    // The sheet on screen is of the choices before: whatever this Next does, it goes.
    clear();
    if (checked.refused) {
      setErrors(fieldErrorsOfIssues(checked.refused));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await call(endpoint, inputOf(checked.query));
      show(sheetOf(answer, checked.read, values), values);
    } catch (error) {
      showFailure(error, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const card = { fields, options, filter, errors, busy, onNext: next, fold } satisfies Partial<ReportFilterCardProps>;
  return { filter, values: filter.values, loaded, stale, card };
}
