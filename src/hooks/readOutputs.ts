/**
 * What a client's read tool returned, as the guard matches it against the file (`ShownOutput`), from the text the
 * client gives the model and its hooks alike (`tool_response.llmContent`): Gemini CLI's and Qwen Code's read_file
 * say "Showing lines A-B of N total lines." above a part of a file (Gemini inside its "IMPORTANT: The file content
 * has been truncated." note, then "--- FILE CONTENT (truncated) ---"; Qwen Code then "---"), and return a whole
 * file as it is. Lines they shorten ("... [truncated]") match no line of the file, so they do not count.
 */
import type { ShownOutput } from '../core/index';

const SHOWING = /Showing lines (\d+)-(\d+) of \d+ total lines\./;
/** Where the file's lines start after the note, by client. */
const CONTENT_STARTS = ['\n--- FILE CONTENT (truncated) ---\n', '\n\n---\n\n'];

export function readOutput(content: unknown): ShownOutput | undefined {
  if (typeof content !== 'string') return undefined;
  const showing = SHOWING.exec(content.slice(0, 1000));
  if (!showing) return { output: content, form: 'plain', first: 1, last: -1 };
  const marker = CONTENT_STARTS.map((each) => ({ each, at: content.indexOf(each, showing.index) })).find(({ at }) => at >= 0);
  if (!marker) return undefined;
  return { output: content.slice(marker.at + marker.each.length), form: 'plain', first: Number(showing[1]), last: Number(showing[2]) };
}
