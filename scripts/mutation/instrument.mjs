// Mutant schemata for `npm run mutation`: every mutant of a file is compiled into one copy of
// it, switched on at run time by its number, so one build serves every mutant. A switch that is
// read also records that the mutant's code was reached (per-test coverage).
//
// The kinds of mutant, each one small change that a test of the behaviour should notice:
//   comparison  < <= > >= moved across the boundary; === and !== swapped
//   logical     && and || swapped
//   boolean     true and false swapped; a ! removed
//   condition   the test of an if, a loop or a ?: forced true or false
//   statement   an expression statement, a return, a throw, a break or a continue removed
//               (not a log line: what is logged is checked where it matters, by the redaction tests)
//   constant    a number changed (0 to 1, anything else to 0)
//   regex       one alternative of a | in a regular expression removed
import ts from 'typescript';

/** The switch each instrumented file defines; `ACP_MUTANT` selects a mutant at load time. */
export const SWITCH = '__acpMutant';
const PRELUDE =
  `function ${SWITCH}(id) {` +
  ` const g = globalThis.__acpMutation || (globalThis.__acpMutation = { active: Number(process.env.ACP_MUTANT || -1), hits: undefined });` +
  ` if (g.hits !== undefined) g.hits.add(id);` +
  ` return g.active === id; }\n`;

// A negated comparison is what a forced condition already tries: the boundary is what is left.
const FLIPS = {
  [ts.SyntaxKind.LessThanToken]: ['<='],
  [ts.SyntaxKind.LessThanEqualsToken]: ['<'],
  [ts.SyntaxKind.GreaterThanToken]: ['>='],
  [ts.SyntaxKind.GreaterThanEqualsToken]: ['>'],
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: ['!=='],
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: ['==='],
  [ts.SyntaxKind.EqualsEqualsToken]: ['!='],
  [ts.SyntaxKind.ExclamationEqualsToken]: ['=='],
  [ts.SyntaxKind.AmpersandAmpersandToken]: ['||'],
  [ts.SyntaxKind.BarBarToken]: ['&&'],
};

function kindOfOperator(op) {
  return op === '||' || op === '&&' ? 'logical' : 'comparison';
}

/** Alternatives of `|` in a regular expression's source: [start, end) of each, per group. */
function regexAlternatives(source) {
  const groups = [{ bars: [], start: 0 }];
  const result = [];
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      let start = i + 1;
      if (source[start] === '?') start += source[start + 1] === '<' && /[=!]/.test(source[start + 2]) ? 3 : 2;
      groups.push({ bars: [], start });
    } else if (c === '|') groups.at(-1).bars.push(i);
    else if (c === ')') close(groups.pop(), i);
  }
  close(groups.pop(), source.length);
  return result;

  function close(group, end) {
    if (!group || group.bars.length === 0) return;
    const edges = [group.start - 1, ...group.bars, end];
    for (let k = 0; k + 1 < edges.length; k++) {
      // Removing an alternative removes one of the bars beside it.
      const from = k === 0 ? edges[0] + 1 : edges[k];
      const to = k === 0 ? edges[1] + 1 : edges[k + 1];
      result.push([from, to, source.slice(edges[k] + 1, edges[k + 1])]);
    }
  }
}

function inType(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isTypeNode(p) || ts.isEnumMember(p) || ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return true;
    if (ts.isLiteralTypeNode?.(p)) return true;
  }
  return false;
}

/**
 * Whether the code runs when the module loads (a top-level constant, a static field) rather than
 * when a function is called: such a mutant must be switched on before the module loads.
 */
function runsAtLoad(node) {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isFunctionLike(p) || ts.isClassStaticBlockDeclaration(p)) return ts.isClassStaticBlockDeclaration(p);
    if (ts.isPropertyDeclaration(p)) return !!p.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
  }
  return true;
}

function isSuperCall(statement) {
  return (
    ts.isExpressionStatement(statement) &&
    ts.isCallExpression(statement.expression) &&
    statement.expression.expression.kind === ts.SyntaxKind.SuperKeyword
  );
}

/**
 * Instruments one file. `nextId` is the first free mutant number; returns the new text and the
 * mutants (id, kind, line, what changed).
 */
export function instrument(fileName, text, nextId) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const mutants = [];
  const add = (node, kind, description) => {
    const id = nextId++;
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    mutants.push({ id, kind, line: line + 1, description, atLoad: runsAtLoad(node) });
    return id;
  };
  const original = (node) => text.slice(node.getStart(sf), node.end);

  // Alternatives, each `[id, text]`, wrapped around the instrumented text of the node.
  function choose(alternatives, same) {
    let out = `(${same})`;
    for (let k = alternatives.length - 1; k >= 0; k--)
      out = `(${SWITCH}(${alternatives[k][0]}) ? (${alternatives[k][1]}) : ${out})`;
    return out;
  }

  function mutate(node, emitted) {
    if (inType(node)) return emitted;
    if (ts.isBinaryExpression(node) && FLIPS[node.operatorToken.kind]) {
      const left = original(node.left);
      const right = original(node.right);
      const op = node.operatorToken.getText(sf);
      const alternatives = FLIPS[node.operatorToken.kind].map((to) => [
        add(node, kindOfOperator(op), `${op} → ${to}`),
        `(${left}) ${to} (${right})`,
      ]);
      return choose(alternatives, emitted);
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) {
      const to = node.kind === ts.SyntaxKind.TrueKeyword ? 'false' : 'true';
      return choose([[add(node, 'boolean', `${original(node)} → ${to}`), to]], emitted);
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      return choose([[add(node, 'boolean', 'remove !'), original(node.operand)]], emitted);
    }
    if (ts.isNumericLiteral(node)) {
      if (ts.isPropertyAssignment(node.parent) && node.parent.name === node) return emitted;
      const to = Number(node.text) === 0 ? '1' : '0';
      return choose([[add(node, 'constant', `${node.text} → ${to}`), to]], emitted);
    }
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const slash = literal.lastIndexOf('/');
      const source = literal.slice(1, slash);
      const flags = literal.slice(slash + 1);
      const alternatives = regexAlternatives(source).map(([from, to, removed]) => [
        add(node, 'regex', `remove alternative ${JSON.stringify(removed)}`),
        `/${source.slice(0, from)}${source.slice(to)}/${flags}`,
      ]);
      return alternatives.length > 0 ? choose(alternatives, emitted) : emitted;
    }
    if (isRemovable(node)) {
      const id = add(node, 'statement', `remove ${describeStatement(node)}`);
      return `{ if (!${SWITCH}(${id})) { ${emitted} } }`;
    }
    return emitted;
  }

  // Conditions are mutated where they are emitted: wrap the condition child's text.
  const conditionParents = new Map();
  function markConditions(node) {
    let condition;
    if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node)) condition = node.expression;
    else if (ts.isForStatement(node)) condition = node.condition;
    else if (ts.isConditionalExpression(node)) condition = node.condition;
    if (condition && !inType(condition))
      conditionParents.set(condition, !ts.isIfStatement(node) && !ts.isConditionalExpression(node));
    ts.forEachChild(node, markConditions);
  }
  markConditions(sf);

  // Text of `node` with every mutant inside it switched in.
  function emitWithConditions(node) {
    let out = '';
    let cursor = node.getStart(sf);
    ts.forEachChild(node, (child) => {
      out += text.slice(cursor, child.getStart(sf)) + emitWithConditions(child);
      cursor = child.end;
    });
    out += text.slice(cursor, node.end);
    out = mutate(node, out);
    if (conditionParents.has(node)) {
      const loop = conditionParents.get(node);
      const alternatives = [];
      // A loop forced to true never ends: only false for loops.
      if (!loop) alternatives.push([add(node, 'condition', 'condition → true'), 'true']);
      alternatives.push([add(node, 'condition', 'condition → false'), 'false']);
      out = choose(alternatives, out);
    }
    return out;
  }

  let body = '';
  let cursor = 0;
  for (const statement of sf.statements) {
    body += text.slice(cursor, statement.getStart(sf)) + emitWithConditions(statement);
    cursor = statement.end;
  }
  body += text.slice(cursor);
  return { text: PRELUDE + body, mutants, nextId };
}

const LOG_CALL = /(^|\.)(logger|log)\.(trace|debug|info|warn|error)$/;

function isRemovable(node) {
  if (ts.isExpressionStatement(node)) {
    const e = node.expression;
    if (ts.isStringLiteral(e)) return false;
    if (ts.isCallExpression(e) && LOG_CALL.test(e.expression.getText())) return false;
    return !isSuperCall(node);
  }
  return (
    ts.isReturnStatement(node) || ts.isThrowStatement(node) || ts.isBreakStatement(node) || ts.isContinueStatement(node)
  );
}

function describeStatement(node) {
  if (ts.isReturnStatement(node)) return 'return';
  if (ts.isThrowStatement(node)) return 'throw';
  if (ts.isBreakStatement(node)) return 'break';
  if (ts.isContinueStatement(node)) return 'continue';
  return 'statement';
}
