import { fireEvent, render, screen } from '@testing-library/react'
import { clearEchoSession, echoHandlers, seedEchoSession } from 'echo-rtk/testing'
import App from '../src/App'
import { config } from '../src/store'
import { server } from './setup' // msw's setupServer(), listening, unhandled requests as errors

afterEach(() => clearEchoSession())

test('a signed-in user asks, and the answer shows', async () => {
  server.use(...echoHandlers({ ...config, answer: 'Credits fall like leaves' }))
  seedEchoSession(config) // stored as after a sign-in: no request
  render(<App />)
  fireEvent.click(await screen.findByText('Ask'))
  expect(await screen.findByText('Credits fall like leaves', { selector: 'output' })).toBeDefined()
})

test('out of credits, the user reads why', async () => {
  server.use(...echoHandlers({ ...config, outOfCredits: true }))
  seedEchoSession(config)
  render(<App />)
  fireEvent.click(await screen.findByText('Ask'))
  const why = 'You are out of credits. Add credits to keep going.'
  expect(await screen.findByText(why, { selector: 'output' })).toBeDefined() // and the account offers a top-up
})
