import { act } from '@testing-library/react'
import { Profiler } from 'react'
import { describe, expect, it } from 'vitest'

import { EchoBalance, useEcho } from 'echo-rtk'

import { echoStoresPerTest, sessionOf } from '../support/echoStores'
import { fakeEcho } from '../support/fakeEcho'
import { renderWithEcho } from '../support/renderWithEcho'

const { signInThroughEcho } = echoStoresPerTest()

function UserName() {
  return <p>{useEcho().user?.name}</p>
}

describe('a silent token refresh', () => {
  it('re-renders neither a balance-only component nor a useEcho() consumer', async () => {
    const echo = fakeEcho()
    const store = await signInThroughEcho(echo)
    const renders = { balance: 0, useEcho: 0 }
    renderWithEcho(
      <>
        <Profiler id="balance" onRender={() => (renders.balance += 1)}>
          <EchoBalance />
        </Profiler>
        <Profiler id="useEcho" onRender={() => (renders.useEcho += 1)}>
          <UserName />
        </Profiler>
      </>,
      { store },
    )
    const before = { ...renders }
    await act(() => sessionOf(store).coordinator.refreshToken())
    expect(echo.counts.refreshes).toBe(1)
    expect(store.getState().echo.auth.accessToken).toBe('access-2')
    expect(renders.balance - before.balance).toBe(0)
    expect(renders.useEcho - before.useEcho).toBe(0)
  })
})
