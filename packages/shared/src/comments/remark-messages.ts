/**
 * Report comments (issue 16 points 2 to 5): what is wrong with a learner's remark, a save or a
 * deletion, said to the teacher. Registered in MESSAGE_CATALOGUES as `remarks`.
 */
export const REMARK_MESSAGES = {
  keyInvalid: 'Comments are keyed rt_<remark type id>, then s_<learner id>',
  tooMany: 'Save at most 2,000 comments at once',
  categoryInvalid: 'Choose a report type: assesment, exam or mid term',
  remarkTypeUnknown: 'There is no such remark type in this school',
  remarkTypeInactive: 'This remark type is inactive',
  remarkTypeNotForClass: 'This remark type is not used for this class',
  learnerNotInClass: 'This learner is not in the chosen class and stream for the term',
  learnerUnknown: 'There is no such learner in this school',
  notClassTeacher: 'You may write report comments only for the classes you are class teacher of in this term',
  headTeacherOnly: "Only the head teacher (those who manage remarks) may write the head teacher's remarks",
  conflict: 'Someone else changed this comment since you opened it',
  deleted: 'Remarks have been deleted successfully',
  newCurriculumClass: 'This class follows the new curriculum this year: its report comments are written on New Curriculum Remarks',
  oldCurriculumClass: 'This class follows the old curriculum this year: its report comments are written on Report Comments',
} as const;
