// The demo's first folder: a web shop in TypeScript (Node API, React front end, Postgres).
import { type DemoFile, type DemoProject, demoFile as file } from './types';

const files: DemoFile[] = [
  file(
    'src/cart/total.ts',
    [
      'export function cartTotal(lines: CartLine[], coupon?: Coupon): number {',
      '  const gross = lines.reduce((sum, l) => sum + l.unitCents * l.qty, 0);',
      '  const discount = coupon ? gross * coupon.percent / 100 : 0;',
      '  return Math.round(gross - discount);',
      '}',
      '',
    ].join('\n'),
    [
      'export function cartTotal(lines: CartLine[], coupon?: Coupon): number {',
      '  let total = 0;',
      '  for (const line of lines) {',
      '    const gross = line.unitCents * line.qty;',
      '    // Round each discounted line, as the invoice does, so the two never differ by a cent.',
      '    const discount = coupon && appliesTo(coupon, line) ? Math.round((gross * coupon.percent) / 100) : 0;',
      '    total += gross - discount;',
      '  }',
      '  return total;',
      '}',
      '',
    ].join('\n'),
    'the coupon was taken off the whole cart and rounded once, while the invoice rounds each discounted line; now the total rounds per line, and only the lines the coupon applies to get it',
    "import { appliesTo, type Coupon } from './coupons';\n\nexport interface CartLine {\n  sku: string;\n  qty: number;\n  unitCents: number;\n}\n\n",
  ),
  file(
    'src/payments/gateway.ts',
    [
      'export async function charge(request: ChargeRequest): Promise<ChargeResult> {',
      '  const res = await fetch(`${GATEWAY_URL}/charges`, post(request));',
      '  return parse(res);',
      '}',
      '',
    ].join('\n'),
    [
      'export async function charge(request: ChargeRequest): Promise<ChargeResult> {',
      '  for (let attempt = 1; ; attempt++) {',
      '    const res = await fetch(`${GATEWAY_URL}/charges`, post(request, { idempotencyKey: request.orderId }));',
      '    if (res.status < 500 || attempt === MAX_ATTEMPTS) return parse(res);',
      '    await sleep(Math.min(200 * 2 ** attempt, 5_000) * (0.5 + Math.random() / 2));',
      '  }',
      '}',
      '',
    ].join('\n'),
    'a 5xx from the gateway is retried up to five times with jittered exponential backoff; the idempotency key (the order id) makes a retried charge safe',
    "import { parse, post, sleep } from './http';\nimport type { ChargeRequest, ChargeResult } from './types';\n\nconst GATEWAY_URL = process.env.GATEWAY_URL ?? 'https://pay.example.com/v2';\nconst MAX_ATTEMPTS = 5;\n\n",
  ),
  file(
    'src/checkout/CheckoutForm.tsx',
    [
      '  return (',
      '    <form onSubmit={pay}>',
      '      <AddressFields value={address} onChange={setAddress} />',
      '      <button type="submit">Pay {formatMoney(total)}</button>',
      '    </form>',
      '  );',
    ].join('\n'),
    [
      '  return (',
      '    <form onSubmit={pay} aria-busy={submitting}>',
      '      <AddressFields value={address} onChange={setAddress} />',
      '      <button type="submit" disabled={submitting}>',
      '        {submitting ? t("checkout.paying") : `${t("checkout.pay")} ${formatMoney(total)}`}',
      '      </button>',
      '    </form>',
      '  );',
    ].join('\n'),
    'the Pay button stays enabled while the charge is in flight, so a double click sends two orders; it is now disabled (and says so) until the request ends',
    "import { useState } from 'react';\nimport { useTranslation } from '../i18n';\nimport { formatMoney } from '../lib/money';\nimport { AddressFields } from './AddressFields';\n\nexport function CheckoutForm({ total, onPay }: CheckoutFormProps) {\n  const { t } = useTranslation();\n  const [address, setAddress] = useState(emptyAddress);\n  const [submitting, setSubmitting] = useState(false);\n  const pay = async (e: React.FormEvent) => {\n    e.preventDefault();\n    setSubmitting(true);\n    try {\n      await onPay(address);\n    } finally {\n      setSubmitting(false);\n    }\n  };\n",
    '\n}\n',
  ),
  file(
    'src/api/products.ts',
    '  const offset = page * pageSize + 1;\n  const rows = await db.query(LISTING_SQL, [category, pageSize, offset]);\n',
    '  const offset = (page - 1) * pageSize;\n  const rows = await db.query(LISTING_SQL, [category, pageSize, offset]);\n',
    'pages are numbered from 1 but the offset treated them as numbered from 0 and skipped one more row, so the first product of every page after the first went missing',
    "import { Router } from 'express';\nimport { db } from '../db';\nimport { LISTING_SQL } from '../../db/queries';\n\nexport const products = Router();\n\nproducts.get('/', async (req, res) => {\n  const page = Math.max(1, Number(req.query.page) || 1);\n  const pageSize = Math.min(100, Number(req.query.pageSize) || 24);\n  const category = String(req.query.category ?? 'all');\n",
    '  res.json({ page, pageSize, items: rows });\n});\n',
  ),
  file(
    'src/api/search.ts',
    "search.get('/', async (req, res) => {\n",
    "search.get('/', rateLimit({ windowMs: 60_000, limit: 60, keyBy: clientIp }), async (req, res) => {\n",
    'the search endpoint had no limit at all; each client IP now gets 60 requests a minute and a `429` with `Retry-After` past that',
    "import { Router } from 'express';\nimport { rateLimit } from '../server/rateLimit';\nimport { clientIp } from '../server/clientIp';\nimport { searchProducts } from '../search/index';\n\nexport const search = Router();\n\n",
    "  const q = String(req.query.q ?? '').trim().slice(0, 200);\n  res.json(await searchProducts(q));\n});\n",
  ),
  file(
    'src/shipping/rates.ts',
    '  if (subtotalCents > FREE_SHIPPING_CENTS) return 0;\n',
    '  if (subtotalCents >= FREE_SHIPPING_CENTS) return 0;\n',
    'the banner promises free shipping "from 50 €" but the check was strictly greater than, so a cart of exactly 50 € paid for shipping',
    "import type { Zone } from './zones';\n\nexport const FREE_SHIPPING_CENTS = 5_000;\n\nexport function shippingCents(subtotalCents: number, zone: Zone): number {\n",
    '  return zone.baseCents + (zone.remote ? 490 : 0);\n}\n',
  ),
  file(
    'src/orders/orderService.ts',
    '  async place(cart: Cart, customer: Customer): Promise<Order> {\n    // 140 lines: validate, reserve stock, charge, write the order, send the email\n',
    '  async place(cart: Cart, customer: Customer): Promise<Order> {\n    const valid = validateCart(cart);\n    const reservation = await this.stock.reserve(valid.lines);\n    const payment = await this.payments.charge(toCharge(valid, customer));\n    return this.orders.create(valid, customer, reservation, payment);\n',
    '`place()` did five jobs in 140 lines; each step is now a function with its own tests, and `place()` reads as the list of steps',
    "import { toCharge, validateCart } from './steps';\nimport type { Cart, Customer, Order } from './types';\n\nexport class OrderService {\n  constructor(\n    private readonly stock: StockClient,\n    private readonly payments: PaymentsClient,\n    private readonly orders: OrderRepository,\n  ) {}\n\n",
    '  }\n}\n',
  ),
  file(
    'src/styles/header.css',
    '.site-header {\n  background: #ffffff;\n  color: #1d1d1f;\n}\n',
    '.site-header {\n  background: var(--surface);\n  color: var(--text);\n}\n\n@media (prefers-color-scheme: dark) {\n  :root {\n    --surface: #16181d;\n    --text: #e8e8ed;\n  }\n}\n',
    'the header used fixed colours; it now reads the theme variables, which switch with `prefers-color-scheme`',
    ':root {\n  --surface: #ffffff;\n  --text: #1d1d1f;\n}\n\n',
  ),
  file(
    'src/styles/product-card.css',
    '.product-card .price {\n  font-weight: 600;\n}\n',
    '.product-card .price {\n  font-weight: 600;\n}\n\n.product-card .stock[data-level="low"] {\n  color: var(--warning);\n}\n\n.product-card .stock[data-level="out"] {\n  color: var(--muted);\n  text-decoration: line-through;\n}\n',
    'the stock badge gets a colour per level, from the theme variables',
    '.product-card {\n  display: grid;\n  gap: 0.5rem;\n  padding: 1rem;\n  border-radius: 12px;\n}\n\n',
  ),
  file(
    'db/migrations/0042_order_lines_discount.sql',
    '-- (new file)\n',
    'ALTER TABLE order_lines\n  ADD COLUMN discount_cents integer NOT NULL DEFAULT 0\n  CHECK (discount_cents >= 0);\n\nUPDATE order_lines ol\n   SET discount_cents = ol.unit_cents * ol.qty - ol.total_cents\n WHERE ol.total_cents < ol.unit_cents * ol.qty;\n',
    'the discount is stored per line, so an invoice can show it, and the old orders get it back from their totals',
    '-- 0042: store the discount of each order line\nBEGIN;\n\n',
    '\nCOMMIT;\n',
  ),
  file(
    'db/queries/product_listing.sql',
    "SELECT p.*, (SELECT sum(qty) FROM stock s WHERE s.sku = p.sku) AS in_stock\n  FROM products p\n WHERE p.category = $1 OR $1 = 'all'\n ORDER BY p.created_at DESC\n",
    "SELECT p.id, p.sku, p.name, p.price_cents, p.image_url, coalesce(s.in_stock, 0) AS in_stock\n  FROM products p\n  LEFT JOIN stock_totals s USING (sku)\n WHERE p.category = $1 OR $1 = 'all'\n ORDER BY p.created_at DESC, p.id\n",
    'the correlated subquery summed the stock once per product (2.3 s for 40,000 SKUs); a join on the `stock_totals` view with an index on `(category, created_at)` brings it to 38 ms',
    '-- The product grid: one page of a category, newest first.\n',
    'LIMIT $2 OFFSET $3;\n',
  ),
  file(
    '.github/workflows/ci.yml',
    '      - run: npm ci\n      - run: npm run test:e2e\n',
    '      - uses: actions/setup-node@v4\n        with:\n          node-version: 22\n          cache: npm\n      - run: npm ci\n      - run: npx playwright install --with-deps chromium\n      - run: npm run test:e2e\n        timeout-minutes: 15\n',
    'the e2e job downloaded every browser on every run and had no timeout; it now caches npm, installs only Chromium and stops after 15 minutes',
    'name: CI\non:\n  push:\n    branches: [main]\n  pull_request:\n\njobs:\n  e2e:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n',
  ),
  file(
    'Dockerfile',
    'FROM node:22\nWORKDIR /app\nCOPY . .\nRUN npm install\nCMD ["node", "dist/server.js"]\n',
    'FROM node:22-slim AS build\nWORKDIR /app\nCOPY package*.json ./\nRUN npm ci\nCOPY . .\nRUN npm run build && npm prune --omit=dev\n\nFROM gcr.io/distroless/nodejs22-debian12\nWORKDIR /app\nCOPY --from=build /app/node_modules ./node_modules\nCOPY --from=build /app/dist ./dist\nCMD ["dist/server.js"]\n',
    'a two-stage build: the image keeps only the built server and its production dependencies (1.21 GB to 184 MB)',
  ),
  file(
    'src/i18n/de.json',
    '  "checkout.pay": "Bezahlen",\n',
    '  "checkout.pay": "Bezahlen",\n  "checkout.paying": "Zahlung läuft…",\n  "checkout.address.title": "Lieferadresse",\n',
    'the German strings for the new checkout steps; the French file got the same keys',
    '{\n  "cart.empty": "Dein Warenkorb ist leer",\n',
    '  "checkout.thanks": "Danke für deine Bestellung!"\n}\n',
  ),
  file(
    'src/lib/money.ts',
    "  return (cents / 100).toFixed(2) + ' ' + currency;\n",
    '  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(cents / 100);\n',
    'prices were formatted by hand (`12.50 EUR`); `Intl.NumberFormat` writes them the way each locale expects (`12,50 €`, `€12.50`, `¥1,250`)',
    "export function formatMoney(cents: number, currency = 'EUR', locale = 'de-DE'): string {\n",
    '}\n',
  ),
  file(
    'src/server/logger.ts',
    'export const log = (msg: string) => console.log(new Date().toISOString(), msg);\n',
    "export const log = pino({\n  level: process.env.LOG_LEVEL ?? 'info',\n  redact: ['req.headers.authorization', 'payment.card'],\n  mixin: () => ({ requestId: requestContext.getStore()?.requestId }),\n});\n",
    'one JSON line per event with the request id from `AsyncLocalStorage`, and card data and auth headers redacted',
    "import pino from 'pino';\nimport { requestContext } from './requestContext';\n\n",
  ),
  file(
    'scripts/seed-dev-data.sh',
    'psql $DATABASE_URL -f db/seed.sql\n',
    'psql "$DATABASE_URL" --set ON_ERROR_STOP=1 -f db/seed.sql\nnpm run --silent images:placeholders -- --count "${PRODUCTS:-200}"\n',
    'the script stops at the first SQL error instead of carrying on, quotes the URL, and makes placeholder images for the seeded products',
    '#!/usr/bin/env bash\n# Fills the local database with products, customers and orders for development.\nset -euo pipefail\n\n',
    'echo "seeded ${PRODUCTS:-200} products"\n',
  ),
  file(
    'src/components/ProductGrid.tsx',
    '  if (loading) return null;\n',
    '  if (loading) return <div className="grid">{Array.from({ length: 12 }, (_, i) => <CardSkeleton key={i} />)}</div>;\n',
    'while the products load the grid shows twelve grey cards instead of nothing, so the page does not jump when they arrive',
    "import { CardSkeleton, ProductCard } from './ProductCard';\nimport { useProducts } from '../hooks/useProducts';\n\nexport function ProductGrid({ category }: { category: string }) {\n  const { products, loading } = useProducts(category);\n",
    '  return <div className="grid">{products.map((p) => <ProductCard key={p.id} product={p} />)}</div>;\n}\n',
  ),
  file(
    'README.md',
    '## Configuration\n\nSee `.env.example`.\n',
    '## Configuration\n\n| Variable | Default | What it does |\n| --- | --- | --- |\n| `DATABASE_URL` | — | Postgres connection string |\n| `GATEWAY_URL` | `https://pay.example.com/v2` | Payment gateway |\n| `LOG_LEVEL` | `info` | `debug`, `info`, `warn` or `error` |\n| `REDIS_URL` | — | Sessions and rate limits |\n',
    'every variable the server reads is in one table, with its default',
    '# acme-webshop\n\nThe Acme web shop: a Node API, a React storefront and Postgres.\n\n',
    '\n## Development\n\n```bash\nnpm ci && npm run dev\n```\n',
  ),
  file(
    'src/emails/orderConfirmation.ts',
    '    `Total: ${formatMoney(order.totalCents)}`,\n',
    '    `Net: ${formatMoney(order.netCents)}`,\n    ...order.vat.map((v) => `VAT ${v.rate}%: ${formatMoney(v.cents)}`),\n    `Total: ${formatMoney(order.totalCents)}`,\n',
    'the confirmation lists the net amount and the VAT per rate before the total, as an invoice must in Germany',
    "import { formatMoney } from '../lib/money';\nimport type { Order } from '../orders/types';\n\nexport function orderConfirmation(order: Order): string[] {\n  return [\n    `Thank you for your order ${order.number}.`,\n",
    '  ];\n}\n',
  ),
  file(
    'src/inventory/reservations.ts',
    'const RESERVATION_MS = 15 * 60 * 1000;\n',
    '// A reservation lives as long as a checkout may take; the sweeper frees it afterwards.\nconst RESERVATION_MS = Number(process.env.RESERVATION_MINUTES ?? 15) * 60 * 1000;\n',
    'the reservation time can be set per environment (staging uses 2 minutes to test expiry)',
    "import { db } from '../db';\n\n",
    "\nexport async function sweepExpired(now = Date.now()): Promise<number> {\n  const { rowCount } = await db.query('DELETE FROM reservations WHERE created_at < $1', [new Date(now - RESERVATION_MS)]);\n  return rowCount ?? 0;\n}\n",
  ),
];

function kind(path: string): string {
  if (path.endsWith('.css')) return 'css';
  if (path.endsWith('.sql')) return 'sql';
  if (path.endsWith('.yml')) return 'yaml';
  if (path.endsWith('.json')) return 'json';
  if (path.endsWith('.sh')) return 'sh';
  if (path.endsWith('.md')) return 'md';
  if (path === 'Dockerfile') return 'docker';
  return 'ts';
}

/** `src/cart/total.ts` → `test/cart/total.test.ts`. */
function testPath(path: string): string {
  return path.replace(/^src\//, 'test/').replace(/\.tsx?$/, '.test.ts');
}

/** Tests that follow-up turns add, by the file they test. */
export const tests: Record<string, string> = {
  'src/cart/total.ts': [
    "import { describe, expect, it } from 'vitest';",
    "import { cartTotal } from '../../src/cart/total';",
    '',
    "const SPRING10 = { code: 'SPRING10', percent: 10, skus: ['tea', 'honey'] };",
    "const tea = { sku: 'tea', qty: 1, unitCents: 999 };",
    "const honey = { sku: 'honey', qty: 1, unitCents: 495 };",
    "const mug = { sku: 'mug', qty: 1, unitCents: 1299 };",
    '',
    "describe('cartTotal with a coupon', () => {",
    "  it('rounds each discounted line, as the invoice does', () => {",
    '    expect(cartTotal([tea, honey], SPRING10)).toBe(1344);',
    '  });',
    '',
    "  it('leaves lines the coupon does not name at full price', () => {",
    '    expect(cartTotal([tea, mug], SPRING10)).toBe(2198);',
    '  });',
    '});',
    '',
  ].join('\n'),
  'src/shipping/rates.ts': [
    "import { expect, it } from 'vitest';",
    "import { FREE_SHIPPING_CENTS, shippingCents } from '../../src/shipping/rates';",
    '',
    "const zone = { id: 'de', baseCents: 490, remote: false };",
    '',
    "it('ships free from exactly the threshold', () => {",
    '  expect(shippingCents(FREE_SHIPPING_CENTS, zone)).toBe(0);',
    '  expect(shippingCents(FREE_SHIPPING_CENTS - 1, zone)).toBe(490);',
    '});',
    '',
  ].join('\n'),
  'src/api/products.ts': [
    "import request from 'supertest';",
    "import { expect, it } from 'vitest';",
    "import { app } from '../../src/server/app';",
    '',
    "it('pages without gaps: page 2 starts right after page 1', async () => {",
    "  const one = await request(app).get('/api/products?page=1&pageSize=24');",
    "  const two = await request(app).get('/api/products?page=2&pageSize=24');",
    '  expect(two.body.items[0].id).toBe(one.body.items.at(-1).id + 1);',
    '});',
    '',
  ].join('\n'),
  'src/lib/money.ts': [
    "import { expect, it } from 'vitest';",
    "import { formatMoney } from '../../src/lib/money';",
    '',
    'it.each([',
    "  [1250, 'EUR', 'de-DE', '12,50\u00a0€'],",
    "  [1250, 'EUR', 'en-IE', '€12.50'],",
    "  [125000, 'JPY', 'ja-JP', '￥1,250'],",
    "])('formats %i %s for %s', (cents, currency, locale, shown) => {",
    '  expect(formatMoney(cents, currency, locale)).toBe(shown);',
    '});',
    '',
  ].join('\n'),
};

export const webshop: DemoProject = {
  name: 'acme-webshop',
  files,
  extra: {
    'package.json':
      JSON.stringify(
        {
          name: 'acme-webshop',
          version: '2.14.0',
          private: true,
          type: 'module',
          scripts: {
            dev: 'tsx watch src/server/main.ts',
            test: 'vitest',
            lint: 'eslint .',
            typecheck: 'tsc -p . --noEmit',
          },
        },
        null,
        2,
      ) + '\n',
    'CHANGELOG.md': '# Changelog\n\n## Unreleased\n\n',
    'src/cart/coupons.ts':
      'export interface Coupon {\n  code: string;\n  percent: number;\n  /** The SKUs the coupon takes money off. */\n  skus: string[];\n}\n\nexport const appliesTo = (c: Coupon, line: { sku: string }) => c.skus.includes(line.sku);\n',
  },
  lint: {
    command: 'npm run lint && npm run typecheck',
    output: '> acme-webshop@2.14.0 lint\n> eslint .\n\n> acme-webshop@2.14.0 typecheck\n> tsc -p . --noEmit\n\n',
  },
  tests,
  testPath,
  check(f) {
    switch (kind(f.path)) {
      case 'css':
        return { command: 'npx stylelint "src/styles/**/*.css"', output: '✔ 14 files checked, no problems\n' };
      case 'sql':
        return {
          command: 'npm run db:migrate && npm test -- db',
          output:
            '> acme-webshop@2.14.0 db:migrate\n> node-pg-migrate up\n\nMigrating files: 0042_order_lines_discount\n### MIGRATION 0042_order_lines_discount (UP) ###\nMigrations complete!\n\n ✓ test/db/orderLines.test.ts (6 tests) 212ms\n ✓ test/db/productListing.test.ts (4 tests) 98ms\n\n Test Files  2 passed (2)\n      Tests  10 passed (10)\n',
        };
      case 'yaml':
        return {
          command: 'npx action-validator .github/workflows/ci.yml',
          output: '.github/workflows/ci.yml: valid\n',
        };
      case 'json':
        return { command: 'npm run i18n:check', output: 'de: 212 keys, fr: 212 keys, en: 212 keys: no key missing\n' };
      case 'sh':
        return { command: 'shellcheck scripts/seed-dev-data.sh', output: '' };
      case 'md':
        return { command: 'npx markdownlint-cli2 README.md', output: 'Summary: 0 error(s)\n' };
      case 'docker':
        return {
          command: 'docker build -t acme-webshop:dev . && docker image ls acme-webshop:dev',
          output:
            '[+] Building 48.2s (14/14) FINISHED\n => [build 4/6] RUN npm ci                                    21.4s\n => [build 6/6] RUN npm run build && npm prune --omit=dev      12.9s\n => exporting to image                                          1.1s\n\nREPOSITORY     TAG   IMAGE ID       CREATED         SIZE\nacme-webshop   dev   4f0c1b7e9a2d   2 seconds ago   184MB\n',
        };
      default: {
        const test = testPath(f.path);
        return {
          command: `npx vitest run ${test}`,
          output: ` RUN  v3.2.4 /workspace/acme-webshop\n\n ✓ ${test} (7 tests) 31ms\n\n Test Files  1 passed (1)\n      Tests  7 passed (7)\n   Start at  14:02:11\n   Duration  412ms\n`,
        };
      }
    }
  },
};
