/**
 * Request bodies of the organisation API → checked inputs, with zod. As in the /v1 API: unknown
 * fields and wrong types are `parse_exception`, values outside the vocabulary
 * `action_request_validation_exception`, both 400.
 */
import { z } from 'zod';
import { BadRequestError } from '../../common/index.js';
import { indexPatternProblem } from '../index-pattern.js';
import { ORG_PERMISSIONS } from './org-permissions.js';

const name = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .refine((v) => v === v.trim(), 'must not begin or end with whitespace')
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'must not contain control characters');

const indexPattern = z.string().superRefine((value, ctx) => {
  const problem = indexPatternProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
});

// owner: the subject of the first owner; the creating user when omitted
const accountInput = z.strictObject({ name, owner: name.optional() });

const userInput = z.strictObject({ subject: name, role: name });

const roleChangeInput = z.strictObject({ role: name });

const roleInput = z.strictObject({
  name,
  permissions: z.array(z.enum(ORG_PERMISSIONS)).transform((v) => [...new Set(v)]),
  /** where holders may search; every role can view data, so at least one pattern */
  indexes: z
    .array(indexPattern)
    .min(1, 'must name at least one index pattern')
    .default(['*'])
    .transform((v) => [...new Set(v)]),
});

const cardInput = z.strictObject({
  holder: name,
  brand: z.string().regex(/^[A-Za-z][A-Za-z ]{0,31}$/, 'must be a card brand such as visa or mastercard'),
  last4: z.string().regex(/^[0-9]{4}$/, 'must be the last four digits of the card number'),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2100),
});

const invoiceInput = z.strictObject({
  number: name,
  issued_on: z.iso.date(),
  amount_cents: z.number().int().nonnegative(),
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as EUR').transform((v) => v.toUpperCase()),
  status: z.enum(['open', 'paid', 'void']),
});

export type AccountInput = z.infer<typeof accountInput>;
export type OrgUserInput = z.infer<typeof userInput>;
export type OrgRoleInput = z.infer<typeof roleInput>;
export type CardInput = z.infer<typeof cardInput>;
export type InvoiceInput = z.infer<typeof invoiceInput>;

function parser<T>(schema: z.ZodType<T>, what: string): (body: Record<string, unknown> | undefined) => T {
  return (body) => {
    if (body === undefined) throw new BadRequestError(`request body is required for ${what}`, 'parse_exception');
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    throw toBadRequest(result.error, what);
  };
}

/** One problem, named by field, in the /v1 API's error vocabulary; unknown fields first. */
function toBadRequest(error: z.ZodError, what: string): BadRequestError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  const field = issue.path.length > 0 ? `[${issue.path.join('.')}] of ${what}` : what;
  if (issue.code === 'unrecognized_keys') {
    const number = issue.keys.includes('number') ? ': the service keeps only the brand and the last four digits of a card' : '';
    return new BadRequestError(`unknown field [${issue.keys.join(', ')}] in ${what}${number}`, 'parse_exception');
  }
  if (issue.code === 'invalid_type') {
    const missing = issue.message.includes('received undefined');
    return missing
      ? new BadRequestError(`field ${field} is required`, 'action_request_validation_exception')
      : new BadRequestError(`${field} must be of type ${issue.expected}`, 'parse_exception');
  }
  return new BadRequestError(`${field}: ${issue.message}`, 'action_request_validation_exception');
}

export const parseAccountInput = parser(accountInput, 'an organisation account');
export const parseOrgUserInput = parser(userInput, 'an organisation user');
export const parseRoleChangeInput = parser(roleChangeInput, 'a role change');
export const parseOrgRoleInput = parser(roleInput, 'an organisation role');
export const parseCardInput = parser(cardInput, 'a card');
export const parseInvoiceInput = parser(invoiceInput, 'an invoice');
