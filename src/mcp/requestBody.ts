/**
 * An HTTP request's body, read up to the cap of one message (protocolErrors.ts) and never beyond: a body that
 * declares a larger Content-Length is refused before a byte of it is read, and a chunked one is refused the
 * moment it passes the cap. Reading stops there; the caller answers 413 and closes the connection, so the rest
 * is neither kept nor read. (The server used to read every body to its end, keeping it up to the cap, and
 * answer 413 only then.)
 */
import type * as http from 'http';
import { MAX_MESSAGE_BYTES } from './protocolErrors';

export type BodyRead = { kind: 'body'; bytes: Buffer } | { kind: 'tooLarge'; declared?: number };

/** The Content-Length a request declares, when it is over the cap. */
export function declaredTooLarge(request: http.IncomingMessage, max = MAX_MESSAGE_BYTES): number | undefined {
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared > max ? declared : undefined;
}

export function readBody(request: http.IncomingMessage, max = MAX_MESSAGE_BYTES): Promise<BodyRead> {
  const declared = declaredTooLarge(request, max);
  if (declared !== undefined) return Promise.resolve({ kind: 'tooLarge', declared });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      stop();
      request.pause();
      chunks.length = 0;
      resolve({ kind: 'tooLarge' });
    };
    const onEnd = (): void => {
      stop();
      resolve({ kind: 'body', bytes: Buffer.concat(chunks) });
    };
    const onError = (error: Error): void => {
      stop();
      reject(error);
    };
    // The client went away before the end of its body: nothing to answer.
    const onClose = (): void => onError(new Error('the client closed the connection before the end of its request'));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('close', onClose);
  });
}
