/**
 * Scroll ids: 24 random bytes, base64url (32 characters). The id is only a handle; the scroll's
 * position, indexes and owner live in the store, so nothing internal can leak through it.
 */
import { randomBytes } from 'node:crypto';
import { BadRequestError, NotFoundError } from '../../../common/index.js';

const ID_BYTES = 24;
const ID_SHAPE = /^[A-Za-z0-9_-]{32}$/;

export function newScrollId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** Throws Elasticsearch's 400 for a string that cannot be a scroll id. */
export function assertScrollIdShape(id: string): void {
  if (!ID_SHAPE.test(id)) throw new BadRequestError('Cannot parse scroll id');
}

/** Unknown, expired, cleared, or owned by another actor: all look the same. */
export function scrollMissing(id: string): NotFoundError {
  return new NotFoundError(`No search context found for id [${id}]`, 'search_context_missing_exception');
}
