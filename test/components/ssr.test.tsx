// @vitest-environment node
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'

import { EchoBalance, EchoProvider, EchoSignIn, EchoTopUp } from 'echo-rtk'

describe('server rendering', () => {
  it('renders nothing and throws nothing', () => {
    const errors = vi.spyOn(console, 'error')
    const html = renderToString(
      <EchoProvider config={{ appId: '2f6e4d1a-8c3b-4e5f-9a7d-0b1c2d3e4f50' }}>
        <EchoSignIn />
        <EchoBalance />
        <EchoTopUp />
      </EchoProvider>,
    )
    expect(html).toBe('')
    expect(errors).not.toHaveBeenCalled()
  })
})
