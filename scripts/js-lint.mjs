#!/usr/bin/env node
// A small lint for the web app's JavaScript (every .js under Public/), built on Debian's
// node-espree (parser) and node-eslint-scope (scopes), no npm:
//   - undeclared names (a reference no scope declares and no browser/worker global names);
//   - unused variables, imports, functions, classes and parameters (a parameter only when no later
//     one is used; names starting with "_" and a rest sibling's neighbours are allowed);
//   - exports no module imports (static imports, `import * as`, re-exports, dynamic imports of a
//     literal or a template path);
//   - functions longer than 80 lines (the body's lines, nested closures included), unless listed in
//     scripts/js-lint-allowlist.json with their current length: a listed function may not grow, and
//     the lint fails when it is gone or shorter so the entry is lowered or removed
//     (`--update-allowlist` does that, it never raises or adds an entry).
// Usage: node scripts/js-lint.mjs [--root DIR] [--allowlist FILE] [--update-allowlist]
// Modules are ES modules (latest ecmaVersion); assets/js/appearance.js and sw.js (paths under the
// root) are classic scripts.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative, dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
function load(name) {
  try {
    return require(name);
  } catch {
    // Debian's node packages live in /usr/share/nodejs, which Node does not search by default.
    return require(join('/usr/share/nodejs', name));
  }
}
process.env.NODE_PATH = [process.env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':');
require('node:module').Module._initPaths();
export const espree = load('espree');
const eslintScope = load('eslint-scope');
const visitorKeys = load('eslint-visitor-keys').KEYS;

export const MAX_FUNCTION_LINES = 80;
const CLASSIC_SCRIPTS = new Set(['assets/js/appearance.js', 'sw.js']);
const WORKERS = new Set(['sw.js']);

const SHARED_GLOBALS = `
  Array ArrayBuffer BigInt Boolean DataView Date Error EvalError Float32Array Float64Array Function
  Infinity Int8Array Int16Array Int32Array Intl JSON Map Math NaN Number Object Promise Proxy
  RangeError ReferenceError Reflect RegExp Set String Symbol SyntaxError TypeError URIError
  Uint8Array Uint8ClampedArray Uint16Array Uint32Array BigInt64Array BigUint64Array WeakMap WeakSet
  WeakRef FinalizationRegistry AggregateError globalThis undefined isFinite isNaN parseFloat parseInt
  decodeURI decodeURIComponent encodeURI encodeURIComponent
  console setTimeout clearTimeout setInterval clearInterval queueMicrotask structuredClone
  fetch Request Response Headers URL URLSearchParams AbortController AbortSignal Blob File FileReader
  FormData TextEncoder TextDecoder crypto atob btoa self location navigator indexedDB IDBKeyRange
  caches Event EventTarget CustomEvent MessageChannel BroadcastChannel performance
  DOMException ReadableStream WritableStream TransformStream CompressionStream DecompressionStream
  Notification addEventListener removeEventListener dispatchEvent
`;
const WINDOW_GLOBALS = `
  window document history localStorage sessionStorage customElements requestAnimationFrame
  cancelAnimationFrame requestIdleCallback cancelIdleCallback matchMedia getComputedStyle
  HTMLElement HTMLInputElement HTMLTextAreaElement HTMLSelectElement HTMLButtonElement HTMLDialogElement
  HTMLImageElement HTMLCanvasElement HTMLTemplateElement Element Node NodeFilter Text DocumentFragment
  ShadowRoot CSSStyleSheet DOMParser MutationObserver ResizeObserver IntersectionObserver Image
  KeyboardEvent MouseEvent PointerEvent InputEvent FocusEvent DragEvent ClipboardEvent
  SubmitEvent ErrorEvent PromiseRejectionEvent Range Selection getSelection alert confirm prompt
  scrollTo scrollBy innerWidth innerHeight devicePixelRatio screen open close print
  PushManager ServiceWorkerRegistration OffscreenCanvas createImageBitmap ImageData
  speechSynthesis SpeechSynthesisUtterance Audio CSS XMLSerializer
`;
const WORKER_GLOBALS = `clients registration skipWaiting importScripts`;
function words(text) {
  return new Set(text.split(/\s+/).filter(Boolean));
}
const GLOBALS = {
  window: new Set([...words(SHARED_GLOBALS), ...words(WINDOW_GLOBALS)]),
  worker: new Set([...words(SHARED_GLOBALS), ...words(WORKER_GLOBALS)]),
};

function jsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...jsFiles(path));
    else if (name.endsWith('.js')) out.push(path);
  }
  return out;
}

// Every node's parent, and the nodes `typeof` is asked about (a feature check, not a use).
function annotate(ast) {
  const parents = new Map();
  const typeofArgs = new Set();
  (function walk(node, parent) {
    parents.set(node, parent);
    if (node.type === 'UnaryExpression' && node.operator === 'typeof' && node.argument.type === 'Identifier') {
      typeofArgs.add(node.argument);
    }
    for (const key of visitorKeys[node.type] || []) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach((c) => c && walk(c, node));
      else if (child && typeof child.type === 'string') walk(child, node);
    }
  })(ast, null);
  return { parents, typeofArgs };
}

function isFunction(node) {
  return node && /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type);
}

function keyName(key) {
  if (!key) return null;
  if (key.type === 'Identifier' || key.type === 'PrivateIdentifier') return key.name;
  if (key.type === 'Literal') return String(key.value);
  return null;
}

// A stable name for a function: its own name, or what it is assigned to, or "<anonymous>",
// prefixed by the enclosing functions' names ("mountPage/render"); duplicates get "#2", "#3".
function ownName(fn, parents) {
  if (fn.id) return fn.id.name;
  const parent = parents.get(fn);
  if (!parent) return '<anonymous>';
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent.type === 'AssignmentExpression') {
    const left = parent.left;
    if (left.type === 'Identifier') return left.name;
    if (left.type === 'MemberExpression') return keyName(left.property) || '<anonymous>';
  }
  if ((parent.type === 'Property' || parent.type === 'MethodDefinition' || parent.type === 'PropertyDefinition') && parent.value === fn) {
    return keyName(parent.key) || '<anonymous>';
  }
  if (parent.type === 'ExportDefaultDeclaration') return 'default';
  if (parent.type === 'CallExpression') {
    const callee = parent.callee;
    const called = callee.type === 'Identifier' ? callee.name : keyName(callee.property);
    if (called) return `<${called} callback>`;
  }
  return '<anonymous>';
}

function functionLengths(ast, parents) {
  const result = [];
  const seen = new Map();
  (function walk(node, path) {
    let next = path;
    if (isFunction(node)) {
      const base = [...path, ownName(node, parents)].join('/');
      const count = (seen.get(base) || 0) + 1;
      seen.set(base, count);
      const name = count === 1 ? base : `${base}#${count}`;
      const body = node.body;
      result.push({ name, line: node.loc.start.line, lines: body.loc.end.line - body.loc.start.line + 1 });
      next = [...path, name.split('/').pop()];
    }
    for (const key of visitorKeys[node.type] || []) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach((c) => c && walk(c, next));
      else if (child && typeof child.type === 'string') walk(child, next);
    }
  })(ast, []);
  return result;
}

function isExported(def, parents) {
  if (def.type === 'FunctionName' || def.type === 'ClassName') {
    const p = parents.get(def.node);
    return p && (p.type === 'ExportNamedDeclaration' || p.type === 'ExportDefaultDeclaration');
  }
  if (def.type === 'Variable') {
    const p = parents.get(def.parent);
    return p && p.type === 'ExportNamedDeclaration';
  }
  return false;
}

function within(scope, block) {
  for (let s = scope; s; s = s.upper) if (s.block === block) return true;
  return false;
}

// A read that counts: not from inside the function or class that the name declares (recursion).
function usedReads(variable) {
  const def = variable.defs[0];
  const own = def && (def.type === 'FunctionName' || def.type === 'ClassName') ? def.node : null;
  return variable.references.filter((ref) => {
    if (!ref.isRead()) return false;
    if (own && within(ref.from, own)) return false;
    // `x = x + 1` / `x += 1` as a statement only writes x.
    return true;
  });
}

function hasRestSibling(def, parents) {
  const prop = parents.get(def.name);
  const pattern = prop && parents.get(prop);
  return !!(prop && prop.type === 'Property' && pattern && pattern.type === 'ObjectPattern' &&
    pattern.properties.some((p) => p.type === 'RestElement'));
}

// Parameters: only the ones after the last used parameter are reported (ESLint's "after-used").
function unusedParameterAllowed(variable, def, scopeManager) {
  const fn = def.node;
  const params = fn.params;
  const names = (param) => scopeManager.getDeclaredVariables(fn).filter((v) => v.defs.some((d) => d.type === 'Parameter' && containsNode(param, d.name)));
  const index = params.findIndex((p) => containsNode(p, def.name));
  for (let i = index + 1; i < params.length; i++) {
    if (names(params[i]).some((v) => usedReads(v).length > 0)) return true;
  }
  return false;
}

function containsNode(root, target) {
  if (root === target) return true;
  if (!root || typeof root !== 'object') return false;
  for (const key of visitorKeys[root.type] || []) {
    const child = root[key];
    if (Array.isArray(child)) { if (child.some((c) => c && containsNode(c, target))) return true; }
    else if (child && typeof child.type === 'string' && containsNode(child, target)) return true;
  }
  return false;
}

const KIND = { ImportBinding: 'import', FunctionName: 'function', ClassName: 'class', Parameter: 'parameter', Variable: 'variable', CatchClause: 'catch parameter' };

export function lintSource(source, { file = 'input.js', script = false, worker = false } = {}) {
  const findings = [];
  const sourceType = script ? 'script' : 'module';
  let ast;
  try {
    ast = espree.parse(source, { ecmaVersion: 'latest', sourceType, loc: true, range: true });
  } catch (error) {
    findings.push({ file, line: error.lineNumber || 1, rule: 'parse', message: error.message });
    return { findings, functions: [], exports: [], imports: [] };
  }
  const { parents, typeofArgs } = annotate(ast);
  const scopeManager = eslintScope.analyze(ast, {
    ecmaVersion: 2022, sourceType, childVisitorKeys: visitorKeys, fallback: 'iteration',
  });
  const globals = worker ? GLOBALS.worker : GLOBALS.window;
  const globalScope = scopeManager.globalScope;

  // A classic script's top-level names are resolved at run time: tie their references here.
  if (script) {
    for (const ref of globalScope.through) {
      const variable = globalScope.set.get(ref.identifier.name);
      if (variable && variable.defs.length) variable.references.push(ref);
    }
  }

  // Undeclared names.
  for (const ref of globalScope.through) {
    const name = ref.identifier.name;
    if (globals.has(name) || typeofArgs.has(ref.identifier)) continue;
    if (script && globalScope.set.has(name)) continue;
    findings.push({ file, line: ref.identifier.loc.start.line, rule: 'undeclared', message: `'${name}' is not declared` });
  }

  // Unused names.
  for (const scope of scopeManager.scopes) {
    for (const variable of scope.variables) {
      const def = variable.defs[0];
      if (!def || variable.name === 'arguments') continue;
      if (def.type === 'ImplicitGlobalVariable') continue;
      if (variable.name.startsWith('_')) continue;
      if (def.type === 'CatchClause') continue;
      if (usedReads(variable).length > 0) continue;
      if (isExported(def, parents)) continue;
      if (def.type === 'FunctionName' && scope.block === def.node) continue; // a named function expression's own name
      if (def.type === 'ClassName' && scope.type === 'class') continue;
      if (def.type === 'Parameter' && unusedParameterAllowed(variable, def, scopeManager)) continue;
      if (hasRestSibling(def, parents)) continue;
      findings.push({ file, line: def.name.loc.start.line, rule: 'unused', message: `${KIND[def.type] || def.type} '${variable.name}' is never used` });
    }
  }

  // Function length.
  const functions = functionLengths(ast, parents);

  // Exports and imports for the module graph.
  const exports = [];
  const imports = [];
  if (!script) collectModuleLinks(ast, parents, exports, imports);
  return { findings, functions, exports, imports };
}

function collectModuleLinks(ast, parents, exports, imports) {
  const specifierOf = (node) => (node && node.type === 'Literal' && typeof node.value === 'string' ? node.value : null);
  for (const node of ast.body) {
    if (node.type === 'ExportNamedDeclaration') {
      const decl = node.declaration;
      if (decl && decl.id) exports.push({ name: decl.id.name, line: decl.loc.start.line });
      if (decl && decl.declarations) {
        for (const d of decl.declarations) for (const id of patternNames(d.id)) exports.push({ name: id.name, line: id.loc.start.line });
      }
      for (const s of node.specifiers) exports.push({ name: s.exported.name ?? s.exported.value, line: s.loc.start.line });
      if (node.source) imports.push({ from: node.source.value, line: node.loc.start.line, names: node.specifiers.map((s) => s.local.name ?? s.local.value) });
    } else if (node.type === 'ExportDefaultDeclaration') {
      exports.push({ name: 'default', line: node.loc.start.line });
    } else if (node.type === 'ExportAllDeclaration') {
      imports.push({ from: node.source.value, line: node.loc.start.line, names: '*', all: true });
    } else if (node.type === 'ImportDeclaration') {
      const names = node.specifiers.map((s) => {
        if (s.type === 'ImportNamespaceSpecifier') return '*';
        if (s.type === 'ImportDefaultSpecifier') return 'default';
        return s.imported.name ?? s.imported.value;
      });
      imports.push({ from: node.source.value, line: node.loc.start.line, names: names.includes('*') ? '*' : names });
    }
  }
  // Dynamic imports: the names taken from them when that is plain to see, else every name.
  (function walk(node) {
    if (node.type === 'ImportExpression') {
      const from = specifierOf(node.source);
      const pattern = node.source.type === 'TemplateLiteral'
        ? node.source.quasis.map((q) => q.value.cooked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')
        : null;
      imports.push({ from, pattern, line: node.loc.start.line, names: dynamicNames(node, parents) });
    }
    for (const key of visitorKeys[node.type] || []) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach((c) => c && walk(c));
      else if (child && typeof child.type === 'string') walk(child);
    }
  })(ast);
}

function patternNames(pattern) {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier': return [pattern];
    case 'ObjectPattern': return pattern.properties.flatMap((p) => patternNames(p.type === 'RestElement' ? p.argument : p.value));
    case 'ArrayPattern': return pattern.elements.flatMap((e) => patternNames(e));
    case 'RestElement': return patternNames(pattern.argument);
    case 'AssignmentPattern': return patternNames(pattern.left);
    default: return [];
  }
}

function objectPatternKeys(pattern) {
  if (!pattern || pattern.type !== 'ObjectPattern') return null;
  if (pattern.properties.some((p) => p.type === 'RestElement' || p.computed)) return null;
  return pattern.properties.map((p) => keyName(p.key));
}

function dynamicNames(node, parents) {
  let parent = parents.get(node);
  let target = node;
  if (parent && parent.type === 'AwaitExpression') {
    target = parent;
    parent = parents.get(parent);
    if (parent && parent.type === 'MemberExpression' && parent.object === target && !parent.computed) return [keyName(parent.property)];
    if (parent && parent.type === 'VariableDeclarator' && parent.init === target) return objectPatternKeys(parent.id) || '*';
    return '*';
  }
  // import('x').then(({ a, b }) => …)
  if (parent && parent.type === 'MemberExpression' && keyName(parent.property) === 'then') {
    const call = parents.get(parent);
    const callback = call && call.arguments && call.arguments[0];
    if (isFunction(callback) && callback.params[0]) return objectPatternKeys(callback.params[0]) || '*';
  }
  return '*';
}

function resolveSpecifier(root, fromFile, specifier) {
  if (!specifier) return null;
  if (specifier.startsWith('/')) return join(root, specifier);
  if (specifier.startsWith('.')) return resolve(dirname(fromFile), specifier);
  return null;
}

// Exports no module imports: every module's exports against every import in the graph (the
// extra importers, e.g. Node tests of the offline modules, count as importers too).
export function unusedExports(root, modules, extraImporters = []) {
  const used = new Map(); // absolute path -> Set of names, or '*'
  const mark = (path, names) => {
    if (!path) return;
    if (names === '*') used.set(path, '*');
    else if (used.get(path) !== '*') {
      const set = used.get(path) || new Set();
      names.forEach((n) => set.add(n));
      used.set(path, set);
    }
  };
  const all = [...modules, ...extraImporters];
  for (const mod of all) {
    for (const imp of mod.imports) {
      if (imp.from) mark(resolveSpecifier(root, mod.path, imp.from), imp.names);
      else if (imp.pattern) {
        const regex = new RegExp(`^${imp.pattern}$`);
        for (const other of modules) {
          const rel = '/' + relative(root, other.path).split(sep).join('/');
          const relToImporter = './' + relative(dirname(mod.path), other.path).split(sep).join('/');
          if (regex.test(rel) || regex.test(relToImporter)) mark(other.path, imp.names);
        }
      }
    }
  }
  const findings = [];
  // Imports of a module that is not there, or of a name it does not export.
  const byPath = new Map(modules.map((m) => [m.path, m]));
  for (const mod of modules) {
    for (const imp of mod.imports) {
      const path = imp.from && resolveSpecifier(root, mod.path, imp.from);
      if (!path) continue;
      const target = byPath.get(path);
      if (!target) {
        if (!existsSync(path)) findings.push({ file: mod.file, line: imp.line, rule: 'missing-module', message: `'${imp.from}' does not exist` });
        continue;
      }
      if (imp.names === '*' || target.imports.some((i) => i.all)) continue;
      for (const name of imp.names) {
        if (!target.exports.some((e) => e.name === name)) {
          findings.push({ file: mod.file, line: imp.line, rule: 'missing-export', message: `'${imp.from}' does not export '${name}'` });
        }
      }
    }
  }
  for (const mod of modules) {
    const names = used.get(mod.path);
    if (names === '*') continue;
    for (const exp of mod.exports) {
      if (!names || !names.has(exp.name)) {
        findings.push({ file: mod.file, line: exp.line, rule: 'unused-export', message: `export '${exp.name}' is imported nowhere` });
      }
    }
  }
  return findings;
}

// The allowlist: { "<file>": { "<function path>": <lines> } }.
export function checkLengths(allFunctions, allowlist) {
  const findings = [];
  const seen = new Set();
  for (const { file, functions } of allFunctions) {
    for (const fn of functions) {
      if (fn.lines <= MAX_FUNCTION_LINES) continue;
      const allowed = allowlist[file] && allowlist[file][fn.name];
      const key = `${file}\u0000${fn.name}`;
      if (allowed === undefined) {
        findings.push({ file, line: fn.line, rule: 'function-length', message: `function '${fn.name}' has ${fn.lines} lines (at most ${MAX_FUNCTION_LINES})` });
        continue;
      }
      seen.add(key);
      if (fn.lines > allowed) {
        findings.push({ file, line: fn.line, rule: 'function-length', message: `function '${fn.name}' has ${fn.lines} lines, more than the ${allowed} it is allowed (allowlist)` });
      } else if (fn.lines < allowed) {
        findings.push({ file, line: fn.line, rule: 'allowlist', message: `function '${fn.name}' has ${fn.lines} lines now, not ${allowed}: lower its allowlist entry (or remove it at ${MAX_FUNCTION_LINES} or less; --update-allowlist)` });
      }
    }
  }
  for (const [file, entries] of Object.entries(allowlist)) {
    for (const name of Object.keys(entries)) {
      if (!seen.has(`${file}\u0000${name}`)) {
        const fn = allFunctions.find((f) => f.file === file)?.functions.find((f) => f.name === name);
        if (!fn || fn.lines <= MAX_FUNCTION_LINES) {
          findings.push({ file, line: fn ? fn.line : 1, rule: 'allowlist', message: `function '${name}' is ${fn ? `${fn.lines} lines now` : 'gone'}: remove its allowlist entry (--update-allowlist)` });
        }
      }
    }
  }
  return findings;
}

export function shrinkAllowlist(allFunctions, allowlist) {
  const next = {};
  for (const [file, entries] of Object.entries(allowlist)) {
    const functions = allFunctions.find((f) => f.file === file)?.functions || [];
    for (const [name, allowed] of Object.entries(entries)) {
      const fn = functions.find((f) => f.name === name);
      if (!fn || fn.lines <= MAX_FUNCTION_LINES) continue;
      (next[file] ||= {})[name] = Math.min(allowed, fn.lines);
    }
  }
  return next;
}

export function lintTree(root, { allowlist = {}, extraImporters = [] } = {}) {
  const findings = [];
  const modules = [];
  const allFunctions = [];
  for (const path of jsFiles(root)) {
    const file = relative(root, path).split(sep).join('/');
    const script = CLASSIC_SCRIPTS.has(file);
    const result = lintSource(readFileSync(path, 'utf8'), { file, script, worker: WORKERS.has(file) });
    findings.push(...result.findings);
    allFunctions.push({ file, functions: result.functions });
    if (!script) modules.push({ path, file, exports: result.exports, imports: result.imports });
  }
  const importers = extraImporters.map((path) => {
    const text = readFileSync(path, 'utf8');
    if (!/\.m?js$/.test(path)) {
      // Browser tests (Python) that load a module by its path: every export counts as used.
      const specifiers = [...text.matchAll(/['"](\/assets\/[^'"]+\.js)['"]/g)].map((m) => m[1]);
      return { path, imports: specifiers.map((from) => ({ from, names: '*' })) };
    }
    return { path, imports: lintSource(text, { file: path }).imports };
  });
  findings.push(...unusedExports(root, modules, importers));
  findings.push(...checkLengths(allFunctions, allowlist));
  return { findings, allFunctions };
}

function main(argv) {
  const here = dirname(fileURLToPath(import.meta.url));
  const repo = resolve(here, '..');
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  const root = resolve(option('--root', join(repo, 'Public')));
  const allowlistPath = resolve(option('--allowlist', join(here, 'js-lint-allowlist.json')));
  const allowlist = existsSync(allowlistPath) ? JSON.parse(readFileSync(allowlistPath, 'utf8')) : {};
  // Importers outside Public/: the Node tests of the offline modules and the browser tests.
  const importerFiles = (dir, pattern) => (existsSync(dir) ? readdirSync(dir).filter((n) => pattern.test(n)).map((n) => join(dir, n)) : []);
  const extraImporters = argv.includes('--root') ? [] : [
    ...importerFiles(join(repo, 'Tests', 'js'), /\.m?js$/),
    ...importerFiles(join(repo, 'e2e', 'web'), /\.py$/),
  ];
  const { findings, allFunctions } = lintTree(root, { allowlist, extraImporters });
  if (argv.includes('--update-allowlist')) {
    writeFileSync(allowlistPath, JSON.stringify(shrinkAllowlist(allFunctions, allowlist), null, 2) + '\n');
    console.log(`allowlist updated: ${allowlistPath}`);
    return 0;
  }
  if (argv.includes('--lengths')) {
    for (const { file, functions } of allFunctions) {
      for (const fn of functions) if (fn.lines > MAX_FUNCTION_LINES) console.log(`${fn.lines}\t${file}\t${fn.name}`);
    }
    return 0;
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.rule}: ${f.message}`);
  const files = allFunctions.length;
  console.log(findings.length ? `js-lint: ${findings.length} problem(s) in ${files} files` : `js-lint: ${files} files clean`);
  return findings.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
