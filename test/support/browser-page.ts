// A page for the browser tests: a fresh Chromium context that sees the admin as a merchant in Panama does and that
// nothing leaves the machine from (the product is all on loopback).
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium.ts';

const ON_MACHINE = ['127.0.0.1', 'localhost'];

export interface PageOptions {
  viewport: { width: number; height: number };
  /** Default es-PA. */
  locale?: string;
  /** Default America/Panama. */
  timezoneId?: string;
  /** What becomes of a request for anywhere off the machine; by default it fails as it would offline. */
  offMachine?: (route: Route) => Promise<void>;
}

/** A page in a new context of `browser`, with a 10 s default timeout for its actions. */
export async function offlinePage(browser: Browser, o: PageOptions): Promise<Page> {
  const context = await browser.newContext({
    viewport: o.viewport,
    locale: o.locale ?? 'es-PA',
    timezoneId: o.timezoneId ?? 'America/Panama',
  });
  await context.route((url) => !ON_MACHINE.includes(url.hostname), o.offMachine ?? ((route) => route.abort('internetdisconnected')));
  context.setDefaultTimeout(10_000);
  return context.newPage();
}

/** Chromium for a describe block: launched before its tests (after the hooks registered earlier), closed after them. */
export function chromiumForBlock(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('Chromium starts in beforeAll');
      return browser;
    },
  };
}
