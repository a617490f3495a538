import { useState } from 'react'

/** One model call at a time, with its busy flag and the message of its last failure. */
export function useModelCall() {
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  async function run(call: () => Promise<void>) {
    setBusy(true)
    setProblem(null)
    try {
      await call()
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error))
    } finally {
      setBusy(false)
    }
  }
  return { busy, problem, run }
}
