/** BINARY_FILE: binary content: no read can help. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { type Refusal, refuse } from './refusal';

export const binaryFile = {
  binary(path: string, type: string, size: number, verb: string): Refusal {
    return refuse(
      'BINARY_FILE',
      `${displayPath(path)} is binary (${type}, ${formatCount(size)} bytes); ReadGate ${verb} text files only. Reading it again will not help: use a tool made for this format.`,
    );
  },
};
