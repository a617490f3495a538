'use client'

import { EchoAccount, EchoProvider, Logo, useEcho, type EchoConfig } from 'echo-rtk'
import type { ReactNode } from 'react'

function ErrorLine() {
  const { error } = useEcho()
  return error === null ? null : (
    <p role="alert" className="error">
      {error}
    </p>
  )
}

/** The session lives in the browser; `serverOrigins: ['self']` lets its fetch carry the user's token to this app's own routes. */
export function Providers({ config, children }: { config: EchoConfig; children: ReactNode }) {
  return (
    <EchoProvider config={config}>
      <header className="bar">
        <h1>
          <Logo size={22} /> Order help
        </h1>
        <EchoAccount className="account" />
      </header>
      <ErrorLine />
      {children}
    </EchoProvider>
  )
}
