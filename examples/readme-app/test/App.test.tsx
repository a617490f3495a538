import { render, screen } from '@testing-library/react'
import { clearEchoSession, echoHandlers, seedEchoSession } from 'echo-rtk/testing'
import App, { config } from '../src/App' // the Quickstart's
import { server } from './setup' // msw's setupServer(), listening

afterEach(() => clearEchoSession())

test('shows the balance of a signed-in user', async () => {
  server.use(...echoHandlers({ ...config, balance: 42 }))
  seedEchoSession(config) // stored as after a sign-in: the provider starts signed in, no request
  render(<App />)
  expect(await screen.findByText('$42.00')).toBeDefined()
})
