import { http, type HttpHandler } from 'msw'

import { DEFAULT_API_URL, DEFAULT_ROUTER_URL, DEFAULT_SERVER_URL } from '../config'
import { createEchoServer } from '../server/createEchoServer'
import { requestCookies } from '../server/cookies'
import type { EchoHandlersOptions } from './mockEcho'

/**
 * The app's own server in server mode (`session: 'server'`), in front of the msw Echo: echo-rtk's
 * real `createEchoServer({ session }).handler` at `<page origin><serverUrl>/*`, signing in against
 * the msw Echo's authorize and token endpoints and sending the page's calls on to its API and
 * router. Node's `fetch` keeps no cookies, so the page's cookie jar is kept here: one page, one jar.
 * With `signedIn`, the user is signed in on this server before the page's first call.
 * @internal
 */
export function serverSessionHandlers(options: EchoHandlersOptions): HttpHandler[] {
  if (options.appId === undefined)
    throw new TypeError("echoHandlers({ session: 'server' }) needs your app's appId: pass your provider's config")
  const pageOrigin = options.pageOrigin ?? globalThis.location?.origin ?? 'http://localhost:3000'
  const serverPath = (options.serverUrl ?? DEFAULT_SERVER_URL).replace(/\/+$/, '')
  const appServer = createEchoServer({
    appId: options.appId,
    apiUrl: options.apiUrl ?? DEFAULT_API_URL,
    baseRouterUrl: options.baseRouterUrl ?? DEFAULT_ROUTER_URL,
    serverUrl: serverPath,
    appOrigin: pageOrigin,
    // A secret for this test's server alone: its cookies open nowhere else.
    session: { secret: crypto.randomUUID() + crypto.randomUUID() },
  })
  const jar = new Map<string, string>()
  let signingIn: Promise<void> | undefined

  const send = async (request: Request): Promise<Response> => {
    const headers = new Headers(request.headers)
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ')
    if (cookie !== '') headers.set('cookie', cookie)
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer()
    const response = await appServer.handler(
      new Request(request.url, { method: request.method, headers, ...(body === undefined ? {} : { body }) }),
    )
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';')
      const [name = '', value = ''] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]
      if (/Max-Age=0\b/.test(line)) jar.delete(name)
      else jar.set(name, value)
    }
    // The page never sees the cookie, as a browser's script never sees an HttpOnly one.
    const answer = new Response(response.body, response)
    answer.headers.delete('set-cookie')
    return answer
  }

  /** The sign-in a browser would make: the server's signin route, Echo's authorize, the server's callback. */
  const signIn = async (): Promise<void> => {
    let next = `${pageOrigin}${serverPath}/signin`
    for (let hop = 0; hop < 5; hop += 1) {
      const answer = next.startsWith(`${pageOrigin}${serverPath}/`)
        ? await send(new Request(next))
        : await fetch(next, { redirect: 'manual' })
      const location = answer.headers.get('location')
      if (location === null) return
      next = new URL(location, next).href
      if (!next.startsWith(`${pageOrigin}${serverPath}/`) && next.startsWith(pageOrigin)) return
    }
  }

  return [
    http.all(`${pageOrigin}${serverPath}/*`, async ({ request }) => {
      if (options.signedIn === true && !requestCookies(request.headers.get('cookie')).size && jar.size === 0)
        await (signingIn ??= signIn())
      return send(request)
    }),
  ]
}
