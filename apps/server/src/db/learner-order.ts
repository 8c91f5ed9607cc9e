import { sql } from 'kysely';

/**
 * The one order of learners on every screen, sheet and card of a class: surname, then first
 * name, as the class list and every school's register have them (issue 23 item 17). A teacher
 * pastes a column typed from the register into the marks grid, so a grid in any other order puts
 * each mark on someone else; other names and the student id only break ties.
 *
 * `qb.$call(byLearnerName('s'))` orders by the columns of the learners' table under that alias.
 */
export function byLearnerName(table?: string) {
  const column = (name: string) => sql.ref(table ? `${table}.${name}` : name);
  // Typed loosely on purpose, as inTenant: Kysely's builders share `orderBy` but no common generic type.
  return <QB extends { orderBy(...args: any[]): any }>(qb: QB): QB =>
    qb.orderBy(column('lastname')).orderBy(column('firstname')).orderBy(column('othername')).orderBy(column('studentid')) as QB;
}
