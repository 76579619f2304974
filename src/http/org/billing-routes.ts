/**
 * The account's billing records: the card (brand, last four digits, expiry and holder; the
 * service never takes a card number) and invoices.
 */
import type { FastifyInstance } from 'fastify';
import { parseCardInput, parseInvoiceInput, type BillingCard, type OrgService, type StoredInvoice } from '../../auth/index.js';
import { NotFoundError } from '../../common/index.js';
import { jsonObjectBody } from '../request-body.js';
import { orgActor } from './org-actor.js';

interface CardWire {
  holder: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  updated_at: string;
}

interface InvoiceWire {
  id: number;
  number: string;
  issued_on: string;
  amount_cents: number;
  currency: string;
  status: string;
  created_at: string;
}

export function registerBillingRoutes(app: FastifyInstance, service: OrgService): void {
  app.get('/v1/org/billing/card', async (): Promise<CardWire> => {
    const card = await service.getCard();
    if (card === undefined) throw new NotFoundError('no card is on file for the account');
    return cardWire(card);
  });
  app.put('/v1/org/billing/card', async (request): Promise<CardWire> => {
    return cardWire(await service.updateCard(parseCardInput(jsonObjectBody(request.body)), orgActor(request)));
  });
  app.get('/v1/org/billing/invoices', async (): Promise<InvoiceWire[]> => (await service.listInvoices()).map(invoiceWire));
  app.post('/v1/org/billing/invoices', async (request): Promise<InvoiceWire> => {
    return invoiceWire(await service.recordInvoice(parseInvoiceInput(jsonObjectBody(request.body)), orgActor(request)));
  });
}

function cardWire(card: BillingCard): CardWire {
  return { holder: card.holder, brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear, updated_at: card.updatedAt };
}

function invoiceWire(invoice: StoredInvoice): InvoiceWire {
  return {
    id: invoice.id,
    number: invoice.number,
    issued_on: invoice.issuedOn,
    amount_cents: invoice.amountCents,
    currency: invoice.currency,
    status: invoice.status,
    created_at: invoice.createdAt,
  };
}
