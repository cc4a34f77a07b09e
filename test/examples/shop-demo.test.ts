import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyClient } from '../../packages/client/src/index.js';
import { startDemo, type RunningDemo } from '../../examples/shop/start-demo.js';
import { startOpenAIUpstream } from '../fakes/openai-upstream.js';
import { databaseUrlFor, testDialects } from '../support/harness.js';

const chromiumPath = '/usr/bin/chromium';
if (!existsSync(chromiumPath)) console.log(`[shop demo] ${chromiumPath} is missing: the browser test is SKIPPED (apt-get install chromium).`);

/** Collects the text of every non-streaming response the page receives. */
function recordBodies(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (!(response.headers()['content-type'] ?? '').includes('event-stream')) void response.text().then((text) => bodies.push(text), () => undefined);
  });
  return bodies;
}

async function say(page: Page, text: string): Promise<void> {
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
}

describe.skipIf(!existsSync(chromiumPath)).each(testDialects())('the shop demo in Chromium (%s)', (dialect) => {
  let demo: RunningDemo;
  let browser: Browser;
  beforeAll(async () => {
    demo = await startDemo({ parleyPort: 0, shopPort: 0, databaseUrl: databaseUrlFor(dialect), logLevel: 'silent' });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('navigates when asked and finishes the turn, with a panel shaped by personalization and prompts', async () => {
    const page = await browser.newPage();
    const bodies = recordBodies(page);
    await page.goto(demo.shopUrl);
    await page.waitForSelector('#chat-title:has-text("Help with your orders")');
    await page.waitForSelector('#chat-log li.assistant:has-text("I can take you to any screen")');
    await page.waitForSelector('#chat-prompts button:has-text("Take me to my orders")');

    await say(page, 'take me to my orders');
    await page.waitForSelector('body[data-screen="orders"]');
    await page.waitForSelector('#chat[data-turn="done"]');
    await expect(page.textContent('#screen h1')).resolves.toBe('Your orders');
    await page.waitForSelector('#chat-log li.assistant:has-text("you\'re on orders now")');
    expect(page.url()).toMatch(/#\/orders$/);
    // The suggestions follow the screen.
    await page.waitForSelector('#chat-prompts button:has-text("Apply coupon WELCOME10")');

    // The sdk key stayed on the shop's server.
    expect(bodies.length).toBeGreaterThan(3);
    expect(bodies.some((body) => body.includes(demo.tenant.sdkKey))).toBe(false);
    await page.close();
  });

  it('hands over to a human and shows the operator’s reply live, without a reload', async () => {
    const page = await browser.newPage();
    const bodies = recordBodies(page);
    await page.goto(`${demo.shopUrl}/#/help`);
    await page.waitForSelector('#chat-title:has-text("Help with your orders")');
    // A marker on the window must survive until the end: no reload happens.
    await page.evaluate(() => Object.assign(globalThis, { stillTheSamePage: true }));
    await say(page, 'I want to talk to a human');
    await page.waitForSelector('#chat[data-escalation="pending"]');
    await page.waitForSelector('#chat[data-turn="done"]');
    await expect(page.locator('#chat-log li.system').count()).resolves.toBe(0);

    const operator = new ParleyClient({ baseUrl: demo.parleyUrl, apiKey: demo.tenant.operatorKey }).operator;
    const { escalations } = await operator.queue();
    expect(escalations).toHaveLength(1);
    const escalationId = escalations[0]!.escalationId;
    await operator.reply(escalationId, 'Hi Ada, Grace here. How can I help?', { operatorName: 'Grace' });
    await page.waitForSelector('#chat-log li.human:has-text("Grace here")');
    await page.waitForSelector('#chat[data-escalation="active"]');

    // While a person has the conversation, the user's messages go to them, not to the AI.
    await say(page, 'My parcel is late');
    await expect.poll(async () => (await operator.detail(escalationId)).messages.map((message) => message.content)).toContain('My parcel is late');

    await operator.resolve(escalationId);
    await page.waitForSelector('#chat[data-escalation="resolved"]');
    await expect(page.evaluate(() => (globalThis as { stillTheSamePage?: boolean }).stillTheSamePage)).resolves.toBe(true);
    await page.screenshot({ path: 'test-results/shop-demo.png' });
    expect(bodies.some((body) => body.includes(demo.tenant.sdkKey))).toBe(false);
    await page.close();
  });

  it('runs the project’s applyCoupon action and reports its outcome to the model', async () => {
    const upstream = await startOpenAIUpstream();
    const scripted = await startDemo({ parleyPort: 0, shopPort: 0, databaseUrl: databaseUrlFor(dialect), logLevel: 'silent', model: 'openai-compatible:x', modelBaseUrl: upstream.baseUrl });
    try {
      upstream.enqueue({ text: 'Applying it.', toolCalls: [{ name: 'applyCoupon', args: { code: 'WELCOME10' } }] }, { text: 'Your coupon is applied.' });
      const page = await browser.newPage();
      await page.goto(`${scripted.shopUrl}/#/orders`);
      await page.waitForSelector('#chat-title:has-text("Help with your orders")');
      await say(page, 'use my coupon WELCOME10');
      await page.waitForSelector('#coupon:has-text("WELCOME10 applied")');
      await page.waitForSelector('#chat[data-turn="done"]');
      await page.waitForSelector('#chat-log li.assistant:has-text("Your coupon is applied.")');
      // The model was offered the catalog's type, and saw the page's context and the outcome.
      const first = JSON.stringify(upstream.requests[0]?.body);
      expect(first).toContain('applyCoupon');
      expect(first).toContain('orders table');
      expect(JSON.stringify(upstream.lastRequest().body)).toContain('coupon WELCOME10 applied');
      await page.close();
    } finally {
      await scripted.close();
      await upstream.close();
    }
  });
});
