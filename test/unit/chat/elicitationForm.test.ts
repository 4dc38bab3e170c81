import * as assert from 'node:assert/strict';
import { formFields, initialValues, matchesFormat, validateForm } from '../../../src/protocol/elicitation';
import { elicitationForm } from '../../agent/replies';

describe('elicitation forms', () => {
  const fields = formFields(elicitationForm);
  const byKey = (key: string) => fields.find((f) => f.key === key)!;

  it('reads every kind of field of the schema, in order, with labels, limits and defaults', () => {
    assert.deepEqual(
      fields.map((f) => [f.key, f.kind]),
      [
        ['name', 'string'],
        ['email', 'string'],
        ['homepage', 'string'],
        ['due', 'string'],
        ['meeting', 'string'],
        ['seats', 'integer'],
        ['budget', 'number'],
        ['public', 'boolean'],
        ['licence', 'select'],
        ['size', 'select'],
        ['languages', 'multiselect'],
        ['tools', 'multiselect'],
      ],
    );
    assert.equal(byKey('name').label, 'Project name');
    assert.equal(byKey('name').required, true);
    assert.equal(byKey('email').required, false);
    assert.equal(byKey('meeting').format, 'date-time');
    assert.deepEqual(byKey('size').options, [
      { value: 's', label: 'Small' },
      { value: 'm', label: 'Medium' },
      { value: 'l', label: 'Large' },
    ]);
    assert.deepEqual(
      byKey('tools').options?.map((o) => o.label),
      ['CI', 'Linter'],
    );
    assert.deepEqual(initialValues(fields), {
      name: '',
      email: '',
      homepage: '',
      due: '',
      meeting: '',
      seats: '3',
      budget: '',
      public: true,
      licence: 'MIT',
      size: '',
      languages: [],
      tools: ['ci'],
    });
  });

  it('says what is wrong with each field', () => {
    const { errors, content } = validateForm(fields, {
      name: 'x',
      email: 'not-an-email',
      homepage: 'example.com',
      due: '2025-02-30',
      meeting: '2025-03-01 09:30',
      seats: '2.5',
      budget: '-1',
      public: 'yes',
      licence: 'WTFPL',
      size: '',
      languages: [],
      tools: ['ci', 'deploy'],
    });
    assert.deepEqual(errors, {
      name: 'At least 2 characters.',
      email: 'Enter an email address.',
      homepage: 'Enter a full address, such as https://example.com.',
      due: 'Enter a date (YYYY-MM-DD).',
      meeting: 'Enter a date and time.',
      seats: 'Enter a whole number.',
      budget: 'At least 0.',
      public: 'Not a yes or no.',
      licence: 'Choose one of the options.',
      languages: 'Choose at least 1.',
      tools: 'Choose from the options.',
    });
    assert.deepEqual(content, {}, 'an empty optional field is left out');
    assert.deepEqual(validateForm(fields, {}).errors, {
      name: 'Required.',
      seats: 'Required.',
      languages: 'Required.',
    });
  });

  it('builds the content typed as the schema says, leaving out empty optional fields', () => {
    const { errors, content } = validateForm(fields, {
      ...initialValues(fields),
      name: '  Atlas ',
      seats: ' 7 ',
      budget: '1e3',
      languages: ['Go', 'Go'],
      due: '2024-02-29',
    });
    assert.deepEqual(errors, {});
    assert.deepEqual(content, {
      name: '  Atlas ',
      due: '2024-02-29',
      seats: 7,
      budget: 1000,
      public: true,
      licence: 'MIT',
      languages: ['Go'],
      tools: ['ci'],
    });
  });

  it('survives a hostile schema: odd shapes become unsupported fields, __proto__ stays a field, patterns are not run', () => {
    assert.deepEqual(formFields(null), []);
    assert.deepEqual(formFields({ properties: 'nope' }), []);
    const hostile = formFields(
      JSON.parse(
        '{"properties":{"__proto__":{"type":"string","pattern":"^(a+)+$"},"blob":{"type":"object"},"bad":7,"pick":{"type":"string","enum":[1,"ok",{}]}},"required":["blob",5]}',
      ),
    );
    assert.deepEqual(
      hostile.map((f) => [f.key, f.kind]),
      [
        ['__proto__', 'string'],
        ['blob', 'unsupported'],
        ['bad', 'unsupported'],
        ['pick', 'select'],
      ],
    );
    assert.deepEqual(hostile[3]!.options, [{ value: 'ok', label: 'ok' }]);
    const raw = JSON.parse('{"__proto__":"aaaa!","pick":"ok"}') as Record<string, unknown>;
    const checked = validateForm(hostile, raw);
    assert.deepEqual(Object.keys(checked.errors), ['blob']);
    assert.equal(checked.errors.blob, 'This client cannot fill in this field.');
    const host = validateForm(
      hostile.filter((f) => f.key !== 'blob'),
      raw,
    );
    assert.deepEqual(host.errors, {});
    assert.equal(Object.getPrototypeOf(host.content), Object.prototype, 'the object itself is untouched');
    assert.deepEqual(Object.keys(host.content), ['__proto__', 'pick']);
  });

  it("never runs the agent's pattern: one that takes twice as long per character cannot freeze the form", () => {
    const fields = formFields({
      properties: {
        code: { type: 'string', pattern: '^[0-9]+$' },
        slow: { type: 'string', pattern: '^(a|a)+$' },
      },
    });
    // 'abc' does not match ^[0-9]+$: a check that ran the pattern would refuse it.
    const { errors, content } = validateForm(fields, { code: 'abc', slow: `${'a'.repeat(24)}!` });
    assert.deepEqual(errors, {});
    assert.deepEqual(content, { code: 'abc', slow: `${'a'.repeat(24)}!` });
  });

  it('knows the string formats', () => {
    assert.ok(matchesFormat('date-time', '2025-03-01T09:30:00.123+01:00'));
    assert.ok(matchesFormat('date-time', '2025-03-01T09:30Z'));
    assert.ok(!matchesFormat('date-time', '2025-03-01T25:30:00Z'));
    assert.ok(matchesFormat('uri', 'mailto:dev@example.com'));
    assert.ok(!matchesFormat('uri', 'no scheme'));
    assert.ok(!matchesFormat('email', 'a@b'));
  });
});
