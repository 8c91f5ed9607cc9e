/**
 * Who writes a remark type (issue 23 item 8). A class teacher writes the remarks of the classes
 * they are class teacher of; the head teacher's remarks are written only by those who manage
 * remarks (the head teacher, the administrator), since they print on the card over the head
 * teacher's name.
 *
 * Remark types carry no writer of their own (spec §3: label, category, classes, ...), so the
 * head teacher's are known by their label: one that names the head of the school (head teacher,
 * headmaster or headmistress, principal, the head's) is the head teacher's, and so are its sub
 * categories. Every other remark type (the class teacher's comment, conduct, skills and values)
 * is the class teacher's. A label that is unclear errs towards the head teacher: a class teacher
 * refused a remark asks the head teacher, while a remark written in the head's name cannot be
 * taken back from the printed card.
 */

/** Words that, run together, name the head of the school ("Head Teacher's" reads "headteachers"). */
const HEAD_OF_SCHOOL = ['headteacher', 'headmaster', 'headmistress'];
/** Words that name the head alone ("Head's comment", "HM's remarks", "Principal"). */
const HEAD_WORDS = new Set(['head', 'heads', 'hm', 'hms', 'principal', 'principals']);

/** Whether a label names the head of the school. */
export function namesHeadTeacher(label: string): boolean {
  const words = label.toLowerCase().split(/[^\p{L}]+/u);
  const joined = words.join('');
  return HEAD_OF_SCHOOL.some((name) => joined.includes(name)) || words.some((word) => HEAD_WORDS.has(word));
}

export interface RemarkTypeOwner {
  id: string;
  label: string;
  parent_id: string | null;
}

/** Whether the remark type is the head teacher's: its label, or its parent's, names the head. */
export function isHeadTeacherRemark(type: RemarkTypeOwner, all: ReadonlyMap<string, RemarkTypeOwner>): boolean {
  if (namesHeadTeacher(type.label)) return true;
  const parent = type.parent_id ? all.get(type.parent_id) : undefined;
  return parent !== undefined && namesHeadTeacher(parent.label);
}
