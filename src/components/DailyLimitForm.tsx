import { useId, useState, type FormEvent, type ReactElement } from 'react'

import { EchoError } from '../errors'
import { MAX_DAILY_LIMIT } from '../store/money/dailyLimit'
import { formatUsd } from './EchoBalance'
import { LIMIT_REACHED } from './EchoAnnouncer'
import { useEchoSpend } from './useEchoSpend'

/** Said beside the field when its figure is not a limit: in the words of the top-up's field. */
const LIMIT_TOO_LOW = 'Enter an amount of at least $0.01, or leave it empty for no limit.'
const LIMIT_TOO_HIGH = `Enter an amount of at most ${formatUsd(MAX_DAILY_LIMIT)}, or leave it empty for no limit.`

/** Why `limit` cannot be saved, in words for the user; `null` when it can. */
function limitProblem(limit: number | null): string | null {
  if (limit === null) return null
  if (!(limit >= 0.01)) return LIMIT_TOO_LOW
  return limit > MAX_DAILY_LIMIT ? LIMIT_TOO_HIGH : null
}

/**
 * The user's own daily limit for this app, in `<EchoAccount>`'s panel: a field (empty for none)
 * and `Save limit`. At the limit it says so above the field, which is where the user raises it.
 */
export function DailyLimitForm(): ReactElement {
  const { dailyLimit, isSpendLimitReached, setDailyLimit } = useEchoSpend()
  const inputId = useId()
  const problemId = useId()
  const [text, setText] = useState(dailyLimit === null ? '' : String(dailyLimit))
  const [problem, setProblem] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  const save = async (event: FormEvent) => {
    event.preventDefault()
    const limit = text.trim() === '' ? null : Number(text)
    const refusal = limitProblem(limit)
    if (refusal !== null) {
      setSaved(false)
      setProblem(refusal)
      return
    }
    try {
      await setDailyLimit(limit)
      setProblem(null)
      setSaved(true)
    } catch (error) {
      setSaved(false)
      setProblem(error instanceof EchoError ? error.userMessage : String(error))
    }
  }
  return (
    // noValidate: the reason a limit is refused shows here, tied to the field, in every browser alike.
    <form onSubmit={(event) => void save(event)} noValidate data-echo-daily-limit="">
      {isSpendLimitReached && <p data-echo-daily-limit-reached="">{LIMIT_REACHED}</p>}
      <label htmlFor={inputId}>Daily limit (USD)</label>
      <input
        id={inputId}
        type="number"
        inputMode="decimal"
        min={0.01}
        max={MAX_DAILY_LIMIT}
        step="any"
        placeholder="No limit"
        value={text}
        aria-invalid={problem !== null}
        aria-describedby={problem === null ? undefined : problemId}
        onChange={(event) => (setText(event.target.value), setSaved(false))}
      />
      <button type="submit">Save limit</button>
      {saved && <span data-echo-daily-limit-saved=""> Saved</span>}
      {problem !== null && (
        <p id={problemId} data-echo-daily-limit-problem="">
          {problem}
        </p>
      )}
    </form>
  )
}
