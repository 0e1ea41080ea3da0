// A /graphql answer is at most MAX_ANSWER_BYTES. The operation cost (src/graphql/armor.ts) bounds
// the rows an operation can ask for before it runs; this bounds what it sends, whatever the rows
// hold (long texts written by the back office, say). The answer is serialized against that budget
// and given up at the first value past it: the client gets a 400 naming the limit, as for the other
// GraphQL limits, and the process never holds the oversize text. REST pages are bounded by their
// page rules.
import type { ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import { BadRequestError, graphqlErrorResponse } from '../platform/errors';
import { logger } from '../platform/logger';

/**
 * 5 MiB: the largest legitimate answers (a year's report by link at its largest page, a hundred
 * keys' audit events, a delivery's 50 attempts with their answers) are a few hundred KiB.
 */
export const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

export class AnswerTooLarge extends Error {}

/** Characters JSON writes as escapes (`\u0001` is six characters). */
const ESCAPED = /[\u0000-\u001f"\\]/;

/** A string's length as JSON writes it. */
const jsonLength = (text: string) =>
  ESCAPED.test(text) ? JSON.stringify(text).length : text.length + 2;

/**
 * JSON.stringify that gives up once the text it has written passes `maxBytes`: it counts each key
 * and value as it goes (characters as JSON writes them, with separators), and the finished text is
 * measured in bytes.
 */
export function boundedStringify(maxBytes: number) {
  return (value: unknown): string => {
    let written = 0;
    const text = JSON.stringify(value, (key, item: unknown) => {
      written += key.length + 4;
      if (typeof item === 'string') written += jsonLength(item);
      else if (typeof item === 'number') written += 8;
      if (written > maxBytes) throw new AnswerTooLarge();
      return item;
    });
    if (Buffer.byteLength(text) > maxBytes) throw new AnswerTooLarge();
    return text;
  };
}

type ResultProcessor = typeof processRegularResult;

/** yoga's JSON result processor, refusing an answer over `maxBytes` with a 400 naming the limit. */
export function boundedResultProcessor(maxBytes: number = MAX_ANSWER_BYTES): ResultProcessor {
  const stringify = boundedStringify(maxBytes);
  return (result, fetchAPI, acceptedMediaType) => {
    try {
      return processRegularResult(
        { ...(result as ExecutionResult), stringify } as never,
        fetchAPI,
        acceptedMediaType,
      );
    } catch (error) {
      if (!(error instanceof AnswerTooLarge)) throw error;
      logger.info({ limit: 'maxAnswerBytes' }, 'GraphQL answer refused');
      const message = `Answer size limit of ${maxBytes} bytes exceeded: ask for fewer rows, fields or aliases`;
      return graphqlErrorResponse(new BadRequestError(message));
    }
  };
}
