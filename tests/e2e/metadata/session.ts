/**
 * One logged-in browser page per persona and language, shared by every screen the suite opens as
 * that persona (login once). It watches the page's API traffic: the requests in flight (to know when
 * a screen has settled), the records each list and record call returned (to know what the rows and
 * buttons must show), the writes (a cancelled dialog must send none) and every string the server
 * sent as data (user data may be in either language).
 */
import { expect, type Browser, type BrowserContext, type Page, type Request, type Response } from '@playwright/test';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { loginPage } from '../pages/shell.ts';
import type { Persona } from './plan.ts';

export type Rec = Record<string, unknown>;

const API = /\/(api|supplierApi|connect)\//;

/** the desktop window of the suite; PHONE: the phone of issue 21 (an iPhone 12-14's CSS pixels) */
export const DESKTOP = { width: 1280, height: 720 };
export const PHONE = { width: 390, height: 844 };

export class Session {
  readonly page: Page;
  /** strings the server sent as data (records, the account, warehouse names) */
  readonly data = new Set<string>();
  /** resource -> the rows of its last list call */
  readonly lists = new Map<string, Rec[]>();
  /** "resource/id" -> the record of its last get */
  readonly records = new Map<string, Rec>();
  /** writes sent (method and path), for "a cancelled dialog sends nothing" */
  readonly writes: string[] = [];
  /** a phone's window (PHONE): the suite checks the mobile mode instead of the desktop's details */
  phone = false;
  private inFlight = new Set<Request>();
  private parsing = new Set<Promise<void>>();

  private constructor(
    readonly context: BrowserContext,
    page: Page,
    readonly persona: Persona,
    readonly locale: Locale,
  ) {
    this.page = page;
    // the notification stream (Server-Sent Events) stays open while the page lives: never "in flight" work
    const tracked = (r: Request) =>
      ['fetch', 'xhr'].includes(r.resourceType()) && API.test(r.url()) && !(r.headers()['accept'] ?? '').includes('text/event-stream');
    page.on('request', (r) => {
      if (!tracked(r)) return;
      this.inFlight.add(r);
      if (r.method() !== 'GET') this.writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    page.on('requestfailed', (r) => this.inFlight.delete(r));
    page.on('requestfinished', (r) => this.inFlight.delete(r));
    page.on('response', (res) => {
      if (!tracked(res.request()) || res.status() !== 200 || !(res.headers()['content-type'] ?? '').includes('json')) return;
      const job = this.read(res).finally(() => this.parsing.delete(job));
      this.parsing.add(job);
    });
  }

  /**
   * Logs the persona in through the login page, in the language, at its warehouse (nobody: the
   * login page only), in a window of the given size (a desktop's by default; a phone's: touch too).
   */
  static async open(browser: Browser, baseURL: string, persona: Persona, locale: Locale, viewport = DESKTOP): Promise<Session> {
    const phone = viewport.width < DESKTOP.width;
    const context = await browser.newContext({ baseURL, locale, viewport, ...(phone ? { hasTouch: true, isMobile: true, deviceScaleFactor: 1 } : {}) });
    const page = await context.newPage();
    const s = new Session(context, page, persona, locale);
    s.phone = phone;
    // the login page loads the app's files (untimed): nobody's first public page is then timed as
    // a logged-in user's screens are, with the browser's cache warm
    await loginPage.open(page);
    if (persona.user === null) {
      // its calls (the warehouse list) end here: a call cut short by the next page load may never report its end
      await s.idle();
      return s;
    }
    await loginPage.chooseLanguage(page, locale);
    await loginPage.submit(page, persona.user, { warehouse: persona.warehouse as 'PDC01' | 'PDC02' });
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('layout')).toBeVisible();
    await s.idle();
    return s;
  }

  async close(): Promise<void> {
    await this.context.close();
  }

  private async read(res: Response): Promise<void> {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      return; // the page moved on; the body is gone
    }
    collectStrings(body, this.data);
    const req = res.request();
    if (req.method() !== 'GET') return;
    const path = new URL(res.url()).pathname.split('/').filter(Boolean); // api, resource[, id]
    if (path[0] !== 'api') return;
    if (path.length === 2 && Array.isArray(body)) this.lists.set(path[1], body as Rec[]);
    if (path.length === 3 && body && typeof body === 'object' && !Array.isArray(body)) this.records.set(`${path[1]}/${path[2]}`, body as Rec);
  }

  /** Where the page is and the API calls still running: what a failed visit reports. */
  whereabouts(): string {
    const running = [...this.inFlight].map((r) => `${r.method()} ${new URL(r.url()).pathname}`);
    return `at ${new URL(this.page.url()).pathname}${running.length ? `, API calls running: ${running.join(', ')}` : ''}`;
  }

  /** Waits until no API call is in flight (nor being read) for a moment. */
  async idle(quietMs = 100, timeoutMs = 15_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    let quietSince = Date.now();
    while (Date.now() < until) {
      if (this.inFlight.size || this.parsing.size) {
        await Promise.all([...this.parsing]);
        quietSince = Date.now();
      } else if (Date.now() - quietSince >= quietMs) return;
      await this.page.waitForTimeout(25);
    }
    throw new Error(`API calls still running after ${timeoutMs} ms: ${[...this.inFlight].map((r) => r.url()).join(', ')}`);
  }
}

function collectStrings(v: unknown, into: Set<string>, depth = 0): void {
  if (depth > 6 || v === null || v === undefined) return;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t) into.add(t);
    // a JSON text (an interface message's payload) is shown indented
    if (/^[[{]/.test(t))
      try {
        into.add(JSON.stringify(JSON.parse(t), null, 2));
      } catch {
        /* not JSON */
      }
  } else if (Array.isArray(v)) for (const x of v) collectStrings(x, into, depth + 1);
  else if (typeof v === 'object') for (const x of Object.values(v)) collectStrings(x, into, depth + 1);
}
