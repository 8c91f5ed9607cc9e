/**
 * Comments (issue 16): what is wrong with a subject comment, a generic skills text or a save of
 * them, said to the teacher. Registered as `comments` in MESSAGE_CATALOGUES (messages.ts), so
 * each text is in every locale under `messages.comments.<key>`.
 */
export const COMMENT_MESSAGES = {
  tooLong: 'A comment has at most 1,000 characters',
  controlCharacters: 'A comment cannot contain control characters: only text, tabs and new lines',
  learnerNotInClass: 'This learner is not one of the chosen class and stream of this school',
  subjectUnknown: 'Choose a subject of this school',
  tooMany: 'A save holds at most 2,000 comments',
  notAssigned: 'You are not assigned to write comments in this subject for this class in this term',
  conflict: 'Someone else changed these comments since you opened them',
  repeated: 'This comment is sent twice (its ids differ only in capitals)',
  newCurriculumClass: 'This class follows the new curriculum this year: its subject comments are written on New Curriculum Comments',
  oldCurriculumClass: 'This class follows the old curriculum this year: its subject comments are written on Subject Comments',
} as const;
