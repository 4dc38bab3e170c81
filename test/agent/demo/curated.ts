// The session the README's chat screenshot shows, written out in full: a thought, a plan, a
// search, a read, an explanation with code, a diff, a test run, a table; then a test and a
// commit with one command the user declined.
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { console_, followUpTurn, oldText, tool, type TurnScope } from './turns';
import type { DemoFile } from './types';
import { tests } from './webshop';

const text = (t: string) => ({ type: 'text' as const, text: t });

export function showcaseHistory(scope: TurnScope, f: DemoFile): SessionUpdate[] {
  const abs = (p: string) => `${scope.cwd}/${p}`;
  const id = (n: string) => `${scope.idPrefix}_${n}`;
  const testPath = 'test/cart/total.test.ts';
  const testRun = {
    command: 'npx vitest run test/cart',
    output: [
      ' RUN  v3.2.4 /workspace/acme-webshop',
      '',
      ' ✓ test/cart/coupons.test.ts (5 tests) 9ms',
      ' ✓ test/cart/total.test.ts (2 tests) 4ms',
      ' ✓ test/invoices/lines.test.ts (6 tests) 12ms',
      '',
      ' Test Files  3 passed (3)',
      '      Tests  13 passed (13)',
      '   Duration  388ms',
      '',
    ].join('\n'),
  };
  return [
    {
      sessionUpdate: 'user_message_chunk',
      content: text(
        'Customers with the SPRING10 coupon sometimes pay a cent more or less than their invoice says, and one said the coupon took money off a mug it does not cover. The total is computed in `src/cart/total.ts`.',
      ),
    },
    {
      sessionUpdate: 'agent_thought_chunk',
      content: text(
        'A one-cent difference between two totals is almost always rounding done at different places. The invoice has to show a discount per line, so it probably rounds per line. And a discount on a mug means the coupon is applied without checking its SKUs.',
      ),
    },
    {
      sessionUpdate: 'plan',
      entries: [
        { content: 'Find where the cart and the invoice compute the discount', priority: 'high', status: 'completed' },
        {
          content: 'Round per discounted line, only on the lines the coupon names',
          priority: 'high',
          status: 'completed',
        },
        { content: 'Prove it with the numbers from the support ticket', priority: 'medium', status: 'completed' },
        { content: 'Run the cart and invoice tests', priority: 'medium', status: 'completed' },
      ],
    },
    ...tool(id('search'), { title: 'Search for "percent" in src/', kind: 'search', path: abs('src') }, [
      {
        type: 'content',
        content: text(
          [
            '```text',
            'src/cart/total.ts:12       const discount = coupon ? gross * coupon.percent / 100 : 0;',
            'src/invoices/lines.ts:31   const discount = Math.round((line.grossCents * coupon.percent) / 100);',
            'src/cart/coupons.ts:8      export const appliesTo = (c: Coupon, l: CartLine) => c.skus.includes(l.sku);',
            '```',
          ].join('\n'),
        ),
      },
    ]),
    ...tool(id('read'), { title: 'Read src/cart/total.ts', kind: 'read', path: abs(f.path), line: 10 }, [
      { type: 'content', content: text('```ts\n' + oldText(f)!.split('\n').slice(8).join('\n') + '```') },
    ]),
    {
      sessionUpdate: 'agent_message_chunk',
      content: text(
        [
          'Found both. The cart and the invoice disagree in two ways:',
          '',
          '1. **Rounding.** The invoice (`src/invoices/lines.ts:31`) rounds each line’s discount; the cart takes the percentage of the whole cart and rounds once. For 9.99 € and 4.95 € the invoice gives 1.00 € + 0.50 € off, the cart 1.49 €.',
          '2. **Scope.** The cart discounts every line, but `appliesTo` in `src/cart/coupons.ts` limits SPRING10 to tea and honey.',
          '',
          'So the total should be computed line by line, the way the invoice does it:',
          '',
          '```ts',
          'const discount = coupon && appliesTo(coupon, line) ? Math.round((gross * coupon.percent) / 100) : 0;',
          '```',
        ].join('\n'),
      ),
    },
    ...tool(id('edit'), { title: 'Edit src/cart/total.ts', kind: 'edit', path: abs(f.path) }, [
      { type: 'diff', path: abs(f.path), oldText: oldText(f), newText: f.text },
    ]),
    ...tool(
      id('test'),
      { title: `Run ${testRun.command}`, kind: 'execute', command: testRun.command },
      console_(testRun.command, testRun.output),
    ),
    {
      sessionUpdate: 'agent_message_chunk',
      content: text(
        [
          'Fixed in `src/cart/total.ts`; the cart now matches the invoice to the cent:',
          '',
          '| Cart | SPRING10 on | Before | After | Invoice |',
          '| --- | --- | ---: | ---: | ---: |',
          '| tea 9.99 € + honey 4.95 € | both | 13.45 € | 13.44 € | 13.44 € |',
          '| tea 9.99 € + mug 12.99 € | tea only | 20.68 € | 21.98 € | 21.98 € |',
          '',
          'The mug no longer gets a discount it was never meant to have.',
        ].join('\n'),
      ),
    },
    { sessionUpdate: 'user_message_chunk', content: text('Add a test with the two carts from your table.') },
    ...tool(id('write'), { title: `Write ${testPath}`, kind: 'edit', path: abs(testPath) }, [
      { type: 'diff', path: abs(testPath), oldText: null, newText: tests['src/cart/total.ts']! },
    ]),
    ...tool(
      id('retest'),
      { title: `Run ${testRun.command}`, kind: 'execute', command: testRun.command },
      console_(testRun.command, testRun.output),
    ),
    {
      sessionUpdate: 'agent_message_chunk',
      content: text(
        `Added \`${testPath}\` with both carts. On the old code the first test fails with \`expected 1345 to be 1344\` and the second with \`expected 2068 to be 2198\`; now both pass.`,
      ),
    },
    ...followUpTurn(scope, f, 3, 'fix/cart-coupon-rounding'),
  ];
}
