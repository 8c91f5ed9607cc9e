import { uuidv7 } from 'uuidv7';

/** Row ids: UUID v7 (time-ordered, so indexes stay compact), made here: PostgreSQL 15 has no uuidv7(). */
export const newId = (): string => uuidv7();
