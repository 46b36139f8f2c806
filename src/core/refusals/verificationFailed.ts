/**
 * PRIOR_READ_VERIFICATION_FAILED: fail closed when the file cannot be checked. The wording of each situation lives
 * here, with its code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const verificationFailed = {
  unchecked(path: string, detail: string): Refusal {
    return refuse(
      'PRIOR_READ_VERIFICATION_FAILED',
      `ReadGate could not check ${displayPath(path)} (${detail}), so it refuses to act on it (fail closed). Nothing was changed. Check the file's permissions or try again later.`,
    );
  },
};
