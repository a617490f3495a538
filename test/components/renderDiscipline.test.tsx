import { act } from '@testing-library/react'
import { Profiler } from 'react'
import { describe, expect, it } from 'vitest'

import { EchoAccount, EchoBalance, EchoSignIn, useEcho } from 'echo-rtk'

import { echoStoresPerTest, sessionOf } from '../support/echoStores'
import { renderWithEcho } from '../support/renderWithEcho'
import { refreshGrants, serveEcho } from '../support/testEcho'

const { signInThroughEcho } = echoStoresPerTest()

function UserName() {
  return <p>{useEcho().user?.name}</p>
}

describe('a silent token refresh', () => {
  it('re-renders none of the balance, the sign-in button, the account control or a useEcho() consumer', async () => {
    const echo = serveEcho()
    const store = await signInThroughEcho()
    const renders = { balance: 0, useEcho: 0, signIn: 0, account: 0 }
    renderWithEcho(
      <>
        <Profiler id="balance" onRender={() => (renders.balance += 1)}>
          <EchoBalance />
        </Profiler>
        <Profiler id="useEcho" onRender={() => (renders.useEcho += 1)}>
          <UserName />
        </Profiler>
        <Profiler id="signIn" onRender={() => (renders.signIn += 1)}>
          <EchoSignIn />
        </Profiler>
        <Profiler id="account" onRender={() => (renders.account += 1)}>
          <EchoAccount />
        </Profiler>
      </>,
      { store },
    )
    const before = { ...renders }
    await act(() => sessionOf(store).coordinator.refreshToken())
    expect(refreshGrants(echo)).toHaveLength(1)
    expect(store.getState().echo.auth.accessToken).toBe('test-access-2')
    expect(renders).toEqual(before)
  })
})
