import { describe, expect, it } from 'vitest';
import { allows, defineAbilityFor, isAdministrator, permissionsMap } from './abilities.js';
import { classOptions } from './classes.js';

const teacher = {
  roles: [
    {
      name: 'teacher',
      permissions: [
        { subject_class: 'mark', action: 'create' },
        { subject_class: 'remark', action: 'manage' },
      ],
    },
  ],
};

describe('abilities (spec §6)', () => {
  it('admins pass every check: is_admin, admin, or a role named superadmin', () => {
    for (const user of [{ is_admin: true }, { admin: true }, { roles: [{ name: 'SuperAdmin' }] }]) {
      expect(isAdministrator(user)).toBe(true);
      expect(defineAbilityFor(user).can('delete', 'student')).toBe(true);
    }
    expect(isAdministrator(teacher)).toBe(false);
  });

  it('a role grants exactly its pairs; manage grants every action on its subject', () => {
    const ability = defineAbilityFor(teacher);
    expect(ability.can('create', 'mark')).toBe(true);
    expect(ability.can('manage', 'mark')).toBe(false);
    expect(ability.can('delete', 'remark')).toBe(true);
    expect(ability.can('manage', 'remark')).toBe(true);
    expect(ability.can('read', 'student')).toBe(false);
  });

  it('an empty required subject always passes', () => {
    const nobody = defineAbilityFor({ roles: [] });
    expect(allows(nobody, 'manage', '')).toBe(true);
    expect(allows(nobody, 'manage', undefined)).toBe(true);
    expect(allows(nobody, 'manage', 'student')).toBe(false);
  });

  it('builds the profile permissions map, subject -> actions, without duplicates', () => {
    expect(
      permissionsMap([
        ...teacher.roles,
        {
          permissions: [
            { subject_class: 'mark', action: 'create' },
            { subject_class: 'mark', action: 'read' },
          ],
        },
      ]),
    ).toEqual({
      mark: ['create', 'read'],
      remark: ['manage'],
    });
  });
});

describe('classOptions (spec §3)', () => {
  it('gives S1..S6 to secondary schools whatever their forms', () => {
    expect(classOptions({ schooltype: 'secondary', forms: 'P1,P2' })).toEqual(['S1', 'S2', 'S3', 'S4', 'S5', 'S6']);
  });
  it('gives a primary school its own forms, trimmed, else the default list', () => {
    expect(classOptions({ schooltype: 'primary', forms: ' Baby , Middle,Top ,, ' })).toEqual(['Baby', 'Middle', 'Top']);
    expect(classOptions({ schooltype: 'primary', forms: '' })).toEqual([
      'Nursery',
      'Kinder',
      'Pre-primary',
      'P1',
      'P2',
      'P3',
      'P4',
      'P5',
      'P6',
      'P7',
    ]);
    expect(classOptions({})).toHaveLength(10);
  });
});
