// Local lint rules for the house's shape (eslint.config.js loads them as the plugin `house`):
//   house/room-faces      another room is imported through its face, src/<room>/index.ts, only
//   house/no-import-loop  no loop between files, `import type` included (import-x/no-cycle skips those)
//   house/function-lines  a function's own lines (nested functions' bodies not counted) at most `max`
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const SRC = path.resolve('src');

/** The room of a file under src/ (its first folder), or undefined outside src/. */
function roomOf(file) {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..') || path.isAbsolute(rel) || !rel.includes(path.sep)) return undefined;
  return rel.split(path.sep)[0];
}

/** The .ts file a relative ESM specifier ('./x.js') names, or undefined for a package. */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [target.replace(/\.js$/, '.ts'), target, path.join(target, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate)) ?? candidates[0];
}

/** Every specifier node of a file: imports, re-exports, `import()` calls and `import('x').T` types. */
function specifierVisitors(check) {
  const onSource = (node) => node.source && check(node.source, node.source.value);
  return {
    ImportDeclaration: onSource,
    ExportNamedDeclaration: onSource,
    ExportAllDeclaration: onSource,
    ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    TSImportType: (node) => {
      const literal = node.argument?.literal ?? node.argument;
      if (literal?.type === 'Literal' && typeof literal.value === 'string') check(node, literal.value);
    },
  };
}

const roomFaces = {
  meta: {
    type: 'problem',
    docs: { description: "Another room's files are imported through its face (src/<room>/index.ts) only." },
    schema: [{ type: 'object', properties: { rooms: { type: 'array', items: { type: 'string' } } } }],
    messages: {
      deep: "{{from}}/ imports {{target}}, inside {{room}}/: import it from {{room}}/index.ts, the room's face (docs/architecture.md).",
    },
  },
  create(context) {
    const rooms = new Set(context.options[0]?.rooms ?? []);
    const file = context.filename;
    const from = roomOf(file);
    if (!from) return {};
    return specifierVisitors((node, specifier) => {
      const target = resolveSpecifier(file, specifier);
      const room = target && roomOf(target);
      if (!room || room === from || !rooms.has(room)) return;
      if (target === path.join(SRC, room, 'index.ts')) return;
      context.report({ node, messageId: 'deep', data: { from, room, target: path.relative(SRC, target) } });
    });
  },
};

/** The files under src/ and, per file, the files it imports (every kind of import, types included). */
let graph;
function importGraph() {
  if (graph) return graph;
  const walk = (dir) =>
    readdirSync(dir).flatMap((entry) => {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) return walk(full);
      return full.endsWith('.ts') ? [full] : [];
    });
  graph = new Map();
  for (const file of walk(SRC)) {
    const found = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
    const targets = found.map((ref) => resolveSpecifier(file, ref.fileName)).filter((target) => target);
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** A shortest path of imports from `start` to `goal`, both included, or undefined. */
function importPath(start, goal) {
  const edges = importGraph();
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of edges.get(file) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === goal) {
        const route = [goal];
        for (let step = file; step !== undefined; step = cameFrom.get(step)) route.unshift(step);
        return route;
      }
      queue.push(next);
    }
  }
  return undefined;
}

const noImportLoop = {
  meta: {
    type: 'problem',
    docs: { description: 'No loop of imports between files, type-only imports included.' },
    schema: [],
    messages: { loop: 'Import loop (type-only imports count): {{route}}' },
  },
  create(context) {
    const file = context.filename;
    if (!roomOf(file)) return {};
    const reported = new Set();
    return specifierVisitors((node, specifier) => {
      const target = resolveSpecifier(file, specifier);
      if (!target || target === file || reported.has(target)) return;
      const back = importGraph().has(target) ? importPath(target, file) : undefined;
      if (!back) return;
      reported.add(target);
      const route = [file, ...back].map((step) => path.relative(SRC, step)).join(' -> ');
      context.report({ node, messageId: 'loop', data: { route } });
    });
  },
};

const FUNCTIONS = ['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression'];

/** The name a function goes by: its own, its variable's, its property's or method's; else '<anonymous>'. */
function functionName(node) {
  if (node.id?.name) return node.id.name;
  const parent = node.parent;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (['MethodDefinition', 'Property', 'PropertyDefinition'].includes(parent?.type) && parent.key) {
    return parent.key.name ?? String(parent.key.value);
  }
  return '<anonymous>';
}

/**
 * A function's own lines: those of its text that are neither blank nor comments, without the lines
 * strictly inside a nested function (whose first and last lines count for both). The count of
 * /work/notes/own-lines.mjs, the measure.
 */
function ownLines(node, nested, lines) {
  let count = 0;
  for (let line = node.loc.start.line; line <= node.loc.end.line; line++) {
    const text = lines[line - 1].trim();
    if (!text || text.startsWith('//') || text.startsWith('*') || text.startsWith('/*')) continue;
    if (nested.some((inner) => inner.loc.start.line < line && inner.loc.end.line > line)) continue;
    count++;
  }
  return count;
}

const functionLines = {
  meta: {
    type: 'suggestion',
    docs: { description: "A function's own lines, without nested functions' bodies, at most `max`." },
    schema: [
      {
        type: 'object',
        properties: {
          max: { type: 'integer', minimum: 1 },
        },
      },
    ],
    messages: {
      long: '{{name}} has {{count}} own lines (at most {{max}}; nested functions count apart): split it along its concerns.',
    },
  },
  create(context) {
    const max = context.options[0]?.max ?? 80;
    const lines = context.sourceCode.lines;
    const stack = [];
    const enter = () => stack.push([]);
    const leave = (node) => {
      const nested = stack.pop();
      stack.at(-1)?.push(node);
      const name = functionName(node);
      const count = ownLines(node, nested, lines);
      if (count > max) context.report({ node, messageId: 'long', data: { name, count, max } });
    };
    return Object.fromEntries(
      FUNCTIONS.flatMap((type) => [
        [type, enter],
        [`${type}:exit`, leave],
      ]),
    );
  },
};

/** Short names that are words or house conventions, allowed as locals (STYLE.md "Names"). */
const SHORT_NAMES_ALLOWED = ['id', 'db', 'ms', 'to', 'at', 'ok', 'up', 'by', 'of', 'fs', 'os', 'ip', 'pk', '_'];

/** The identifiers a declarator's pattern introduces: the id itself, or the names inside a destructuring. */
function declaredNames(pattern) {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) =>
        declaredNames(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => declaredNames(element));
    case 'RestElement':
      return declaredNames(pattern.argument);
    case 'AssignmentPattern':
      return declaredNames(pattern.left);
    default:
      return [];
  }
}

/** A counter in a classic for loop's init (`for (let i = 0; ...; ...)`) may keep a short name. */
function isLoopCounter(declarator) {
  const declaration = declarator.parent;
  return declaration.parent?.type === 'ForStatement' && declaration.parent.init === declaration;
}

const terseLocals = {
  meta: {
    type: 'suggestion',
    docs: { description: 'A variable (const, let, var) has a name of at least three letters that says what it holds.' },
    schema: [{ type: 'object', properties: { allow: { type: 'array', items: { type: 'string' } } } }],
    messages: {
      terse:
        "'{{name}}' does not say what it holds: name the local after its content (a regex match is `match`, a candidate `candidate`, a row `row`). Only counters declared in for (let i = ...; ...; ...) and {{allowed}} may be this short.",
    },
  },
  create(context) {
    const allowed = new Set(context.options[0]?.allow ?? SHORT_NAMES_ALLOWED);
    return {
      VariableDeclarator(declarator) {
        if (isLoopCounter(declarator)) return;
        for (const identifier of declaredNames(declarator.id)) {
          const name = identifier.name;
          if (name.length > 2 || allowed.has(name)) continue;
          const data = { name, allowed: [...allowed].join(', ') };
          context.report({ node: identifier, messageId: 'terse', data });
        }
      },
    };
  },
};

export default {
  rules: {
    'room-faces': roomFaces,
    'no-import-loop': noImportLoop,
    'function-lines': functionLines,
    'terse-locals': terseLocals,
  },
};
