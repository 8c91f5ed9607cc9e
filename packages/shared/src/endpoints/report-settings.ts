import { z } from 'zod';
import { GradingRulesSchema } from '../grading/engine/rules.js';
import { INPUT_MESSAGES, REPORT_MESSAGES } from '../messages.js';
import { ReportLayoutSchema } from '../reports/layout.js';
import { defineEndpoint } from './definition.js';

/*
 * A school's grading rules and report layout as settings screens (issue 15 points 1 and 5):
 * each read with the guide's defaults beside it, and saved whole with the version it was read
 * at, so two people editing at once learn of each other (409) instead of one losing a change.
 */

/** The longest name a grading rule holds (a grade's label, a division's name): it prints in a column. */
export const MAX_RULE_NAME = 20;

/** Every text of a value with its path (names, and enums, which are short anyway). */
function textsOf(value: unknown, path: Array<string | number> = []): Array<[Array<string | number>, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => textsOf(item, [...path, index]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => textsOf(item, [...path, key]));
  return [];
}

/**
 * The rules a school may save: GradingRulesSchema, each name at most MAX_RULE_NAME characters
 * (the schema itself bounds no name; a report column does), descriptors apart. The web's form
 * checks the same.
 */
export const SchoolGradingRulesSchema = GradingRulesSchema.superRefine((rules, ctx) => {
  for (const [path, text] of textsOf(rules)) {
    // A descriptor is a sentence, printed in the key below the table (its own schema bounds it).
    if (path.at(-1) === 'descriptor') continue;
    if (text.length > MAX_RULE_NAME) ctx.addIssue({ code: 'custom', message: REPORT_MESSAGES.nameTooLong, path });
  }
});

/** The version a setting was read at: 0 before the school ever saved. */
const VersionSchema = z
  .number(INPUT_MESSAGES.valueInvalid)
  .int(INPUT_MESSAGES.valueInvalid)
  .min(0, INPUT_MESSAGES.valueInvalid)
  .max(2_147_483_647, INPUT_MESSAGES.valueInvalid);

export const GradingRulesAnswerSchema = z.object({ rules: GradingRulesSchema, defaults: GradingRulesSchema, version: VersionSchema });
export type GradingRulesAnswer = z.infer<typeof GradingRulesAnswerSchema>;
export const GradingRulesSaveSchema = z.object({ rules: SchoolGradingRulesSchema, version: VersionSchema });
export type GradingRulesSave = z.infer<typeof GradingRulesSaveSchema>;

export const ReportLayoutAnswerSchema = z.object({ layout: ReportLayoutSchema, defaults: ReportLayoutSchema, version: VersionSchema });
export type ReportLayoutAnswer = z.infer<typeof ReportLayoutAnswerSchema>;
export const ReportLayoutSaveSchema = z.object({ layout: ReportLayoutSchema, version: VersionSchema });
export type ReportLayoutSave = z.infer<typeof ReportLayoutSaveSchema>;

const manageSettings = { action: 'manage', subject: 'setting' } as const;

/** The school's grading rules (the guide's defaults until it saves its own), with the defaults and the version. */
export const gradingRulesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/gradingrules',
  access: 'member',
  response: GradingRulesAnswerSchema,
});

/** Saves the school's grading rules whole if still at `version`; 409 when someone saved since. */
export const saveGradingRulesEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/school/gradingrules',
  access: manageSettings,
  body: GradingRulesSaveSchema,
  response: GradingRulesAnswerSchema,
});

/** The school's report card layout (the default until it saves its own), with the default and the version. */
export const reportLayoutEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/school/reportlayout',
  access: 'member',
  response: ReportLayoutAnswerSchema,
});

/** Saves the school's report card layout whole if still at `version`; 409 when someone saved since. */
export const saveReportLayoutEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/api/school/reportlayout',
  access: manageSettings,
  body: ReportLayoutSaveSchema,
  response: ReportLayoutAnswerSchema,
});
