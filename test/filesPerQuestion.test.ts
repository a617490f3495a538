// The files to read per question (CONTRIBUTING.md, "Where the money is"): each money question a maintainer
// asks has at most two files, and each name that answers it is defined in those files and in no other file
// of src/, so the answer cannot drift elsewhere unseen.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

import { describe, expect, it } from 'vitest'

const SRC = join(import.meta.dirname, '..', 'src')

/** Each question: the files under src/store/ that answer it, and the names defined there that do. */
const QUESTIONS: { question: string; files: string[]; names: string[] }[] = [
  {
    question: 'What can the user spend? (the credit arithmetic)',
    files: ['money/credit.ts', 'selectors.ts'],
    names: ['SPENT_AT_OR_BELOW_USD', 'paidBalanceOf', 'freeTierLeftOf', 'freeCreditOf', 'roundUsd', 'selectCredit'],
  },
  {
    question: 'Where is the daily limit, and where is it enforced?',
    files: ['money/dailyLimit.ts', 'money/moneySlice.ts'],
    names: [
      'MAX_DAILY_LIMIT',
      'selectDailyLimit',
      'selectIsSpendLimitReached',
      'refuseOverDailyLimit',
      'dailyLimitProblem',
      'dailyLimitKey',
      'storedDailyLimit',
      'dailyLimitChosen',
    ],
  },
  {
    question: "Where is today's spend worked out and kept?",
    files: ['money/spendWatch.ts', 'money/moneySlice.ts'],
    names: ['SpendWatch', 'spentKey', 'spentOn', 'spentRecord', 'localDay', 'charged', 'spentTodayChanged'],
  },
  {
    question: 'How is a top-up confirmed?',
    files: ['money/topUpWatch.ts', 'money/moneySlice.ts'],
    names: [
      'TopUpWatch',
      'TOP_UP_CHECKS_S',
      'markTopUpReturn',
      'takeCheckoutReturn',
      'topUpWaiting',
      'topUpLate',
      'topUpCredited',
    ],
  },
  {
    question: 'What does every billed call go through?',
    files: ['money/billedCalls.ts'],
    names: ['createBilledFetch', 'sessionEchoFetchOf', 'sessionRouterOf'],
  },
  {
    question: 'When is the balance asked again after a call?',
    files: ['money/billedCalls.ts', 'money/balanceAskedAgain.ts'],
    names: ['BALANCE_REFETCH_DELAY_MS', 'balanceAskedAgain'],
  },
]

/** Every source file under src/, by its path there. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [relative(SRC, path)] : []
  })
}

/**
 * Where `name` is defined: an exported declaration (`export const name`, `export function name`, a class,
 * an interface, a type), or a case reducer of a slice (`name(state`); never a re-export or a use.
 */
function definedIn(name: string, files: string[]): string[] {
  const declaration = new RegExp(
    `^export (?:const|let|async function|function|class|interface|type) ${name}\\b|^ {4}${name}\\(state\\b`,
    'm',
  )
  return files.filter((file) => declaration.test(readFileSync(join(SRC, file), 'utf8')))
}

describe('the files to read per question', () => {
  const files = sourceFiles()

  it.each(QUESTIONS)(
    '$question: at most two files, which define every name that answers it',
    ({ files: own, names }) => {
      expect(own.length).toBeLessThanOrEqual(2)
      const where = own.map((file) => join('store', file))
      for (const name of names) expect(definedIn(name, files), name).toEqual([expect.toBeOneOf(where)])
      // Each of its files answers something: no file listed for nothing.
      for (const file of where)
        expect(
          names.some((name) => definedIn(name, [file]).length > 0),
          file,
        ).toBe(true)
    },
  )
})
