// @vitest-environment node
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'

import { EchoBalance, EchoProvider, EchoSignIn, EchoTopUp } from 'echo-rtk'

describe('server rendering', () => {
  it('renders nothing and throws nothing', () => {
    const errors = vi.spyOn(console, 'error')
    const html = renderToString(
      <EchoProvider config={{ appId: 'app-123' }}>
        <EchoSignIn />
        <EchoBalance />
        <EchoTopUp />
      </EchoProvider>,
    )
    expect(html).toBe('')
    expect(errors).not.toHaveBeenCalled()
  })
})
