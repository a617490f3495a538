import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'

import { EchoSignIn, EchoSignOut, SignedIn, SignedOut } from 'echo-rtk'

import { echoStoresPerTest } from '../support/echoStores'
import { renderWithEcho, storeWithSessionOverrides } from '../support/renderWithEcho'
import { serveEcho } from '../support/testEcho'

const { newStore, signInThroughEcho } = echoStoresPerTest()

describe('EchoSignOut', () => {
  it('reads Sign out and signs the user out', async () => {
    serveEcho()
    const store = await signInThroughEcho()
    renderWithEcho(
      <>
        <SignedIn>
          <EchoSignOut className="out" />
        </SignedIn>
        <SignedOut>
          <EchoSignIn />
        </SignedOut>
      </>,
      { store },
    )
    const button = screen.getByRole('button', { name: 'Sign out' })
    expect(button.className).toBe('out')
    await userEvent.click(button)
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeDefined()
    expect(store.getState().echo.auth.status).toBe('unauthenticated')
  })

  it('reads Signing out... and is busy while it signs out', async () => {
    serveEcho()
    await signInThroughEcho()
    let finish!: () => void
    const store = storeWithSessionOverrides({ signOut: () => new Promise<void>((resolve) => (finish = resolve)) })
    renderWithEcho(<EchoSignOut />, { store })
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }))
    const busy = screen.getByRole('button', { name: 'Signing out...' })
    expect(busy.getAttribute('aria-busy')).toBe('true')
    expect(busy.getAttribute('aria-disabled')).toBe('true')
    expect(document.activeElement).toBe(busy)
    finish()
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeDefined()
  })

  it('is disabled while nobody is signed in', () => {
    renderWithEcho(<EchoSignOut />, { store: newStore() })
    expect(screen.getByRole('button', { name: 'Sign out' })).toHaveProperty('disabled', true)
  })
})
