import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'

import { EchoProvider, EchoSignIn } from 'echo-rtk'
import { clearEchoSession, echoFixtures, echoHandlers, echoSignIn } from 'echo-rtk/testing'

import { server } from '../support/server'

const config = {
  appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50',
  apiUrl: 'https://echo.test',
  redirectUri: 'http://localhost:3000/',
}

afterEach(() => {
  clearEchoSession()
  window.history.replaceState(null, '', '/')
})

describe('echoSignIn(): the real sign-in, in a DOM that cannot leave the page', () => {
  it('leaves for Echo with PKCE, comes back with a code, and the page loaded again signs in (one code exchange, then the profile)', async () => {
    const echo = echoHandlers(config)
    server.use(...echo)
    const flow = echoSignIn()
    const app = () => (
      <EchoProvider config={config}>
        <EchoSignIn navigate={flow.navigate} />
      </EchoProvider>
    )
    const { unmount } = render(app())
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    const back = new URL(await flow.backFromEcho())
    expect(back.searchParams.get('code')).toBe('test-code-1')
    expect(window.location.href).toBe(back.href)
    unmount()
    render(app())
    expect(await screen.findByText(`Signed in as ${echoFixtures.userinfo.name}`, { exact: false })).toBeDefined()
    expect(window.location.search).toBe('')
    expect(
      echo.requests
        .filter((request) => request.path === '/api/oauth/token')
        .map((request) => (request.body as { grant_type: string }).grant_type),
    ).toEqual(['authorization_code'])
    expect(
      echo.requests.some(
        (request) =>
          request.path === '/api/oauth/userinfo' && request.token === echoFixtures.tokens.issued(1).accessToken,
      ),
    ).toBe(true)
  })

  it('an app that signs in in a window leaves by the redirect instead, as where the browser blocks the window (happy-dom would open it); other windows still open', async () => {
    server.use(...echoHandlers(config))
    const tab = { closed: false, focus: vi.fn(), close: vi.fn(), location: { replace: vi.fn() } }
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window)
    const flow = echoSignIn()
    const app = () => (
      <EchoProvider config={{ ...config, signIn: 'popup' }}>
        <EchoSignIn navigate={flow.navigate} />
      </EchoProvider>
    )
    const { unmount } = render(app())
    expect(window.open('', '_blank')).toBe(tab)
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    await flow.backFromEcho()
    unmount()
    render(app())
    expect(await screen.findByText(`Signed in as ${echoFixtures.userinfo.name}`, { exact: false })).toBeDefined()
    expect(open.mock.calls).toEqual([['', '_blank']])
    expect(window.open, 'the sign-in window opens again once the app has left').toBe(open)
  })

  it('says so when nothing leaves for Echo', async () => {
    await expect(echoSignIn({ timeoutMs: 50 }).backFromEcho()).rejects.toThrow(
      'echoSignIn: nothing left for Echo within 50 ms (click the sign-in button first)',
    )
  })
})
