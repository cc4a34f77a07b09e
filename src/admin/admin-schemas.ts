import { Type } from 'typebox';
import { Id } from '../http/common-schemas.js';

export const ProjectIdParams = Type.Object({ projectId: Id('project id (prj_…)') });
export const KeyIdParams = Type.Object({ keyId: Id('API key id (key_…)') });
