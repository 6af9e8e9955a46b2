import { builtinProfile } from './builtin.js';
import { defineProfileOp } from './declare.js';

export { decodeProfileMessage } from './declare.js';

export const profileGenerate = defineProfileOp({
  name: 'profile.generate',
  needs: ['requestKey', 'bank'] as const,
  runsOn: 'any',
  summary: 'Synthetic QA profile (built-in engine)',
  description:
    'A synthetic person of one country from the built-in engine (faker locales per country; provider "builtin"), with a quality score.',
  path: '/profile',
  rpc: 'Profile',
  run: builtinProfile,
});
