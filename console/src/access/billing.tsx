/**
 * The account's billing records for `read:billing`: the card on file (brand, last four digits,
 * expiry, holder; the service never holds a card number) and the invoices.
 */
import { ApiError, type Api } from '../api/index.js';
import { ErrorView, SimpleTable, formatTime, useLoad } from '../ui/index.js';

interface Card {
  holder: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  updated_at: string;
}

interface Invoice {
  id: number;
  number: string;
  issued_on: string;
  amount_cents: number;
  currency: string;
  status: string;
}

/** The card, or null when none is on file (the service answers 404). */
async function cardOnFile(client: Api): Promise<Card | null> {
  try {
    return await client.get<Card>('/v1/org/billing/card');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

function amount(invoice: Invoice): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: invoice.currency }).format(invoice.amount_cents / 100);
}

export function Billing({ client }: { client: Api }) {
  const card = useLoad(() => cardOnFile(client), [client]);
  const invoices = useLoad(() => client.get<Invoice[]>('/v1/org/billing/invoices'), [client]);
  return (
    <div class="split billing">
      <div class="table-scroll">
        <h4>Invoices</h4>
        {invoices.error !== undefined && <ErrorView error={invoices.error} />}
        {invoices.value !== undefined && invoices.value.length === 0 && <p class="muted">No invoices yet.</p>}
        {invoices.value !== undefined && invoices.value.length > 0 && (
          <SimpleTable
            name="invoices"
            items={invoices.value}
            rowKey={(i) => i.number}
            columns={[
              ['Invoice', (i) => i.number],
              ['Issued', (i) => i.issued_on],
              ['Amount', (i) => <span class="num">{amount(i)}</span>],
              ['Status', (i) => <span class={`status-${i.status}`}>{i.status}</span>],
            ]}
          />
        )}
      </div>
      <article class="card-on-file">
        <h4>Card on file</h4>
        {card.error !== undefined && <ErrorView error={card.error} />}
        {card.value === null && <p class="muted">No card is on file.</p>}
        {card.value != null && (
          <p data-card={card.value.last4}>
            <strong>{card.value.brand}</strong> ending in <strong>{card.value.last4}</strong>, expires {String(card.value.exp_month).padStart(2, '0')}/{card.value.exp_year}
            <br />
            <span class="muted">
              {card.value.holder} · updated {formatTime(Date.parse(card.value.updated_at))}
            </span>
          </p>
        )}
      </article>
    </div>
  );
}
