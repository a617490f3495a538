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

/**
 * Server mode: the user's session lives on this app's server (app/api/echo/[...echo]/route.ts), in an
 * HttpOnly cookie; the page holds no token, and every call goes to this app's own routes.
 */
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
