/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts; the work itself goes on. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise
  if (signal.aborted) {
    // The caller is gone, but the work may still fail (a stream read the abort cuts): that is nobody's to handle.
    promise.catch(() => undefined)
    return Promise.reject(abortReason(signal))
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject)
  })
}

/** Rejects with `timedOut(ms)` when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, timedOut: (ms: number) => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut(ms)), ms)
    promise.finally(() => clearTimeout(timer)).then(resolve, reject)
  })
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError')
}
