/**
 * The web console in headless Chromium against the real server with access control on: sign-in,
 * a query with its count, rows and marked words, a syntax error at its position, the time range,
 * zooming the histogram, a document, paging back, top values as filters, live tail, indexes,
 * creating and revoking an API key; a read-only key shown no action it may not take; an
 * organisation owner inviting, changing a role, removing, rotating a data key and seeing billing,
 * and a viewer shown none of those actions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser.js';
import { shipLine, startFixture, stopFixture, type Fixture } from './fixture.js';

let fixture: Fixture;
let browser: Browser;
let context: BrowserContext;
let page: Page;

interface SearchBody {
  query: { bool: { filter: Array<{ range: { _ts: { gte: number; lte?: number } } }> } };
  sort?: unknown;
  aggs?: unknown;
  highlight?: { fields: Record<string, unknown> };
}

async function signIn(p: Page, key: string): Promise<void> {
  await p.goto(`${fixture.node.url}/_console/`);
  await p.fill('input[name=api-key]', key);
  await p.click('button[type=submit]');
}

async function hitCount(p: Page): Promise<number> {
  return Number(await p.getAttribute('.hit-count', 'data-count'));
}

/** Waits until the count shown is `n` (the page's own code runs in the browser, not here). */
async function countShown(p: Page, n: number): Promise<void> {
  await p.locator(`.hit-count[data-count="${n}"]`).waitFor();
}

/** An expression evaluated in the page (sessionStorage, layout), written as text: it runs in the browser. */
const stored = (p: Page, expression: string) => p.evaluate(expression);

/** Runs `action` and returns the body of the `_search` it makes. */
async function searchMadeBy(p: Page, action: () => Promise<void>): Promise<SearchBody> {
  const [req] = await Promise.all([p.waitForRequest((r) => r.url().endsWith('/_search') && r.postData()?.includes('over_time') === true), action()]);
  return JSON.parse(req.postData()!) as SearchBody;
}

before(async () => {
  [fixture, browser] = await Promise.all([startFixture(), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
  // a step that waits longer than this has failed: fail it soon, with the step named
  context.setDefaultTimeout(5000);
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  if (fixture !== undefined) await stopFixture(fixture);
});

describe('the console, signed in as an administrator', () => {
  it('is served at /_console/ without a credential, and refuses a bad key with 401', async () => {
    const res = await page.goto(`${fixture.node.url}/_console`);
    assert.equal(res?.status(), 200);
    assert.ok(page.url().endsWith('/_console/'), page.url());
    await screenshot(page, '01-sign-in');
    await signIn(page, 'svc_not-a-key-of-this-service');
    await page.waitForSelector('[role=alert][data-status="401"]');
    assert.equal(await stored(page, 'sessionStorage.length'), 0);
  });

  it('signs in with a key kept in session storage only, never in the URL', async () => {
    await signIn(page, fixture.admin);
    await page.waitForSelector('.hit-count');
    assert.equal(await stored(page, "sessionStorage.getItem('svc.console.credential')"), fixture.admin);
    assert.equal(await stored(page, "localStorage.getItem('svc.console.credential')"), null);
    assert.ok(!page.url().includes(fixture.admin));
    // the last 24 hours hold all 120 lines of logs-app and the lines of the other indexes
    assert.equal(await hitCount(page), 122);
    assert.deepEqual(await page.locator('nav a').allTextContents(), ['Discover', 'Indexes', 'Access control']);
  });

  it('runs a query: the right count, the newest rows first, the matching words marked', async () => {
    await page.fill('input[name=indexes]', 'logs-*');
    // `/` types itself into a field; from anywhere else it jumps to the query box
    await page.locator('input[name=indexes]').blur();
    await page.keyboard.press('/');
    await page.keyboard.type('timeout');
    await page.keyboard.press('Enter');
    await countShown(page, 40);
    const expected = fixture.lines.filter((l) => l._line.includes('timeout'));
    const rows = await page.locator('tr.hit td.line').allTextContents();
    assert.equal(rows.length, 40);
    assert.deepEqual(rows, expected.map((l) => l._line));
    const marks = await page.locator('tr.hit mark').allTextContents();
    assert.equal(marks.length, 40);
    assert.ok(marks.every((m) => m === 'timeout'));
    await screenshot(page, '02-discover');
  });

  it('shows a syntax error at the position the service names', async () => {
    await page.fill('input[name=query]', 'timeout AND (upstream');
    await page.keyboard.press('Enter');
    const error = page.locator('.query-error');
    await error.waitFor();
    assert.equal(await error.getAttribute('data-position'), '12');
    assert.equal(await error.locator('.at').textContent(), '(');
    assert.equal(await page.getAttribute('input[name=query]', 'aria-invalid'), 'true');
    await screenshot(page, '03-syntax-error');
    // the arrow key brings back the last query that ran
    await page.fill('input[name=query]', '');
    await page.press('input[name=query]', 'ArrowUp');
    assert.equal(await page.inputValue('input[name=query]'), 'timeout AND (upstream');
  });

  it('narrows to a relative range, then zooms to what is dragged across on the histogram', async () => {
    await page.fill('input[name=query]', '');
    await page.click('button[name=time-range]');
    const hour = await searchMadeBy(page, () => page.click('.popover button:has-text("Last hour")'));
    const hourRange = hour.query.bool.filter[0]!.range._ts;
    assert.equal(hourRange.lte! - hourRange.gte, 3_600_000);
    // lines one a minute, the newest a minute old: the last hour holds 59 or 60 of them
    await page.locator('.hit-count[data-count="59"], .hit-count[data-count="60"]').waitFor();

    const chart = await page.locator('.histogram .u-over').boundingBox();
    assert.ok(chart);
    const y = chart.y + chart.height / 2;
    const zoomed = await searchMadeBy(page, async () => {
      await page.mouse.move(chart.x + chart.width * 0.25, y);
      await page.mouse.down();
      await page.mouse.move(chart.x + chart.width * 0.5, y, { steps: 5 });
      await page.mouse.up();
    });
    const { gte, lte = NaN } = zoomed.query.bool.filter[0]!.range._ts;
    // a quarter of the hour, from a quarter of the way in
    assert.ok(Math.abs(lte - gte - 900_000) < 120_000, `zoomed span ${lte - gte} ms`);
    assert.ok(Math.abs(gte - (hourRange.gte + 900_000)) < 120_000);
    const inRange = fixture.lines.filter((l) => l._ts >= gte && l._ts <= lte).length;
    await countShown(page, inRange);
    assert.match((await page.textContent('button[name=time-range]'))!, /→/);
    await screenshot(page, '04-zoomed');
  });

  it('takes a range in date math, and names what is wrong with a bad one', async () => {
    await page.click('button[name=time-range]');
    await page.fill('.popover input[name=from]', 'now-15x');
    const problem = page.locator('#from-problem');
    await problem.waitFor();
    assert.match((await problem.textContent())!, /now-15x.*unit \[x\]/);
    assert.equal(await page.getAttribute('.popover input[name=from]', 'aria-invalid'), 'true');
    assert.equal(await page.isDisabled('button[name=apply-range]'), true);
    await screenshot(page, '20-date-math-error');

    await page.fill('.popover input[name=from]', 'now-30m');
    await page.fill('.popover input[name=to]', 'now');
    const last30 = await searchMadeBy(page, () => page.click('button[name=apply-range]'));
    const span = last30.query.bool.filter[0]!.range._ts;
    assert.equal(span.lte! - span.gte, 1_800_000);
    assert.equal(await page.textContent('button[name=time-range]'), 'now-30m → now');

    // rounding, in the browser's time zone: from the start of today
    await page.click('button[name=time-range]');
    await page.fill('.popover input[name=from]', 'now/d');
    const today = await searchMadeBy(page, () => page.press('.popover input[name=from]', 'Enter'));
    assert.equal(today.query.bool.filter[0]!.range._ts.gte, Number(await stored(page, 'new Date().setHours(0, 0, 0, 0)')));

    // absolute ISO dates, both ends included: eleven lines a minute apart
    const from = new Date(fixture.lines[20]!._ts).toISOString();
    const to = new Date(fixture.lines[10]!._ts).toISOString();
    await page.click('button[name=time-range]');
    await page.fill('.popover input[name=from]', from);
    await page.fill('.popover input[name=to]', to);
    const absolute = await searchMadeBy(page, () => page.click('button[name=apply-range]'));
    assert.deepEqual(absolute.query.bool.filter[0]!.range._ts, { gte: fixture.lines[20]!._ts, lte: fixture.lines[10]!._ts, format: 'epoch_millis' });
    await countShown(page, 11);
  });

  it('opens a document with its fields', async () => {
    await page.click('button[name=time-range]');
    await page.click('.popover button:has-text("Last 24 hours")');
    await page.fill('input[name=query]', 'timeout');
    await page.keyboard.press('Enter');
    await countShown(page, 40);
    await page.click('tr.hit >> nth=0');
    const panel = page.locator('.doc-panel');
    await panel.waitFor();
    const newest = fixture.lines.find((l) => l._line.includes('timeout'))!;
    assert.equal(await panel.locator('tr[data-field=_line] td:last-child').textContent(), newest._line);
    assert.equal(await panel.locator('tr[data-field=level] td:last-child').textContent(), newest.level);
    assert.equal(await panel.locator('tr[data-field=_ts] td:last-child').textContent(), String(newest._ts));
    await screenshot(page, '05-document');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  });

  it('pages back with search_after', async () => {
    await page.fill('input[name=query]', '');
    await page.keyboard.press('Enter');
    await countShown(page, 120);
    assert.equal(await page.locator('tr.hit').count(), 50);
    const [req] = await Promise.all([page.waitForRequest((r) => r.postData()?.includes('search_after') === true), page.click('button[name=older]')]);
    const body = JSON.parse(req.postData()!) as { search_after: unknown[] };
    assert.equal(body.search_after[0], fixture.lines[49]!._ts);
    await page.locator('tr.hit >> nth=99').waitFor();
    await page.click('button[name=older]');
    await page.locator('tr.hit >> nth=119').waitFor();
    assert.equal(await page.locator('button[name=older]').count(), 0);
    const rows = await page.locator('tr.hit td.line').allTextContents();
    assert.deepEqual(rows, fixture.lines.map((l) => l._line));
  });

  it('shows the top values of a field and filters them in and out', async () => {
    await page.click('.fields-panel button[data-field=level]');
    const values = page.locator('ul[data-values-of=level] li');
    await values.first().waitFor();
    assert.deepEqual(await values.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-value'))), ['info', 'error', 'warn']);
    await screenshot(page, '06-fields');
    await page.click('button[aria-label="Filter in level error"]');
    const errors = fixture.lines.filter((l) => l.level === 'error').length;
    await countShown(page, errors);
    assert.equal(await page.inputValue('input[name=query]'), 'level:"error"');
    await page.click('button[aria-label="Filter out level error"]');
    await countShown(page, 0);
    assert.equal(await page.inputValue('input[name=query]'), '(level:"error") AND NOT level:"error"');
  });

  it('tails: asks only for what is newer than the newest row, and a line shipped now appears on top', async () => {
    await page.fill('input[name=query]', 'tailed');
    await page.keyboard.press('Enter');
    await countShown(page, 0);
    const tailRound = (gte?: number) =>
      page.waitForRequest((r) => {
        if (!r.url().endsWith('/_search') || r.postData()?.includes('"asc"') !== true) return false;
        return gte === undefined || (JSON.parse(r.postData()!) as SearchBody).query.bool.filter[0]!.range._ts.gte === gte;
      });
    const first = tailRound();
    await page.check('input[name=tail]');
    const round = JSON.parse((await first).postData()!) as SearchBody;
    // oldest first, no histogram, no end: only what is new
    assert.deepEqual(round.sort, [{ _ts: 'asc' }]);
    assert.equal(round.aggs, undefined);
    assert.equal(round.query.bool.filter[0]!.range._ts.lte, undefined);

    await shipLine(fixture, 'a tailed line arrives');
    await page.waitForSelector('tr.hit.fresh', { timeout: 8000 });
    assert.equal(await page.textContent('tr.hit.fresh td.line'), 'a tailed line arrives');
    assert.equal(await hitCount(page), 1);
    // the next rounds start at the new row's time, and do not show it twice
    const shipped = await fetch(`${fixture.node.url}/logs-app/_search?q=tailed`, { headers: { authorization: `Bearer ${fixture.admin}` } });
    const ts = ((await shipped.json()) as { hits: { hits: Array<{ _source: { _ts: number } }> } }).hits.hits[0]!._source._ts;
    await tailRound(ts);
    await tailRound(ts);
    assert.equal(await page.locator('tr.hit').count(), 1);
    assert.equal(await hitCount(page), 1);
    await page.uncheck('input[name=tail]');
  });

  it('lists indexes with counts, shows a mapping, and deletes an index once its name is typed', async () => {
    await page.click('nav a:has-text("Indexes")');
    await page.waitForSelector('tr[data-index=scratch]');
    assert.deepEqual(await page.locator('.index-list tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-index'))), ['logs-app', 'scratch', 'secrets']);
    assert.equal(await page.textContent('tr[data-index=logs-app] td:nth-child(2)'), '121');
    // the administrator may delete every index: each row has its button
    await page.locator('.index-list[aria-busy=false]').waitFor();
    assert.equal(await page.locator('.index-list button:has-text("Delete")').count(), 3);
    await page.click('tr[data-index=logs-app] a');
    await page.waitForSelector('.mapping tr[data-key=service]');
    assert.equal(await page.textContent('.mapping tr[data-key=level] code'), 'keyword');
    await screenshot(page, '07-indexes');
    await page.click('button[aria-label="Delete scratch"]');
    const confirm = page.locator('dialog button:has-text("Delete index")');
    assert.equal(await confirm.isDisabled(), true);
    await page.fill('dialog input[name=confirm]', 'scratch');
    await confirm.click();
    await page.waitForSelector('tr[data-index=scratch]', { state: 'detached' });
    const res = await fetch(`${fixture.node.url}/scratch`, { method: 'HEAD', headers: { authorization: `Bearer ${fixture.admin}` } });
    assert.equal(res.status, 404);
  });

  it('creates an API key, shows it once, and revokes it', async () => {
    await page.click('nav a:has-text("Access control")');
    await page.waitForSelector('table[data-name="api keys"] tr[data-key=reader]');
    await page.fill('input[name=key-name]', 'shipper');
    await page.selectOption('select[name=key-role]', 'logs-reader');
    await page.click('button:has-text("Create key")');
    const shown = page.locator('[data-api-key]');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    assert.match(key, /^svc_[A-Za-z0-9_-]{55}$/);
    await screenshot(page, '08-api-key-created');
    const count = (k: string) => fetch(`${fixture.node.url}/logs-app/_count`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.status);
    assert.equal(await count(key), 200);
    await page.click('button:has-text("Done")');
    assert.equal(await shown.count(), 0);

    await page.click('button[aria-label="Revoke shipper"]');
    await page.click('dialog button:has-text("Revoke")');
    await page.waitForSelector('tr[data-key=shipper]', { state: 'detached' });
    assert.equal(await count(key), 401);
  });

  it('creates a role and a role mapping to it, and deletes both', async () => {
    await page.click('button[role=tab][data-tab=roles]');
    await page.waitForSelector('table[data-name=roles] tr[data-key=logs-reader]');
    await page.fill('input[name=role-name]', 'auditor');
    await page.check('input[name=database][value=monitor]');
    await page.fill('input[name=role-patterns]', 'logs-*, audit');
    await page.check('input[name=actions][value=write]');
    await page.click('button:has-text("Create role")');
    await page.waitForSelector('table[data-name=roles] tr[data-key=auditor]');
    const roles = await (await fetch(`${fixture.node.url}/v1/roles`, { headers: { authorization: `Bearer ${fixture.admin}` } })).json();
    const auditor = (roles as Array<{ name: string; database: string[]; indexes: unknown }>).find((r) => r.name === 'auditor');
    assert.deepEqual(auditor && { database: auditor.database, indexes: auditor.indexes }, { database: ['monitor'], indexes: [{ names: ['logs-*', 'audit'], permissions: ['read', 'write'] }] });
    await screenshot(page, '09-roles');

    await page.click('button[role=tab][data-tab=mappings]');
    await page.fill('input[name=mapping-name]', 'idp-auditors');
    await page.fill('input[name=mapping-roles]', 'auditor');
    await page.click('button:has-text("Create mapping")');
    await page.waitForSelector('table[data-name="role mappings"] tr[data-key=idp-auditors]');
    assert.equal(await page.textContent('tr[data-key=idp-auditors] td:nth-child(2)'), 'auditor');
    await page.click('button[aria-label="Delete idp-auditors"]');
    await page.click('dialog button:has-text("Delete")');
    await page.waitForSelector('tr[data-key=idp-auditors]', { state: 'detached' });

    await page.click('button[role=tab][data-tab=roles]');
    await page.click('button[aria-label="Delete auditor"]');
    await page.click('dialog button:has-text("Delete")');
    await page.waitForSelector('tr[data-key=auditor]', { state: 'detached' });
  });

  it("marks the words the service's highlight names, and shows a line holding markup as text", async () => {
    const line = '<img src=x onerror="document.title=1"> <b>bold</b> marker';
    await shipLine(fixture, line, 'markup');
    await page.click('nav a:has-text("Discover")');
    await page.waitForSelector('.hit-count');
    await page.fill('input[name=indexes]', 'markup');
    await page.fill('input[name=query]', 'marker OR bold');
    const body = await searchMadeBy(page, () => page.keyboard.press('Enter'));
    assert.ok(body.highlight?.fields._line);
    await countShown(page, 1);
    assert.equal(await page.textContent('tr.hit td.line'), line);
    assert.equal(await page.locator('tr.hit td.line img, tr.hit td.line b').count(), 0);
    assert.deepEqual(await page.locator('tr.hit td.line mark').allTextContents(), ['bold', 'marker']);
    await page.fill('input[name=indexes]', '*');
    await page.fill('input[name=query]', '');
    await page.keyboard.press('Enter');
  });

  it('fits a narrow screen, in the dark theme', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.click('nav a:has-text("Discover")');
    await page.waitForSelector('.hit-count');
    await page.click('button[aria-label="Switch to dark theme"]');
    assert.equal(await page.getAttribute('html', 'data-theme'), 'dark');
    await screenshot(page, '10-narrow-dark');
    const overflow = Number(await stored(page, 'document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  });

  it('signs out and forgets the key', async () => {
    await page.click('button:has-text("Sign out")');
    await page.waitForSelector('input[name=api-key]');
    assert.equal(await stored(page, 'sessionStorage.length'), 0);
  });
});

describe('the console, signed in with a key that may only read logs-*', () => {
  let reader: Page;
  before(async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    reader = await ctx.newPage();
    await signIn(reader, fixture.reader);
    await reader.waitForSelector('.hit-count');
  });

  it('sees only what the key may read, and no access control', async () => {
    assert.deepEqual(await reader.locator('nav a').allTextContents(), ['Discover', 'Indexes']);
    // `*` covers the readable indexes only: the 121 lines of logs-app, not secrets
    assert.equal(await hitCount(reader), 121);
    await reader.click('nav a:has-text("Indexes")');
    await reader.waitForSelector('tr[data-index=logs-app]');
    assert.equal(await reader.locator('.index-list tbody tr').count(), 1);
  });

  it('sees no delete button and no access control screen', async () => {
    await reader.locator('.index-list[aria-busy=false]').waitFor();
    assert.equal(await reader.locator('.index-list button').count(), 0);
    await screenshot(reader, '11-reader-indexes');

    // opened by its address, the screen is not drawn, and nothing is asked of /v1
    const asked: string[] = [];
    reader.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await reader.goto(`${fixture.node.url}/_console/#/access`);
    await reader.waitForSelector('[data-unavailable=access]');
    assert.equal(await reader.locator('button[role=tab]').count(), 0);
    assert.deepEqual(asked.filter((p) => p.startsWith('/v1/')), []);
    assert.deepEqual(await reader.locator('nav a').allTextContents(), ['Discover', 'Indexes']);
    await screenshot(reader, '12-reader-no-access');
  });

  it('is refused with 403 where it names an index it may not read', async () => {
    await reader.goto(`${fixture.node.url}/_console/#/discover`);
    await reader.waitForSelector('.hit-count');
    await reader.fill('input[name=indexes]', 'secrets');
    await reader.press('input[name=indexes]', 'Enter');
    await reader.waitForSelector('[role=alert][data-status="403"]');
    assert.match((await reader.textContent('[role=alert]'))!, /secrets/);
    await screenshot(reader, '13-refused-index');
  });
});

describe('the console, signed in by an organisation owner with a token', () => {
  let owner: Page;
  const member = async (subject: string) => {
    const res = await fetch(`${fixture.node.url}/v1/org/users`, { headers: { authorization: `Bearer ${fixture.owner}` } });
    return ((await res.json()) as Array<{ subject: string; role: string }>).find((u) => u.subject === subject);
  };

  before(async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    ctx.setDefaultTimeout(5000);
    owner = await ctx.newPage();
    await signIn(owner, fixture.owner);
    await owner.waitForSelector('.hit-count');
    await owner.click('nav a:has-text("Access control")');
    await owner.waitForSelector('table[data-name=org-users] tr[data-key=vera]');
  });

  it('shows the organisation, its users and roles, and the tabs the role allows: no /v1 records', async () => {
    assert.equal(await owner.getAttribute('button[role=tab][aria-selected=true]', 'data-tab'), 'org');
    assert.match((await owner.textContent('.org-name'))!, /acme/);
    assert.match((await owner.textContent('.whoami'))!, /olivia · owner/);
    assert.deepEqual(await owner.locator('table[data-name=org-users] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-key'))), ['olivia', 'vera']);
    assert.equal(await owner.inputValue('select[aria-label="Role of vera"]'), 'viewer');
    await owner.waitForSelector('table[data-name=org-roles] tr[data-key=owner]');
    // a member's token holds no manage_security: no tab for the /v1 records
    assert.deepEqual(await owner.locator('button[role=tab]').allTextContents(), ['Organisation', 'Data keys', 'Billing']);
    await screenshot(owner, '14-organisation');
  });

  it('invites a user, changes the role, and removes the user', async () => {
    await owner.fill('input[name=invite-subject]', 'nina');
    await owner.selectOption('select[name=invite-role]', 'viewer');
    await owner.click('form[aria-label="Invite a user"] button[type=submit]');
    await owner.waitForSelector('table[data-name=org-users] tr[data-key=nina]');
    assert.equal((await member('nina'))?.role, 'viewer');

    await owner.selectOption('select[aria-label="Role of nina"]', 'contributor');
    await owner.waitForSelector('[role=status]:has-text("nina now holds the role contributor")');
    assert.equal((await member('nina'))?.role, 'contributor');
    assert.equal(await owner.inputValue('select[aria-label="Role of nina"]'), 'contributor');
    await screenshot(owner, '15-organisation-role-changed');

    await owner.click('button[aria-label="Remove nina"]');
    await owner.click('dialog button:has-text("Remove")');
    await owner.waitForSelector('table[data-name=org-users] tr[data-key=nina]', { state: 'detached' });
    assert.equal(await member('nina'), undefined);
  });

  it('rotates a data key: the new value is shown once and the old one stops working', async () => {
    await owner.click('button[role=tab][data-tab=org-keys]');
    await owner.waitForSelector('table[data-name=org-api-keys] tr[data-key=fluent-bit]');
    // administrators' keys stay with the /v1 API
    assert.equal(await owner.locator('table[data-name=org-api-keys] tr[data-key=admin]').count(), 0);
    await owner.click('button[aria-label="Rotate fluent-bit"]');
    await owner.click('dialog button:has-text("Rotate")');
    const shown = owner.locator('[data-api-key]');
    await shown.waitFor();
    const rotated = (await shown.textContent())!;
    assert.match(rotated, /^svc_[A-Za-z0-9_-]{55}$/);
    assert.notEqual(rotated, fixture.fluentBit);
    await screenshot(owner, '16-data-key-rotated');
    const count = (k: string) => fetch(`${fixture.node.url}/logs-app/_count`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.status);
    assert.equal(await count(fixture.fluentBit), 401);
    assert.equal(await count(rotated), 200);
    await owner.click('button:has-text("Done")');
    assert.equal(await shown.count(), 0);
  });

  it('shows billing: the card on file and the invoices', async () => {
    await owner.click('button[role=tab][data-tab=billing]');
    await owner.waitForSelector('[data-card="4242"]');
    assert.match((await owner.textContent('.card-on-file'))!, /visa ending in 4242, expires 08\/2031/);
    const invoice = owner.locator('table[data-name=invoices] tr[data-key="INV-2024-001"]');
    await invoice.waitFor();
    assert.deepEqual(await invoice.locator('td').allTextContents(), ['INV-2024-001', '2024-03-01', '€129.00', 'paid']);
    await screenshot(owner, '17-billing');
  });

  it('fits a narrow screen in the dark theme', async () => {
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.click('button[role=tab][data-tab=org]');
    await owner.waitForSelector('table[data-name=org-users] tr[data-key=vera]');
    await owner.click('button[aria-label="Switch to dark theme"]');
    await screenshot(owner, '18-organisation-narrow-dark');
    const overflow = Number(await stored(owner, 'document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
  });
});

describe('the console, signed in by a viewer of the organisation', () => {
  it('shows the users and roles with no action: no role picker, removal, invitation, data keys or billing', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    ctx.setDefaultTimeout(5000);
    const viewer = await ctx.newPage();
    await signIn(viewer, fixture.viewer);
    await viewer.waitForSelector('.hit-count');
    await viewer.click('nav a:has-text("Access control")');
    await viewer.waitForSelector('table[data-name=org-users] tr[data-key=olivia]');
    assert.deepEqual(await viewer.locator('button[role=tab]').allTextContents(), ['Organisation']);
    assert.equal(await viewer.textContent('table[data-name=org-users] tr[data-key=vera] td:nth-child(2)'), 'viewer');
    assert.equal(await viewer.locator('.org-users select, .org-users button, form[aria-label="Invite a user"]').count(), 0);
    await screenshot(viewer, '19-organisation-viewer');
    await ctx.close();
  });
});
