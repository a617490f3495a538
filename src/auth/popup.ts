import { EchoError } from '../errors'
import type { EchoEnvironment, PopupWindow } from './environment'

// Sign-in in a window of its own, both ends of it. The opener opens the window inside the user's
// click (a browser blocks a window opened later), sends it to Echo, and waits; Echo sends it back to
// the app's own redirect URI, where the page sees a popup's sign-in coming back and hands the answer
// to the opener, which makes the one code exchange. The answer travels by `postMessage` to the
// opener (its origin checked) and on a same-origin `BroadcastChannel` (for an opener the window was
// cut from); the opener says it took it, and the popup closes.

/** How long the opener waits for the sign-in window's answer before it gives up and closes it. */
export const POPUP_TIMEOUT_MS = 10 * 60_000
/** How often the opener looks whether the user closed the window. */
export const POPUP_CLOSED_POLL_MS = 500
/** How long the returning popup waits for its opener to take the answer before it completes the sign-in itself. */
export const HANDOVER_WAIT_MS = 5_000

/** The name `window.open` is given for the sign-in window. @internal */
export const POPUP_TARGET = 'echo-rtk-sign-in'
const RETURN = 'echo-rtk/sign-in-return'
const TAKEN = 'echo-rtk/sign-in-taken'

interface ReturnMessage {
  type: typeof RETURN
  appId: string
  state: string
  href: string
}

interface TakenMessage {
  type: typeof TAKEN
  state: string
}

const channelName = (appId: string) => `echo-rtk:sign-in:${appId}`

/** A window 480×640 over the middle of the page's window, where the browser lets it be one. */
export function popupFeatures(screen: { x: number; y: number; width: number; height: number }): string {
  const width = 480
  const height = 640
  const left = Math.round(screen.x + Math.max(screen.width - width, 0) / 2)
  const top = Math.round(screen.y + Math.max(screen.height - height, 0) / 2)
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`
}

/** Opens the empty sign-in window, or focuses the one open; `null` when the browser blocked it. */
export function openSignInWindow(env: EchoEnvironment): PopupWindow | null {
  return env.openWindow('about:blank', POPUP_TARGET, popupFeatures(env.windowFrame()))
}

/** Why a popup sign-in ended without one; each is also what the user is told. */
export function popupError(reason: 'popup-closed' | 'popup-blocked' | 'popup-timeout'): EchoError {
  const message = {
    'popup-closed': 'The sign-in window was closed before signing in',
    'popup-blocked': 'The browser blocked the sign-in window: allow pop-ups for this site, or sign in again',
    'popup-timeout': 'The sign-in window got no answer in time: sign in again',
  }[reason]
  // Each sentence says it all: no " while signing in" after it.
  return new EchoError({ code: 'UNKNOWN_ERROR', reason, message })
}

/**
 * Waits for the sign-in window's answer to the sign-in of `state`: resolves to the address the
 * window came back at (with the code, or Echo's error). Takes only an answer from this page's own
 * origin and, by `postMessage`, from that very window; tells the window it was taken. Rejects with
 * `popup-closed` when the user closes the window, `popup-timeout` after {@link POPUP_TIMEOUT_MS}.
 */
export function waitForSignInReturn(
  env: EchoEnvironment,
  { popup, state, appId }: { popup: PopupWindow; state: string; appId: string },
): Promise<string> {
  const origin = new URL(env.location.href).origin
  const channel = env.openChannel?.(channelName(appId))
  return new Promise<string>((resolve, reject) => {
    let polling: unknown
    let stopMessages = () => {}
    const finish = (settle: () => void) => {
      env.clearTimeout(polling)
      env.clearTimeout(timeout)
      stopMessages()
      channel?.close()
      settle()
    }
    const take = (data: unknown) => {
      if (!isReturnMessage(data) || data.appId !== appId || data.state !== state) return
      const taken: TakenMessage = { type: TAKEN, state }
      // Told both ways: the window may have been cut from this page (then only the channel reaches it).
      if (!popup.closed) popup.postMessage(taken, origin)
      channel?.postMessage(taken)
      finish(() => resolve(data.href))
    }
    stopMessages = env.onMessage((event) => event.origin === origin && event.source === popup && take(event.data))
    if (channel) channel.onmessage = (event: MessageEvent) => take(event.data)
    const timeout = env.setTimeout(() => finish(() => reject(popupError('popup-timeout'))), POPUP_TIMEOUT_MS)
    const poll = () => {
      if (popup.closed) return finish(() => reject(popupError('popup-closed')))
      polling = env.setTimeout(poll, POPUP_CLOSED_POLL_MS)
    }
    polling = env.setTimeout(poll, POPUP_CLOSED_POLL_MS)
  })
}

/**
 * The returning popup's half: hands the sign-in at `href` (of `state`) to the opener and resolves
 * to whether the opener took it within {@link HANDOVER_WAIT_MS}. Not taken (the opener's tab was
 * closed, or the sign-in cut the window from it), the page completes the sign-in itself.
 */
export function handOverSignInReturn(
  env: EchoEnvironment,
  { appId, state, href }: { appId: string; state: string; href: string },
): Promise<boolean> {
  const origin = new URL(env.location.href).origin
  const channel = env.openChannel?.(channelName(appId))
  return new Promise<boolean>((resolve) => {
    let stopMessages = () => {}
    const finish = (taken: boolean) => {
      env.clearTimeout(timeout)
      stopMessages()
      channel?.close()
      resolve(taken)
    }
    const onAnswer = (data: unknown) => isTakenMessage(data) && data.state === state && finish(true)
    stopMessages = env.onMessage((event) => event.origin === origin && onAnswer(event.data))
    if (channel) channel.onmessage = (event: MessageEvent) => onAnswer(event.data)
    const timeout = env.setTimeout(() => finish(false), HANDOVER_WAIT_MS)
    const message: ReturnMessage = { type: RETURN, appId, state, href }
    env.postToOpener(message, origin)
    channel?.postMessage(message)
  })
}

function isReturnMessage(data: unknown): data is ReturnMessage {
  const message = data as Partial<ReturnMessage> | null
  return (
    message?.type === RETURN &&
    typeof message.appId === 'string' &&
    typeof message.state === 'string' &&
    typeof message.href === 'string'
  )
}

function isTakenMessage(data: unknown): data is TakenMessage {
  const message = data as Partial<TakenMessage> | null
  return message?.type === TAKEN && typeof message.state === 'string'
}
