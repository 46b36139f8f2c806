/** CANCELLED: cancelled calls and a disposed guard. The wording of each situation lives here, with its code. */
import { type Refusal, refuse } from './refusal';

export const callCancelled = {
  cancelled(): Refusal {
    return refuse('CANCELLED', 'The call was cancelled; no file was modified.');
  },
  disposed(): Refusal {
    return refuse('CANCELLED', 'ReadGate has shut down (the guard was disposed); no file was modified.');
  },
};
