// The API report: every name each entry exports, with its type as the TypeScript checker sees it,
// written to api-report.md. `--check` (run by `npm test`) fails when the code and the committed
// report differ, so every change to the public surface shows in review; `npm run api-report`
// writes the report again after a change meant to be public.
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import ts from 'typescript'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const REPORT = `${REPO}api-report.md`
const ENTRIES = [
  ['echo-rtk', 'src/index.ts'],
  ['echo-rtk/client', 'src/client.ts'],
  ['echo-rtk/server', 'src/server.ts'],
  ['echo-rtk/testing', 'src/testing.ts'],
]
/** A type longer than this is shown as the checker abbreviates it (RTK Query's generated types run to pages). */
const LONGEST_TYPE = 400

function program() {
  const configPath = ts.findConfigFile(REPO, ts.sys.fileExists, 'tsconfig.json')
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, REPO)
  return ts.createProgram(
    ENTRIES.map(([, file]) => `${REPO}${file}`),
    parsed.options,
  )
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })

function typeText(checker, type, node) {
  const whole = checker.typeToString(
    type,
    node,
    ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope,
  )
  return whole.length <= LONGEST_TYPE
    ? whole
    : checker.typeToString(type, node, ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope)
}

/** One exported name as the lines a reviewer reads: declarations printed without comments or bodies. */
function describe(checker, exported) {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
  const name = exported.getName()
  const declaration = symbol.declarations?.[0]
  if (declaration === undefined) return `${name}: unknown`
  const file = declaration.getSourceFile()
  if (ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) {
    return printer.printNode(ts.EmitHint.Unspecified, declaration, file).replace(/^export /, '')
  }
  if (ts.isClassDeclaration(declaration)) return classText(checker, symbol, declaration, name)
  const type = checker.getTypeOfSymbolAtLocation(symbol, declaration)
  if (ts.isFunctionDeclaration(declaration)) {
    return type
      .getCallSignatures()
      .map((signature) =>
        `function ${name}${checker.signatureToString(signature, declaration, ts.TypeFormatFlags.NoTruncation)}`
          // A parameter pattern keeps the source's trailing comma, which says nothing about the API.
          .replace(/, \}/g, ' }'),
      )
      .join('\n')
  }
  return `const ${name}: ${typeText(checker, type, declaration)}`
}

function classText(checker, symbol, declaration, name) {
  const lines = [
    `class ${name}${declaration.heritageClauses ? ` ${declaration.heritageClauses.map((clause) => clause.getText()).join(' ')}` : ''} {`,
  ]
  const members = (side, prefix) =>
    checker
      .getPropertiesOfType(side)
      .filter((member) => isPublicMember(member) && member.getName() !== 'prototype')
      .map(
        (member) =>
          `  ${prefix}${member.getName()}: ${typeText(checker, checker.getTypeOfSymbolAtLocation(member, declaration), declaration)}`,
      )
  const constructorType = checker.getTypeOfSymbolAtLocation(symbol, declaration)
  for (const signature of constructorType.getConstructSignatures())
    lines.push(`  constructor${checker.signatureToString(signature, declaration)}`)
  lines.push(...members(constructorType, 'static '), ...members(checker.getDeclaredTypeOfSymbol(symbol), ''), '}')
  return lines.join('\n')
}

function isPublicMember(member) {
  if (member.getName().startsWith('#') || member.getName().startsWith('__')) return false
  const modifiers = ts.getCombinedModifierFlags(
    member.valueDeclaration ?? member.declarations?.[0] ?? ts.factory.createIdentifier(''),
  )
  return (modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0
}

function report() {
  const built = program()
  const checker = built.getTypeChecker()
  const exportsOf = (file) =>
    checker
      .getExportsOfModule(checker.getSymbolAtLocation(built.getSourceFile(`${REPO}${file}`)))
      .sort((a, b) => a.getName().localeCompare(b.getName(), 'en'))
  // echo-rtk holds the names of echo-rtk/client but its clients made without a store (test/index.test.ts):
  // those it shares are listed once, under client.
  const clientNames = new Set(exportsOf('src/client.ts').map((exported) => exported.getName()))
  const sections = ENTRIES.map(([entry, file]) => {
    const exports = exportsOf(file)
    const own = entry === 'echo-rtk' ? exports.filter((exported) => !clientNames.has(exported.getName())) : exports
    const body = own.map((exported) => describe(checker, exported)).join('\n\n')
    const count =
      own.length === exports.length
        ? `${exports.length} names`
        : `${exports.length} names: these ${own.length}, and ${exports.length - own.length} of \`echo-rtk/client\``
    return `## \`${entry}\` (${count})\n\n\`\`\`ts\n${body}\n\`\`\`\n`
  })
  return `# API report\n\nWritten by \`npm run api-report\` (scripts/api-report.mjs) and checked by \`npm test\`: every name each\nentry exports, with its type. Edit the code, not this file.\n\n${sections.join('\n')}`
}

const current = report()
if (process.argv.includes('--check')) {
  let committed = ''
  try {
    committed = readFileSync(REPORT, 'utf8')
  } catch {
    // No report yet: the check below says what to do.
  }
  if (committed !== current) {
    const before = new Set(committed.split('\n'))
    const after = new Set(current.split('\n'))
    const removed = [...before].filter((line) => !after.has(line)).slice(0, 20)
    const added = [...after].filter((line) => !before.has(line)).slice(0, 20)
    console.error('api-report: the public API differs from api-report.md.')
    for (const line of removed) console.error(`- ${line}`)
    for (const line of added) console.error(`+ ${line}`)
    console.error('If the change is meant, run `npm run api-report` and commit api-report.md with it.')
    process.exit(1)
  }
  console.log('api-report: the public API matches api-report.md')
} else {
  writeFileSync(REPORT, current)
  console.log(`api-report: wrote ${REPORT.slice(REPO.length)}`)
}
