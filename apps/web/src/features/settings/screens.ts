import {
  AUTO_COMMENT_CATEGORIES,
  aLevelScores,
  autoMarkComments,
  autoReportComments,
  createTenantEndpoint,
  DISPLAY_TYPES,
  type EndpointInput,
  INPUT_TYPES,
  locations,
  MARK_TYPE_CATEGORIES,
  markTypes,
  OLEVEL_CATEGORIES,
  proportions,
  publishMarks,
  REMARK_TYPE_CATEGORIES,
  remarkTypes,
  SCHOOL_DEFAULTS,
  SCHOOL_TYPES,
  STATUSES,
  SUBJECT_CATEGORIES,
  studentCategories,
  subjects,
  TENANT_CATEGORIES,
  tenantEndpoint,
  tenants,
  tenantsEndpoint,
  updateTenantEndpoint,
} from '@mustard/shared';
import type { z } from 'zod';
import { call, downloadFrom } from '../../lib/api.js';
import { PAGES } from '../../lib/pages.js';
import type { ResourceCalls } from '../../lib/resource-calls.js';
import { defineScreen, type FieldSpec, type RowAction } from '../../resources/screen.js';
import { applyProportionAction, copyTermAction } from './term-settings.js';

/*
 * The school's list screens (spec §2 "School list screens"), each stating only what differs
 * from the common case of resources/screen.ts.
 */

const classField: FieldSpec<'form'> = { name: 'form', kind: 'select', choices: 'classes' };
const termField: FieldSpec<'term'> = { name: 'term', kind: 'select', choices: 'terms' };
const yearField: FieldSpec<'year'> = { name: 'year', kind: 'year' };
const subjectField: FieldSpec<'subject_id'> = { name: 'subject_id', kind: 'select', choices: { resource: subjects, label: 'name' } };
const markTypeField: FieldSpec<'marktype_id'> = { name: 'marktype_id', kind: 'select', choices: { resource: markTypes, label: 'label' } };

export const studentCategoriesScreen = defineScreen({
  resource: studentCategories,
  page: PAGES.studentCategories,
  columns: [{ field: 'name' }, { field: 'remarks' }],
  fields: [
    { name: 'name', kind: 'text' },
    { name: 'remarks', kind: 'textarea' },
  ],
});

export const subjectsScreen = defineScreen({
  resource: subjects,
  page: PAGES.subjects,
  columns: [
    { field: 'name' },
    { field: 'category', translate: true },
    { field: 'position' },
    { field: 'abbreviation' },
    { field: 'active' },
    { field: 'weeklylabel' },
    { field: 'olevelcategory', translate: true },
    { field: 'multiple_papers' },
    { field: 'multiple_paper_forms' },
  ],
  fields: [
    { name: 'name', kind: 'text' },
    { name: 'category', kind: 'select', choices: { values: SUBJECT_CATEGORIES } },
    { name: 'abbreviation', kind: 'text' },
    { name: 'position', kind: 'number' },
    { name: 'olevelcategory', kind: 'select', choices: { values: OLEVEL_CATEGORIES } },
    { name: 'weeklylabel', kind: 'text' },
    { name: 'active', kind: 'switch' },
    { name: 'multiple_papers', kind: 'switch' },
    { name: 'multiple_paper_forms', kind: 'text', when: (values) => values.multiple_papers === true },
  ],
  defaults: { active: true },
});

export const locationsScreen = defineScreen({
  resource: locations,
  page: PAGES.stockLocations,
  columns: [{ field: 'name' }, { field: 'code' }],
  fields: [
    { name: 'name', kind: 'text' },
    { name: 'code', kind: 'text' },
  ],
  pageSizeOptions: [10, 25, 50, 100],
  selectable: true,
});

type TenantsQuery = EndpointInput<typeof tenantsEndpoint>['query'];
type NewTenant = EndpointInput<typeof createTenantEndpoint>['body'];
type TenantChange = EndpointInput<typeof updateTenantEndpoint>['body'];

/** Schools and businesses have routes of their own (a read answers `{ tenant }`): the screen calls their contracts. */
function tenantCalls(): ResourceCalls<Awaited<ReturnType<typeof call<typeof createTenantEndpoint>>>> {
  return {
    list: async (query) => {
      const answer = await call(tenantsEndpoint, { query: query as TenantsQuery });
      return { rows: answer.tenants, totalRecords: answer.totalRecords };
    },
    download: (query) => downloadFrom(tenantsEndpoint, { query: query as TenantsQuery }),
    read: async (id) => (await call(tenantEndpoint, { params: { id } })).tenant,
    create: (body) => call(createTenantEndpoint, { body: body as NewTenant }),
    update: (id, body) => call(updateTenantEndpoint, { params: { id }, body: body as TenantChange }),
  };
}

export const tenantsScreen = defineScreen({
  resource: tenants,
  page: PAGES.businesses,
  // The creator runs a new school at once: it joins their school switcher (issue 10 point 11).
  refreshesProfile: true,
  columns: [
    { field: 'name' },
    { field: 'tenantcode' },
    { field: 'category', translate: true },
    { field: 'schooltype', translate: true },
    { field: 'country' },
  ],
  fields: [
    { name: 'name', kind: 'text' },
    { name: 'tenantcode', kind: 'text' },
    { name: 'category', kind: 'select', choices: { values: TENANT_CATEGORIES } },
    { name: 'schooltype', kind: 'select', choices: { values: SCHOOL_TYPES } },
    // A new school starts with the Ugandan defaults of its type unless the person chooses otherwise (issue 24).
    {
      name: 'defaults',
      kind: 'select',
      choices: { values: SCHOOL_DEFAULTS },
      when: (values) => values.category === 'School',
      follow: (values) => (values.category === 'School' ? (values.schooltype === 'secondary' ? 'secondary' : 'primary') : undefined),
    },
    { name: 'forms', kind: 'text' },
    { name: 'email', kind: 'text' },
    { name: 'phone', kind: 'text' },
    { name: 'address', kind: 'text' },
    { name: 'web', kind: 'text' },
    { name: 'tin', kind: 'text' },
    { name: 'country', kind: 'text' },
    { name: 'efrist', kind: 'switch' },
  ],
  defaults: { category: 'School', schooltype: 'primary', country: 'Uganda', efrist: false },
  pageSizeOptions: [10, 25, 50, 100],
  calls: tenantCalls(),
  editTitle: 'list.editTenant',
  deletable: false,
});

export const markTypesScreen = defineScreen({
  resource: markTypes,
  page: PAGES.markTypes,
  columns: [
    { field: 'label' },
    { field: 'category', translate: true },
    { field: 'position' },
    { field: 'status', translate: true },
    { field: 'outof' },
  ],
  fields: [
    { name: 'label', kind: 'text' },
    { name: 'category', kind: 'select', choices: { values: MARK_TYPE_CATEGORIES } },
    { name: 'position', kind: 'number' },
    { name: 'status', kind: 'select', choices: { values: STATUSES } },
    { name: 'outof', kind: 'number' },
  ],
  defaults: { status: 'active', outof: 100 },
});

export const proportionsScreen = defineScreen({
  resource: proportions,
  page: PAGES.proportions,
  columns: [
    { field: 'form' },
    { field: 'term' },
    { field: 'year', plain: true },
    { field: 'subject.name' },
    { field: 'marktype.label' },
    { field: 'percentage' },
  ],
  fields: [classField, termField, yearField, subjectField, markTypeField, { name: 'percentage', kind: 'number' }],
  filters: [classField, termField, yearField, subjectField],
  search: false,
  // A new term's proportions from the last term's, and one proportion for every class or subject at once (issue 24).
  headerActions: [copyTermAction, applyProportionAction],
});

export const publishMarksScreen = defineScreen({
  resource: publishMarks,
  page: PAGES.publishMarks,
  columns: [{ field: 'term' }, { field: 'year', plain: true }, { field: 'marktype.label' }],
  fields: [termField, yearField, markTypeField],
  search: false,
});

export const aLevelScoresScreen = defineScreen({
  resource: aLevelScores,
  page: PAGES.alevelScores,
  columns: [{ field: 'total' }, { field: 'score' }, { field: 'papercount' }],
  fields: [
    { name: 'total', kind: 'number' },
    { name: 'score', kind: 'number' },
    { name: 'papercount', kind: 'number' },
  ],
  search: false,
});

type RemarkTypeRow = z.infer<typeof remarkTypes.record>;

export const remarkTypesScreen = defineScreen({
  resource: remarkTypes,
  page: PAGES.remarkTypes,
  tree: true,
  columns: [
    { field: 'label' },
    { field: 'category', translate: true },
    { field: 'position' },
    { field: 'forms' },
    { field: 'displaytype', translate: true },
    { field: 'inputtype', translate: true },
    { field: 'active' },
  ],
  fields: [
    { name: 'label', kind: 'text' },
    { name: 'category', kind: 'select', choices: { values: REMARK_TYPE_CATEGORIES } },
    { name: 'parent_id', kind: 'select', choices: { resource: remarkTypes, label: 'label' } },
    { name: 'position', kind: 'number' },
    { name: 'forms', kind: 'text' },
    { name: 'displaytype', kind: 'select', choices: { values: DISPLAY_TYPES } },
    { name: 'inputtype', kind: 'select', choices: { values: INPUT_TYPES } },
    { name: 'active', kind: 'switch' },
  ],
  defaults: { active: true, displaytype: 'list', inputtype: 'text' },
  rowActions: (row): Array<RowAction<RemarkTypeRow>> => [
    ...(row.parent_id
      ? []
      : [
          {
            label: 'list.addSubCategory',
            needs: 'create' as const,
            // A new child starts under the chosen row, active, in the parent's category (spec §3).
            run: (parent: RemarkTypeRow, screen: { openNew(defaults: Record<string, unknown>): void }) =>
              screen.openNew({ parent_id: parent.id, active: true, category: parent.category }),
          },
        ]),
    { label: 'list.recordComments', to: (target: RemarkTypeRow) => `${PAGES.reportComments.path}?remarktype_id=${target.id}` },
  ],
});

export const autoMarkCommentsScreen = defineScreen({
  resource: autoMarkComments,
  page: PAGES.autoSubjectComments,
  columns: [{ field: 'score' }, { field: 'comment' }, { field: 'category', translate: true }],
  fields: [
    { name: 'score', kind: 'text', description: 'fields.autoScoreHelp' },
    { name: 'comment', kind: 'textarea', description: 'fields.autoCommentHelp' },
    { name: 'category', kind: 'select', choices: { values: AUTO_COMMENT_CATEGORIES } },
  ],
  defaults: { category: 'general' },
});

const remarkTypeField: FieldSpec<'remarktype_id'> = {
  name: 'remarktype_id',
  kind: 'select',
  choices: { resource: remarkTypes, label: 'label' },
};

export const autoReportCommentsScreen = defineScreen({
  resource: autoReportComments,
  page: PAGES.autoReportComments,
  columns: [
    { field: 'form' },
    { field: 'remarktype.label' },
    { field: 'score', label: 'fields.from' },
    { field: 'upper', label: 'fields.to' },
    { field: 'comment' },
  ],
  fields: [
    classField,
    remarkTypeField,
    { name: 'score', kind: 'number', label: 'fields.from', description: 'fields.autoFromHelp' },
    { name: 'upper', kind: 'number', label: 'fields.to', description: 'fields.autoToHelp' },
    { name: 'comment', kind: 'textarea', description: 'fields.autoCommentHelp' },
  ],
  filters: [classField, remarkTypeField],
  search: false,
});
