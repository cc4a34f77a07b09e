import { Type } from 'typebox';

/** Ids arrive in paths and bodies; bounding them keeps junk out of queries and logs. */
export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const SessionIdParams = Type.Object({ sessionId: Id('session id (ses_…)') });
export const IdParams = Type.Object({ id: Id('resource id') });

export const Message = Type.Object({ message: Type.String() });
