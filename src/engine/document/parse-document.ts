/**
 * A document line's JSON text → the object to build a document from, with the Elasticsearch
 * errors of a line that is not JSON or not an object (the item fails, the request goes on).
 */
import { BadRequestError, jsonKind } from '../../common/index.js';

export function parseDocumentText(text: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new BadRequestError(`failed to parse: ${(err as Error).message}`, 'mapper_parsing_exception');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new BadRequestError(`failed to parse, document is not a JSON object but a JSON ${jsonKind(doc)}`, 'mapper_parsing_exception');
  }
  return doc as Record<string, unknown>;
}
