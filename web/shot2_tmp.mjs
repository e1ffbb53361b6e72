import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
const [file, out, time, dx, dy] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
page.setDefaultTimeout(600000);
await page.goto(pathToFileURL(file).href);
await page.waitForFunction(() => window.pabdPlayer?.ready, null, { timeout: 600000 });
await page.evaluate((t) => { window.pabdPlayer.pause(); window.pabdPlayer.setTime(t); }, Number(time));
await page.mouse.move(640, 300);
await page.mouse.down();
for (let k = 1; k <= 4; ++k) await page.mouse.move(640 + (Number(dx) * k) / 4, 300 + (Number(dy) * k) / 4);
await page.mouse.up();
await page.waitForTimeout(20000);
writeFileSync(out, await page.screenshot({ timeout: 600000 }));
await browser.close();
