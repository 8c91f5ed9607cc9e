/* The streams a class sheet's filter offers (issue 23 item 18), apart from the select so it is tested alone. */

/** A class and stream a member is limited to (a subject teacher's assignment); no stream is the whole class. */
export interface TaughtStream {
  form: string;
  stream: string | null;
}

/** Streams and classes are compared as the server does: trimmed, case ignored. */
export const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The streams offered for a class: its learners' streams, narrowed to those a limited member teaches (all of them for a whole-class assignment). */
export function streamChoices(
  classes: ReadonlyArray<{ form: string; streams: readonly string[] }>,
  form: string | null,
  taught: readonly TaughtStream[] | null,
): string[] {
  if (!form) return [];
  const streams = classes.filter((each) => same(each.form, form)).flatMap((each) => each.streams);
  if (!taught) return streams;
  const held = taught.filter((each) => same(each.form, form));
  if (held.some((each) => !each.stream?.trim())) return streams;
  return streams.filter((stream) => held.some((each) => each.stream !== null && same(each.stream, stream)));
}
